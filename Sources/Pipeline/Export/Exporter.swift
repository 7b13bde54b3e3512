import Foundation

/// `facepipe export FORMAT RUN_DIR --out DEST`: reads a finished run and
/// writes its kept faces in a training format. The same run gives the same
/// bytes, whatever `--workers` it ran with: every file follows manifest order
/// and fixed number formats.
package enum Exporter {
    /// What an export wrote.
    package struct Summary: Sendable {
        package var images: Int
        package var faces: Int
        package var files: Int
    }

    package static func export(run directory: URL, to destination: URL, options: ExportOptions) throws(ExportError) -> Summary {
        if options.referenceOriginals, options.format.needsImages { throw .originalsNeedImages(format: options.format.rawValue) }
        let set = options.effectiveKeypoints
        let run = try FinishedRun(directory: directory)
        let pointGroups = options.format.writesKeypoints ? set.pointGroups : []
        func eachImage(_ body: (ExportImage) throws(ExportError) -> Void) throws(ExportError) {
            let images = try run.images(pointGroups: pointGroups)
            while let image = try images.next() { try body(image) }
        }
        // Every image read and checked before anything is written (a pass
        // over the manifest; the passes that write read it again).
        var count = 0, faces = 0
        var archives = Set<String>()
        try eachImage { (image) throws(ExportError) in
            // Refuse before writing anything when the run lacks the points.
            if options.format.writesKeypoints { for face in image.faces { _ = try set.points(of: face, in: image) } }
            count += 1
            faces += image.faces.count
            archives.insert(image.archive)
        }
        try refuseDestinationInside(run: directory, destination)
        let paths: ImagePaths
        if options.referenceOriginals {
            let originals = OriginalFiles(run: run, destination: destination)
            try eachImage { (image) throws(ExportError) in _ = try originals.relativePath(of: image) }
            paths = .originals(originals)
        } else {
            try UprightImages.checkReadable(run, archives: archives)
            paths = .written(root: options.format.imagePathRoot)
        }
        let dest = try ExportDestination(destination)
        var files = 0

        if !options.referenceOriginals, options.format != .webdataset {
            try UprightImages.forEach(of: run, try run.images(pointGroups: pointGroups)) { (image, png) throws(ExportError) in
                try dest.write(png, to: ImagePaths.writtenFile(of: image))
            }
            files += count
        }
        switch options.format {
        case .webdataset:
            var shards = WebDatasetExport(destination: dest.root, keypoints: set, shardSize: options.shardSize)
            try UprightImages.forEach(of: run, try run.images(pointGroups: pointGroups)) { (image, png) throws(ExportError) in
                try shards.add(image, png: png)
            }
            try shards.finish()
            files += (count + options.shardSize - 1) / options.shardSize
        case .coco:
            try COCOExport.write(to: try dest.streamed(COCOExport.fileName), keypoints: set, paths: paths, pipeline: run.pipeline,
                                 images: eachImage)
            files += 1
        case .yolo:
            try eachImage { (image) throws(ExportError) in try dest.write(try YOLOExport.labels(image), to: YOLOExport.labelPath(image)) }
            try dest.write(YOLOExport.dataset(pipeline: run.pipeline), to: YOLOExport.datasetFile)
            files += count + 1
        case .wider:
            let file = try dest.streamed(WIDERExport.fileName)
            try eachImage { (image) throws(ExportError) in try file.append(try WIDERExport.lines(image, paths: paths)) }
            try file.commit()
            files += 1
        case .retinaface:
            let file = try dest.streamed(RetinaFaceExport.fileName)
            try eachImage { (image) throws(ExportError) in try file.append(try RetinaFaceExport.lines(image, paths: paths)) }
            try file.commit()
            files += 1
        case .pts:
            try eachImage { (image) throws(ExportError) in
                for face in image.faces { try dest.write(try PTSExport.file(image, face), to: PTSExport.path(image, face)) }
                files += image.faces.count
            }
        }
        return Summary(images: count, faces: faces, files: files)
    }

    /// Refuses a DEST that exists and is RUN_DIR or inside it (links resolved):
    /// `export yolo RUN --out RUN` would write over the run's annotated
    /// images. A DEST that does not exist yet is a new folder and is allowed.
    static func refuseDestinationInside(run directory: URL, _ destination: URL) throws(ExportError) {
        guard let run = realpath(directory.path, nil) else { return }
        defer { free(run) }
        guard let dest = realpath(destination.path, nil) else { return }
        defer { free(dest) }
        let runPath = String(cString: run), destPath = String(cString: dest)
        if destPath == runPath || destPath.hasPrefix(runPath.hasSuffix("/") ? runPath : runPath + "/") {
            throw .destinationInsideRun(destination: destination.path, run: directory.path)
        }
    }
}
