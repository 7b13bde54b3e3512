enum FacepipeVersion {
    static let string = "0.4.0"
}
