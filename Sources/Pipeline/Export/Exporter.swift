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
        let run = try FinishedRun(directory: directory, pointGroups: options.format.writesKeypoints ? set.pointGroups : [])
        let images = run.images
        // Refuse before writing anything when the run lacks the points.
        if options.format.writesKeypoints {
            for image in images { for face in image.faces { _ = try set.points(of: face, in: image) } }
        }
        try refuseDestinationInside(run: directory, destination)
        let paths: ImagePaths
        if options.referenceOriginals {
            paths = .originals(try OriginalFiles.relativePaths(of: images, in: run, from: destination))
        } else {
            try UprightImages.checkReadable(run, images)
            paths = .written(root: options.format.imagePathRoot)
        }
        let dest = try ExportDestination(destination)
        var files = 0

        if !options.referenceOriginals, options.format != .webdataset {
            try UprightImages.forEach(of: run, images) { (image, png) throws(ExportError) in
                try dest.write(png, to: ImagePaths.writtenFile(of: image))
            }
            files += images.count
        }
        switch options.format {
        case .webdataset:
            var shards = WebDatasetExport(destination: dest.root, keypoints: set, shardSize: options.shardSize)
            try UprightImages.forEach(of: run, images) { (image, png) throws(ExportError) in try shards.add(image, png: png) }
            try shards.finish()
            files += (images.count + options.shardSize - 1) / options.shardSize
        case .coco:
            try dest.write(try COCOExport.file(images, keypoints: set, paths: paths, pipeline: run.pipeline), to: COCOExport.fileName)
            files += 1
        case .yolo:
            for image in images { try dest.write(try YOLOExport.labels(image), to: YOLOExport.labelPath(image)) }
            try dest.write(YOLOExport.dataset(pipeline: run.pipeline), to: YOLOExport.datasetFile)
            files += images.count + 1
        case .wider:
            try dest.write(WIDERExport.file(images, paths: paths), to: WIDERExport.fileName)
            files += 1
        case .retinaface:
            try dest.write(try RetinaFaceExport.file(images, paths: paths), to: RetinaFaceExport.fileName)
            files += 1
        case .pts:
            for image in images {
                for face in image.faces { try dest.write(try PTSExport.file(image, face), to: PTSExport.path(image, face)) }
                files += image.faces.count
            }
        }
        return Summary(images: images.count, faces: images.reduce(0) { $0 + $1.faces.count }, files: files)
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
