/// The builtin options of the operators the engine knows, decoded from the
/// operator's `builtin_options` union.
public enum OperatorOptions: Sendable, Equatable {
    public struct Convolution: Sendable, Equatable {
        public var padding: Padding
        public var strideWidth: Int
        public var strideHeight: Int
        public var dilationWidth: Int
        public var dilationHeight: Int
        /// 1 for CONV_2D; the depth multiplier for DEPTHWISE_CONV_2D.
        public var depthMultiplier: Int
        public var activation: FusedActivation

        public init(padding: Padding, strideWidth: Int, strideHeight: Int, dilationWidth: Int = 1, dilationHeight: Int = 1,
                    depthMultiplier: Int = 1, activation: FusedActivation) {
            self.padding = padding
            self.strideWidth = strideWidth
            self.strideHeight = strideHeight
            self.dilationWidth = dilationWidth
            self.dilationHeight = dilationHeight
            self.depthMultiplier = depthMultiplier
            self.activation = activation
        }
    }

    public struct Pool: Sendable, Equatable {
        public var padding: Padding
        public var strideWidth: Int
        public var strideHeight: Int
        public var filterWidth: Int
        public var filterHeight: Int
        public var activation: FusedActivation

        public init(padding: Padding, strideWidth: Int, strideHeight: Int, filterWidth: Int, filterHeight: Int,
                    activation: FusedActivation = .none) {
            self.padding = padding
            self.strideWidth = strideWidth
            self.strideHeight = strideHeight
            self.filterWidth = filterWidth
            self.filterHeight = filterHeight
            self.activation = activation
        }
    }

    case none
    case convolution(Convolution)
    case pool(Pool)
    case add(activation: FusedActivation)
    case concatenation(axis: Int, activation: FusedActivation)
    case reshape(newShape: [Int]?)
    case resizeBilinear(alignCorners: Bool, halfPixelCenters: Bool)
    case resizeNearestNeighbor(alignCorners: Bool, halfPixelCenters: Bool)
    case depthToSpace(blockSize: Int)
}

extension OperatorOptions {
    /// Decodes the options table of `code` (schema field ids of each options table).
    static func decode(_ code: BuiltinOperator, table: FlatTable?) throws(ModelError) -> OperatorOptions {
        func activation(_ id: Int) throws(ModelError) -> FusedActivation {
            let raw = try table?.scalar(id, default: Int8(0)) ?? 0
            guard let value = FusedActivation(rawValue: raw) else {
                throw .undefinedActivation(operator: "\(code)", value: Int(raw))
            }
            return value
        }
        func padding(_ id: Int) throws(ModelError) -> Padding {
            let raw = try table?.scalar(id, default: Int8(0)) ?? 0
            guard let value = Padding(rawValue: raw) else { throw .undefinedPadding(operator: "\(code)", value: Int(raw)) }
            return value
        }
        func int(_ id: Int, default value: Int32) throws(ModelError) -> Int {
            Int(try table?.scalar(id, default: value) ?? value)
        }
        func bool(_ id: Int) throws(ModelError) -> Bool {
            (try table?.scalar(id, default: UInt8(0)) ?? 0) != 0
        }
        switch code {
        case .conv2D:
            return .convolution(.init(
                padding: try padding(0), strideWidth: try int(1, default: 1), strideHeight: try int(2, default: 1),
                dilationWidth: try int(4, default: 1), dilationHeight: try int(5, default: 1),
                depthMultiplier: 1, activation: try activation(3)))
        case .depthwiseConv2D:
            return .convolution(.init(
                padding: try padding(0), strideWidth: try int(1, default: 1), strideHeight: try int(2, default: 1),
                dilationWidth: try int(5, default: 1), dilationHeight: try int(6, default: 1),
                depthMultiplier: try int(3, default: 1), activation: try activation(4)))
        case .maxPool2D, .averagePool2D:
            return .pool(.init(
                padding: try padding(0), strideWidth: try int(1, default: 1), strideHeight: try int(2, default: 1),
                filterWidth: try int(3, default: 1), filterHeight: try int(4, default: 1), activation: try activation(5)))
        case .add:
            return .add(activation: try activation(0))
        case .concatenation:
            return .concatenation(axis: try int(0, default: 0), activation: try activation(1))
        case .reshape:
            return .reshape(newShape: try table?.int32s(0, "new_shape"))
        case .resizeBilinear:
            return .resizeBilinear(alignCorners: try bool(2), halfPixelCenters: try bool(3))
        case .resizeNearestNeighbor:
            // ResizeNearestNeighborOptions: align_corners (0), half_pixel_centers (1).
            return .resizeNearestNeighbor(alignCorners: try bool(0), halfPixelCenters: try bool(1))
        case .depthToSpace:
            return .depthToSpace(blockSize: try int(0, default: 0))
        default:
            return .none
        }
    }
}
