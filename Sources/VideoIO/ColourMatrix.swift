import CFFmpeg

/// The Y'CbCr ↔ R'G'B' matrix of a video stream, by its luma weights Kr and Kb.
enum ColourMatrix: String, Sendable, Equatable {
    case bt601, bt709, bt2020

    var kr: Double {
        switch self {
        case .bt601: 0.299
        case .bt709: 0.2126
        case .bt2020: 0.2627
        }
    }

    var kb: Double {
        switch self {
        case .bt601: 0.114
        case .bt709: 0.0722
        case .bt2020: 0.0593
        }
    }

    /// The stream's matrix; when it says nothing (or something VideoIO does not know), BT.709 for HD
    /// sizes (wider than 1024 or taller than 576) and BT.601 below, as players do.
    init(_ space: AVColorSpace, width: Int, height: Int) {
        switch space {
        case AVCOL_SPC_BT709: self = .bt709
        case AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M, AVCOL_SPC_FCC: self = .bt601
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: self = .bt2020
        default: self = (width > 1024 || height > 576) ? .bt709 : .bt601
        }
    }
}
