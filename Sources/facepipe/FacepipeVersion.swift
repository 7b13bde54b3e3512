enum FacepipeVersion {
    static let string = "0.2.0"
}
