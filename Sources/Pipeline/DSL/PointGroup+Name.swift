import FaceAnalysis
import ImageCore

extension PointGroup {
    /// The name of a point group: the groups ``Landmarks`` writes, by
    /// constant, and any name of your own. The text is what the per-image
    /// JSON shows; code asks for groups by these values, never by spelling
    /// or prefix.
    public struct Name: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        public let text: String

        public init(_ text: String) { self.text = text }
        public init(stringLiteral text: String) { self.text = text }
        public var description: String { text }

        public static let mesh = Name("mesh")
        public static let leftIris = Name("left_iris")
        public static let rightIris = Name("right_iris")
        public static let leftEyeContour = Name("left_eye_contour")
        public static let rightEyeContour = Name("right_eye_contour")
        public static let mlkitLandmarks = Name("mlkit_landmarks")
        public static let ibug68 = Name("ibug68")

        private static let contourPrefix = "contour."
        private static let visionPrefix = "vision."

        /// One of ML Kit's 15 contours.
        public static func contour(_ kind: MLKitContours.Kind) -> Name { Name(contourPrefix + kind.rawValue) }
        /// One of Apple Vision's face regions (`face_contour`, `left_eye`, …).
        public static func vision(_ region: String) -> Name { Name(visionPrefix + region) }

        /// The ML Kit contour this name stands for, if it is one.
        public var contour: MLKitContours.Kind? {
            text.hasPrefix(Self.contourPrefix) ? MLKitContours.Kind(rawValue: String(text.dropFirst(Self.contourPrefix.count))) : nil
        }
    }

    public init(_ name: Name, points: [Point]) { self.init(name: name.text, points: points) }

    /// This group's name as a value.
    public var groupName: Name { Name(name) }
}

extension FaceRecord {
    /// The group called `name`, if a stage added it.
    public func points(_ name: PointGroup.Name) -> PointGroup? { pointGroups.first { $0.name == name.text } }
}
