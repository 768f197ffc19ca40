// swift-tools-version:6.0
import PackageDescription

/// The users' test-suite benchmark (not part of the product; `make bench-testsuite`): what a full-stack test suite
/// of an app pays through its generated Swift SDK against an in-process emulator, on the 20-table shop of
/// `backend/`. `testsuite-bench` starts the emulator and answers a first operation in fresh processes, then runs
/// rounds of 1,000 small operations.
let package = Package(
    name: "TestSuiteBench",
    products: [
        .executable(name: "testsuite-bench", targets: ["TestSuiteBench"])
    ],
    dependencies: [
        // The shop's generated Swift SDK, checked in (`make generate` writes it from backend/).
        .package(path: "ShopConnector"),
        // `TestEmulator.inProcess` and `attach`, as an app's tests use them.
        .package(path: "../../Packages/DataConnectTesting"),
        // The core SDK the generated package is built on.
        .package(path: "../../Packages/DataConnect"),
    ],
    targets: [
        // MARK: Benchmark

        .executableTarget(
            name: "TestSuiteBench",
            dependencies: [
                .product(name: "ShopConnector", package: "ShopConnector"),
                .product(name: "DataConnectTesting", package: "DataConnectTesting"),
                .product(name: "FirebaseDataConnect", package: "DataConnect"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
