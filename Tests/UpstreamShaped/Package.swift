// swift-tools-version: 5.9
import PackageDescription

/// Code in the exact shape Google's Data Connect generator writes, compiled against our SDK.
///
/// `ShelfSDK` is a connector over `Backend/movies` hand-written the way the upstream generator writes one (Swift 5
/// language mode and `swift-tools-version: 5.9`, as its generated packages declare; non-final classes,
/// `@MainActor execute`, `Variables.init(_ optionalVars:)`, `publisher: .observableObject` and forced casts);
/// `ShelfApp` uses it the way an app or test suite does. `make test-upstream-shaped` builds both with warnings
/// treated as errors.
let package = Package(
    name: "UpstreamShaped",
    products: [
        .library(name: "ShelfSDK", targets: ["ShelfSDK"])
    ],
    dependencies: [
        .package(path: "../../Packages/DataConnect"),
        // The emulator the integration suite starts on an explicit port and configures over HTTP.
        .package(path: "../../Packages/DataConnectEmulator"),
        // A free loopback port for it, from the repository's shared test support.
        .package(path: "../../Packages/DataConnectTestSupport"),
    ],
    targets: [
        .target(
            name: "ShelfSDK",
            dependencies: [
                .product(name: "FirebaseCore", package: "DataConnect"),
                .product(name: "FirebaseDataConnect", package: "DataConnect"),
            ]
        ),
        .executableTarget(
            name: "ShelfApp",
            dependencies: [
                "ShelfSDK",
                .product(name: "FirebaseCore", package: "DataConnect"),
                .product(name: "FirebaseDataConnect", package: "DataConnect"),
            ]
        ),
        // The integration suite: ShelfSDK used as apps and the iOS SDK's integration tests use a generated
        // connector, against a live emulator configured through POST /emulator/configure.
        .testTarget(
            name: "ShelfIntegrationTests",
            dependencies: [
                "ShelfSDK",
                .product(name: "FirebaseCore", package: "DataConnect"),
                .product(name: "FirebaseDataConnect", package: "DataConnect"),
                .product(name: "DataConnectEmulator", package: "DataConnectEmulator"),
                .product(name: "DataConnectTestSupport", package: "DataConnectTestSupport"),
            ]
        ),
    ]
)
