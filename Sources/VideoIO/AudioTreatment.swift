import CFFmpeg

/// What becomes of a source audio stream in a written video: the one place that decides what of a source's
/// audio may leave facepipe.
///
/// - Copied packet for packet with a REBUILT codec configuration, written from the numbers a decoder needs and
///   nothing else: AAC (`AudioSpecificConfig`), Opus (`OpusHead`), FLAC (`FLACStreamInfo`); copied with no
///   codec configuration at all: MP2, MP3, AC-3, E-AC-3 and PCM, which need none.
/// - Re-encoded as AAC (FFmpeg's encoder; MP4, MOV and Matroska all hold it) — Vorbis (its setup header is
///   codec data of arbitrary size, its comment header carries tags and pictures, so nothing of it is kept),
///   any other codec FFmpeg decodes, and an AAC, Opus or FLAC stream whose configuration is not one of the
///   forms read.
/// - Dropped, with a note, when it cannot be re-encoded (no decoder here, a sample rate or channel layout
///   FFmpeg's AAC encoder does not take).
///
/// Copied packets keep their bytes and times; their side data is not copied (the only one kept is the
/// number of samples to skip, written anew). No stream carries the source's metadata or side data.
package enum AudioTreatment: Equatable, Sendable {
    /// Copy the packets; the output's codec configuration is exactly these bytes (nil: none).
    case copy(extradata: [UInt8]?)
    /// Decode and encode again as AAC.
    case reencode

    /// The codecs copied with no codec configuration.
    static let copiedBare: Set<UInt32> = Set([
        AV_CODEC_ID_MP2, AV_CODEC_ID_MP3, AV_CODEC_ID_AC3, AV_CODEC_ID_EAC3,
        AV_CODEC_ID_PCM_S16LE, AV_CODEC_ID_PCM_S16BE, AV_CODEC_ID_PCM_U8, AV_CODEC_ID_PCM_S8,
        AV_CODEC_ID_PCM_S24LE, AV_CODEC_ID_PCM_S24BE, AV_CODEC_ID_PCM_S32LE, AV_CODEC_ID_PCM_S32BE,
        AV_CODEC_ID_PCM_F32LE, AV_CODEC_ID_PCM_F32BE, AV_CODEC_ID_PCM_F64LE, AV_CODEC_ID_PCM_F64BE,
        AV_CODEC_ID_PCM_ALAW, AV_CODEC_ID_PCM_MULAW,
    ].map(\.rawValue))

    /// The treatment of a stream of `codec` whose configuration is `extradata`.
    package static func decide(codec: AVCodecID, extradata: [UInt8]) -> AudioTreatment {
        switch codec {
        case AV_CODEC_ID_AAC:
            return AudioSpecificConfig(parsing: extradata).map { .copy(extradata: $0.bytes) } ?? .reencode
        case AV_CODEC_ID_OPUS:
            return OpusHead(parsing: extradata).map { .copy(extradata: $0.bytes) } ?? .reencode
        case AV_CODEC_ID_FLAC:
            return FLACStreamInfo(parsing: extradata).map { .copy(extradata: $0.bytes) } ?? .reencode
        default:
            return copiedBare.contains(codec.rawValue) ? .copy(extradata: nil) : .reencode
        }
    }
}
