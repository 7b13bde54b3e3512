// swift-tools-version:6.0
import PackageDescription

// facepipe, the one line that differs between this folder in facepipe's
// repository and your copy of it. Here it is the checkout two folders up
// (models are then found in that checkout's models/ folder). In your own
// folder, name the repository and a version instead:
//
//     let facepipe: Package.Dependency = .package(url: "https://github.com/OWNER/facepipe", .upToNextMinor(from: "0.6.0"))
//
// or a checkout of it by path: .package(name: "facepipe", path: "/path/to/facepipe").
let facepipe: Package.Dependency = .package(name: "facepipe", path: "../..")

let package = Package(
    name: "custom-faces",
    platforms: [.macOS(.v14)],
    dependencies: [facepipe],
    targets: [
        .executableTarget(name: "custom-faces", dependencies: [
            // Every facepipe verb, with this package's pipelines added.
            .product(name: "FacepipeCLI", package: "facepipe"),
            // The DSL: Pipeline, the built-in stages, the Stage protocol.
            .product(name: "Pipeline", package: "facepipe"),
        ]),
    ]
)
