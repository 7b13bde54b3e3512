enum FacepipeVersion {
    static let string = "0.5.2"
}
