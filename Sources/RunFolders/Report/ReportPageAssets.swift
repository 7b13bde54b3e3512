/// The inline style and script of `report.html` (``ReportPage``). The
/// script reads the two JSON blocks and builds the page with DOM calls;
/// every text from the data is set as text, never parsed as HTML.
enum ReportPageAssets {
    static let style = """
    body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #1d2228; background: #f6f7f9; }
    header { background: #22313f; color: #fff; padding: 12px 24px; }
    header h1 { margin: 0; font-size: 20px; }
    header p { margin: 4px 0 0; color: #c9d3dc; }
    main { padding: 8px 24px 24px; }
    section { background: #fff; border: 1px solid #dde2e7; border-radius: 6px; padding: 8px 16px 16px; margin-top: 16px; }
    h2 { font-size: 17px; margin: 8px 0; }
    h3 { font-size: 14px; margin: 12px 0 4px; color: #44505c; }
    table { border-collapse: collapse; }
    td, th { padding: 2px 10px 2px 0; text-align: left; vertical-align: top; }
    td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
    tr + tr td { border-top: 1px solid #eef0f2; }
    .pairs th { color: #5b6773; font-weight: normal; }
    .columns { display: flex; flex-wrap: wrap; gap: 0 32px; }
    .top { display: grid; grid-template-columns: repeat(auto-fit, minmax(520px, 1fr)); gap: 0 16px; }
    .top section { min-width: 0; }
    #run-table td { overflow-wrap: anywhere; }
    .muted { color: #75808a; }
    .example { color: #5b6773; font-family: ui-monospace, monospace; font-size: 12px; word-break: break-all; }
    .charts { display: flex; flex-wrap: wrap; gap: 16px; }
    .chart { width: 360px; }
    .chart svg { display: block; }
    .chart rect.bar { fill: #3d7ab8; }
    .chart text { font-size: 10px; fill: #5b6773; }
    .pager { display: flex; gap: 12px; align-items: center; margin-bottom: 8px; }
    .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: 10px; }
    figure { margin: 0; border: 1px solid #dde2e7; border-radius: 4px; padding: 4px; background: #fafbfc; }
    figure img { width: 100%; height: 200px; object-fit: contain; background: #e9ecef; display: block; }
    figcaption { font-size: 12px; word-break: break-all; }
    pre { font-size: 12px; overflow: auto; max-height: 600px; background: #f3f4f6; padding: 8px; }
    .warning { background: #fff3cd; padding: 8px 24px; margin: 0; }
    """

    static let script = """
    (function () {
      'use strict';
      /* run.json may come from anyone: what it lacks, or holds with the wrong
         type, is left out and said so; the rest of the page is still drawn. */
      var problems = [];
      function warn(text) {
        var note = document.createElement('p');
        note.className = 'warning';
        note.textContent = text;
        document.querySelector('main').insertBefore(note, document.querySelector('main').firstChild);
        problems.push(text);
      }
      function parse(id, what) {
        var text = document.getElementById(id).textContent;
        if (text.charCodeAt(0) === 0xFEFF) { text = text.slice(1); }
        try { return JSON.parse(text); } catch (error) { warn('Cannot read ' + what + ': ' + error.message); return null; }
      }
      function object(value) { return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {}; }
      function list(value) { return Array.isArray(value) ? value : []; }
      function text(value) {
        return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
      }
      function section(what, draw) {
        try { draw(); } catch (error) { warn('Cannot show ' + what + ': ' + error.message); }
      }
      var report = object(parse('report-data', 'the report data'));
      var runValue = parse('run-json', 'run.json');
      if (runValue !== null && object(runValue) !== runValue) { warn('run.json is not a JSON object; its fields are not shown.'); }
      var run = object(runValue);
      ['rowsByStatus', 'entriesByOutcome', 'errors', 'rejections', 'skipped', 'histograms', 'gallery'].forEach(function (key) {
        report[key] = list(report[key]);
      });

      function element(tag, text, className) {
        var node = document.createElement(tag);
        if (text !== undefined && text !== null) { node.textContent = String(text); }
        if (className) { node.className = className; }
        return node;
      }
      function row(table, cells) {
        var tr = document.createElement('tr');
        cells.forEach(function (cell) { tr.appendChild(cell); });
        table.appendChild(tr);
        return tr;
      }
      function number(value, id) {
        var td = element('td', value, 'number');
        if (id) { td.id = id; }
        return td;
      }
      function slug(text) { return String(text).replace(/[^a-z0-9]+/gi, '-').replace(/^-+|-+$/g, '').toLowerCase(); }
      function bytes(count) {
        if (count === undefined || count === null) { return ''; }
        var units = ['B', 'KB', 'MB', 'GB', 'TB'];
        var value = count, unit = 0;
        while (value >= 1000 && unit < units.length - 1) { value = value / 1000; unit += 1; }
        return (unit === 0 ? String(value) : value.toFixed(1)) + ' ' + units[unit];
      }
      function escapeText(text) {
        return String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
      }

      var pipeline = object(run.pipeline);
      document.getElementById('title').textContent = 'facepipe report: ' + text(pipeline.name);
      document.getElementById('subtitle').textContent =
        report.entriesByOutcome.reduce(function (sum, item) { return sum + item.count; }, 0) + ' entries, ' +
        report.faces + ' faces (' + report.keptFaces + ' kept), ' + text(run.finished);

      section('the run (run.json)', function () {
      var runTable = document.getElementById('run-table');
      var started = Date.parse(run.started), finished = Date.parse(run.finished);
      var configuration = object(run.configuration);
      var summary = object(run.summary);
      [
        ['pipeline', text(pipeline.name) + ' (fingerprint ' + text(pipeline.fingerprint).slice(0, 12) + ')'],
        ['stages', list(pipeline.stages).map(function (stage) { return text(object(object(stage).definition).name); }).join(' \\u2192 ')],
        ['options set', list(run.overrides).map(function (o) { o = object(o); return text(o.stage) + '.' + text(o.option) + '=' + text(o.value); }).join(', ') || 'none'],
        ['tool', text(run.tool) + ' ' + text(run.toolVersion) + ', results version ' + text(run.resultsVersion)],
        ['started', text(run.started)],
        ['finished', text(run.finished)],
        ['time', isFinite(finished - started) ? ((finished - started) / 1000) + ' s' : ''],
        ['workers', text(configuration.workers)],
        ['cache', text(configuration.recompute) + (configuration.resume === true ? ', resumed' : '') + ', ' + (Number(summary.cacheHits) || 0) + ' cached stage results reused'],
        ['megapixels', typeof summary.megapixels === 'number' ? summary.megapixels.toFixed(1) : ''],
        ['interrupted', summary.interrupted === true ? 'yes: rerun with --resume to finish' : 'no'],
        ['command', list(run.commandLine).map(text).join(' ')]
      ].forEach(function (pair) { row(runTable, [element('th', pair[0]), element('td', pair[1])]); });
      });

      section('the inputs (run.json)', function () {
      var inputsTable = document.getElementById('inputs-table');
      row(inputsTable, [element('th', 'input'), element('th', 'path'), element('th', 'size', 'number'), element('th', 'SHA-256'), element('th', 'problem')]);
      list(run.inputs).forEach(function (input) {
        input = object(input);
        var sha = text(input.sha256);
        row(inputsTable, [element('td', text(input.name)), element('td', text(input.path)), number(typeof input.bytes === 'number' ? bytes(input.bytes) : ''),
                          element('td', sha ? sha.slice(0, 16) + '\\u2026' : '', 'example'), element('td', text(input.error))]);
      });
      });

      var rowsTable = document.getElementById('rows-table');
      report.rowsByStatus.forEach(function (item) {
        row(rowsTable, [element('td', item.status), number(item.count, 'rows-' + slug(item.status))]);
      });
      var entriesTable = document.getElementById('entries-table');
      report.entriesByOutcome.forEach(function (item) {
        row(entriesTable, [element('td', item.status), number(item.count, 'entries-' + slug(item.status))]);
      });
      row(entriesTable, [element('td', 'input errors'), number(report.inputErrors, 'entries-input-errors')]);
      var facesTable = document.getElementById('faces-table');
      row(facesTable, [element('td', 'detected'), number(report.faces, 'faces-detected')]);
      row(facesTable, [element('td', 'kept'), number(report.keptFaces, 'faces-kept')]);
      row(facesTable, [element('td', 'rejected'), number(report.faces - report.keptFaces, 'faces-rejected')]);

      function groups(id, items, none) {
        var table = document.getElementById(id);
        if (items.length === 0) { row(table, [element('td', none, 'muted')]); return; }
        row(table, [element('th', 'count', 'number'), element('th', 'reason'), element('th', 'example')]);
        items.forEach(function (group) {
          var example = element('td', null, 'example');
          example.appendChild(element('div', group.example));
          example.appendChild(element('div', group.exampleText, 'muted'));
          row(table, [number(group.count), element('td', group.reason), example]);
        });
      }
      groups('errors-table', report.errors, 'No errors.');
      groups('rejections-table', report.rejections, 'No rejected faces.');
      groups('skipped-table', report.skipped, 'No skipped entries.');

      var charts = document.getElementById('charts');
      report.histograms.forEach(function (histogram) {
        var box = element('div', null, 'chart');
        var total = histogram.counts.reduce(function (a, b) { return a + b; }, 0);
        box.appendChild(element('h3', histogram.title + ' (' + total + ' faces)'));
        if (total === 0) {
          box.appendChild(element('p', 'No values: this pipeline does not compute ' + histogram.column + ', or kept no face.', 'muted'));
          charts.appendChild(box);
          return;
        }
        var width = 360, height = 130, left = 34, bottom = 20, top = 8;
        var count = histogram.counts.length, largest = Math.max.apply(null, histogram.counts.concat([1]));
        var barWidth = (width - left - 4) / count;
        var parts = ['<svg width="' + width + '" height="' + height + '" viewBox="0 0 ' + width + ' ' + height + '" role="img">'];
        parts.push('<text x="0" y="' + (top + 8) + '">' + largest + '</text><text x="0" y="' + (height - bottom) + '">0</text>');
        histogram.counts.forEach(function (value, bin) {
          var barHeight = (height - bottom - top) * value / largest;
          var x = left + bin * barWidth, y = height - bottom - barHeight;
          var low = histogram.edges[bin], high = histogram.edges[bin + 1];
          var range = bin === count - 1 ? '\\u2265 ' + low : low + ' to ' + high;
          parts.push('<rect class="bar" x="' + (x + 1).toFixed(1) + '" y="' + y.toFixed(1) + '" width="' + Math.max(barWidth - 2, 1).toFixed(1) +
                     '" height="' + barHeight.toFixed(1) + '"><title>' + escapeText(range + ': ' + value) + '</title></rect>');
          if (bin % Math.ceil(count / 7) === 0) {
            parts.push('<text x="' + x.toFixed(1) + '" y="' + (height - 6) + '">' + escapeText(low) + '</text>');
          }
        });
        parts.push('</svg>');
        var figure = element('div');
        figure.innerHTML = parts.join('');
        box.appendChild(figure);
        charts.appendChild(box);
      });

      var pageSize = 48, page = 0;
      var filters = [
        ['all images', function () { return true; }],
        ['with kept faces', function (image) { return image.kept > 0; }],
        ['with rejected faces', function (image) { return image.rejected > 0; }],
        ['without kept faces', function (image) { return image.kept === 0; }]
      ];
      var filterSelect = document.getElementById('gallery-filter');
      /* The page lists the first galleryLimit images of each filter; the counts are the whole run's. */
      var galleryLimit = \(RunReport.galleryLimit);
      var galleryCounts = list(report.galleryCounts);
      function filterTotal(index) {
        var count = galleryCounts[index];
        return typeof count === 'number' ? count : report.gallery.filter(filters[index][1]).length;
      }
      filters.forEach(function (filter, index) {
        var option = element('option', filter[0] + ' (' + filterTotal(index) + ')');
        option.value = String(index);
        filterSelect.appendChild(option);
      });
      /* Only a relative path inside the folder becomes a link or an image:
         no leading slash, no host, no '.', '..' or empty component. */
      function relativeLink(path) {
        var parts = text(path).split('/');
        if (parts.some(function (part) { return part === '' || part === '.' || part === '..'; })) { return null; }
        return parts.map(encodeURIComponent).join('/');
      }
      function showGallery() {
        var grid = document.getElementById('gallery-grid');
        grid.textContent = '';
        if (report.imagesInTar) {
          grid.appendChild(element('p', 'The images of this run are inside tar files (outputs/ with --output-tar, redacted/ with --redacted-shards); extract them beside this page to see them.', 'muted'));
        }
        var images = report.gallery.filter(filters[Number(filterSelect.value)][1]).slice(0, galleryLimit);
        var total = Math.max(filterTotal(Number(filterSelect.value)), images.length);
        var pages = Math.max(1, Math.ceil(images.length / pageSize));
        page = Math.min(Math.max(page, 0), pages - 1);
        document.getElementById('gallery-page').textContent = 'page ' + (page + 1) + ' of ' + pages + ', ' +
          (total > images.length ? 'the first ' + images.length + ' of ' + total : images.length) + ' images';
        document.getElementById('gallery-previous').disabled = page === 0;
        document.getElementById('gallery-next').disabled = page >= pages - 1;
        images.slice(page * pageSize, (page + 1) * pageSize).forEach(function (image) {
          var figure = element('figure');
          var target = relativeLink(image.output);
          if (target === null) {
            figure.appendChild(element('p', 'not shown: its path leaves this folder', 'muted'));
          } else {
            var link = element('a');
            link.href = target;
            var img = element('img');
            img.loading = 'lazy';
            img.alt = text(image.entry);
            img.src = target;
            link.appendChild(img);
            figure.appendChild(link);
          }
          figure.appendChild(element('figcaption', image.archive + '/' + image.entry + ': ' + image.kept + ' kept' +
                                     (image.rejected > 0 ? ', ' + image.rejected + ' rejected' : '')));
          grid.appendChild(figure);
        });
      }
      filterSelect.addEventListener('change', function () { page = 0; showGallery(); });
      document.getElementById('gallery-previous').addEventListener('click', function () { page -= 1; showGallery(); });
      document.getElementById('gallery-next').addEventListener('click', function () { page += 1; showGallery(); });
      showGallery();

      document.getElementById('provenance').textContent =
        runValue === null ? document.getElementById('run-json').textContent : JSON.stringify(runValue, null, 2);
    })();
    """
}
