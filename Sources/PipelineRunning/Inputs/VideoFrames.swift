import RunFolders

/// The one video adapter: any ``EntryReader``'s entries as a run reads
/// them, each video entry turned into its frames (``VideoFrameReader``, as
/// ``VideoReading`` says) in the entry's place; every other item passes
/// through. A video that cannot be opened for decoding is one `.unreadable`
/// item for the clip, and the input goes on with its next entry.
struct VideoFrames<Reader: EntryReader>: EntrySource {
    private var reader: Reader
    let reading: VideoReading
    /// The video whose frames are being given out.
    private var frames: VideoFrameReader?

    init(_ reader: Reader, reading: VideoReading) {
        self.reader = reader
        self.reading = reading
    }

    mutating func next() throws -> SourceItem? {
        while true {
            if let frames {
                if let item = frames.next() { return item }
                self.frames = nil
            }
            switch try reader.read() {
            case nil:
                return nil
            case .item(let item)?:
                return item
            case .video(let video)?:
                do {
                    frames = try reading.frames(of: video)
                } catch {
                    return .unreadable(index: video.index, name: video.name, rawName: video.rawName, reason: "\(error)")
                }
            }
        }
    }

    var position: ReadPosition {
        frames.map { reader.position(decodingVideo: $0.bytesRead) } ?? reader.position
    }

    mutating func digest() throws -> InputDigest? {
        frames = nil
        return try reader.digest()
    }
}
