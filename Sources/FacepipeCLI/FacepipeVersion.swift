package enum FacepipeVersion {
    package static let string = "0.5.2"
}
