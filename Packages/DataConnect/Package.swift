// swift-tools-version:6.0
import PackageDescription

/// DataConnect: the client SDK, with the upstream Firebase module and type names.
///
/// `FirebaseCore` configures apps and holds `Timestamp`; `FirebaseDataConnect` is the Data Connect client.
let package = Package(
    name: "DataConnect",
    products: [
        .library(name: "FirebaseCore", targets: ["FirebaseCore"]),
        .library(name: "FirebaseDataConnect", targets: ["FirebaseDataConnect"]),
        .executable(name: "sdk-bench", targets: ["SDKBenchmarks"]),
    ],
    dependencies: [
        // The wire format (JSON values, GraphQL envelopes, status codes) shared with the emulator.
        .package(path: "../DataConnectKit"),
        // The normalized client cache engine (memory or SQLite) behind `CacheSettings`.
        .package(path: "../DataConnectCache"),
        // Tests and the SDK benchmark only: the in-process emulator (`DataConnectTesting`) for integration tests against a live server.
        .package(path: "../DataConnectEmulator"),
    ],
    targets: [
        // MARK: Libraries

        .target(name: "FirebaseCore", dependencies: [.product(name: "DataConnectTime", package: "DataConnectKit")]),
        .target(
            name: "FirebaseDataConnect",
            dependencies: [
                "FirebaseCore",
                .product(name: "DataConnectWire", package: "DataConnectKit"),
                .product(name: "DataConnectCache", package: "DataConnectCache"),
            ]
        ),

        // MARK: Benchmarks

        // `sdk-bench`: `execute()` against a bare URLSession POST of the same request, on a live emulator.
        .executableTarget(
            name: "SDKBenchmarks",
            dependencies: [
                "FirebaseDataConnect",
                .product(name: "DataConnectWire", package: "DataConnectKit"),
                .product(name: "DataConnectTesting", package: "DataConnectEmulator"),
            ],
            path: "Sources/SDKBenchmarks"
        ),

        // A one-query app the persistence tests run as separate processes (not a product).
        .executableTarget(name: "CacheProbe", dependencies: ["FirebaseDataConnect", "FirebaseCore"]),

        // MARK: Tests

        .testTarget(name: "FirebaseCoreTests", dependencies: ["FirebaseCore"]),
        .testTarget(
            name: "FirebaseDataConnectTests",
            dependencies: [
                "FirebaseDataConnect",
                "CacheProbe",
                "FirebaseCore",
                .product(name: "DataConnectWire", package: "DataConnectKit"),
                .product(name: "DataConnectTesting", package: "DataConnectEmulator"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
