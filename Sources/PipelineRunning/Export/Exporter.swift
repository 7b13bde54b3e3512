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
        try refuseDestinationInside(run: directory, destination)
        let originals = options.referenceOriginals ? OriginalFiles(run: run, destination: destination) : nil
        let dest = try ExportDestination(destination)
        // The one pass over the manifest and the per-image JSON: every image
        // checked, and kept in a nameless file in DEST, before anything is
        // written; a refusal removes the DEST it created, so it leaves none.
        let spool: ExportImageSpool
        var faces = 0
        do throws(ExportError) {
            spool = try ExportImageSpool(in: dest)
            var archives = Set<String>()
            let images = try run.images(pointGroups: pointGroups)
            while let image = try images.next() {
                if options.format.writesKeypoints { for face in image.faces { _ = try set.points(of: face, in: image) } }
                _ = try originals?.relativePath(of: image)
                faces += image.faces.count
                archives.insert(image.archive)
                try spool.append(image)
            }
            if originals == nil { try UprightImages.checkReadable(run, archives: archives) }
            try spool.rewind()
        } catch {
            dest.removeCreatedFolders()
            throw error
        }
        let count = spool.count
        let paths: ImagePaths = originals.map { .originals($0) } ?? .written(root: options.format.imagePathRoot)
        /// The images again, from the spool.
        func eachImage(_ body: (ExportImage) throws(ExportError) -> Void) throws(ExportError) {
            try spool.rewind()
            while let image = try spool.next() { try body(image) }
        }
        var files = 0

        if originals == nil, options.format != .webdataset {
            try UprightImages.forEach(of: run, spool) { (image, png) throws(ExportError) in
                try dest.write(png, to: ImagePaths.writtenFile(of: image))
            }
            files += count
        }
        switch options.format {
        case .webdataset:
            var shards = WebDatasetExport(destination: dest.root, keypoints: set, shardSize: options.shardSize)
            try UprightImages.forEach(of: run, spool) { (image, png) throws(ExportError) in
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
