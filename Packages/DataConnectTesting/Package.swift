// swift-tools-version:6.0
import PackageDescription

/// DataConnectTesting: full-stack tests of apps built on the SDK, against the emulator.
///
/// The only package that depends on both the SDK (`Packages/DataConnect`) and the emulator
/// (`Packages/DataConnectEmulator`), so neither depends on the other. Its `DataConnectTesting` module gives app
/// tests a `TestEmulator` and the in-process transport; its tests are the SDK's tests that need a live emulator.
let package = Package(
    name: "DataConnectTesting",
    products: [
        .library(name: "DataConnectTesting", targets: ["DataConnectTesting"]),
        .executable(name: "sdk-bench", targets: ["SDKBenchmarks"]),
    ],
    dependencies: [
        // The SDK under test.
        .package(path: "../DataConnect"),
        // The emulator: its responder (in-process) and `TestEmulator` (on a port).
        .package(path: "../DataConnectEmulator"),
        // The wire format shared by both.
        .package(path: "../DataConnectKit"),
        // The checked-in generated movies SDK, which the tests drive through `TestEmulator.attach` (tests only).
        .package(path: "../../Apps/FirebaseDataConnectGenerated"),
        // Hang guards, the child-process runner (the persistence tests run CacheProbe) and loopback ports (tests only).
        .package(path: "../DataConnectTestSupport"),
    ],
    targets: [
        // MARK: Library

        .target(
            name: "DataConnectTesting",
            dependencies: [
                .product(name: "FirebaseDataConnect", package: "DataConnect"),
                .product(name: "FirebaseCore", package: "DataConnect"),
                // Firebase Auth pointed at the emulator's Auth API, in-process or on its port.
                .product(name: "FirebaseAuth", package: "DataConnect"),
                .product(name: "EmulatorTesting", package: "DataConnectEmulator"),
                .product(name: "EmulatorHTTP", package: "DataConnectEmulator"),
                // The realtime hub and token decoding, for in-process subscriptions.
                .product(name: "DataConnectEmulator", package: "DataConnectEmulator"),
                .product(name: "DataConnectEngine", package: "DataConnectEmulator"),
                .product(name: "DataConnectWire", package: "DataConnectKit"),
            ]
        ),

        // MARK: Benchmarks

        // `sdk-bench`: `execute()` against a bare URLSession POST of the same request, on a live emulator.
        .executableTarget(
            name: "SDKBenchmarks",
            dependencies: [
                "DataConnectTesting",
                .product(name: "FirebaseDataConnect", package: "DataConnect"),
                .product(name: "DataConnectWire", package: "DataConnectKit"),
            ]
        ),

        // A one-query app the persistence tests run as separate processes (not a product).
        .executableTarget(
            name: "CacheProbe",
            dependencies: [
                .product(name: "FirebaseDataConnect", package: "DataConnect"),
                .product(name: "FirebaseCore", package: "DataConnect"),
            ]
        ),

        // MARK: Tests

        // The SDK against the emulator: in-process, and on a port where HTTP itself is under test.
        .testTarget(
            name: "DataConnectTestingTests",
            dependencies: [
                "DataConnectTesting",
                "CacheProbe",
                .product(name: "FirebaseDataConnect", package: "DataConnect"),
                .product(name: "FirebaseAuth", package: "DataConnect"),
                .product(name: "FirebaseCore", package: "DataConnect"),
                .product(name: "DataConnectWire", package: "DataConnectKit"),
                .product(name: "FirebaseDataConnectGenerated", package: "FirebaseDataConnectGenerated"),
                // Custom tokens the Admin SDKs would make.
                .product(name: "DataConnectEncoding", package: "DataConnectKit"),
                .product(name: "DataConnectTestSupport", package: "DataConnectTestSupport"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
