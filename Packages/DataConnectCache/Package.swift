// swift-tools-version:6.0
import PackageDescription

/// DataConnectCache: the normalized client cache engine of the Data Connect SDK.
///
/// One engine (`NormalizedCache`) over a storage seam (`CacheStorage`: a `RecordStore` and a `DependencyIndex`
/// behind one lock) with a memory and an SQLite implementation. The SDK (`Packages/DataConnect`) wires it to query
/// refs and mutations.
let package = Package(
    name: "DataConnectCache",
    products: [
        .library(name: "DataConnectCache", targets: ["DataConnectCache"]),
        .executable(name: "cache-bench", targets: ["CacheBenchmarks"]),
    ],
    dependencies: [
        // JSON values, `DataConnectProperties` and SQLite, shared with the SDK and the emulator.
        .package(path: "../DataConnectKit")
    ],
    targets: [
        // MARK: Library

        .target(
            name: "DataConnectCache",
            dependencies: [
                .product(name: "DataConnectWire", package: "DataConnectKit"),
                .product(name: "SQLiteKit", package: "DataConnectKit"),
            ]
        ),

        // MARK: Benchmarks (`swift run -c release cache-bench`)

        .executableTarget(
            name: "CacheBenchmarks",
            dependencies: [
                "DataConnectCache",
                .product(name: "DataConnectWire", package: "DataConnectKit"),
            ]
        ),

        // MARK: Tests

        .testTarget(
            name: "DataConnectCacheTests",
            dependencies: [
                "DataConnectCache",
                .product(name: "DataConnectWire", package: "DataConnectKit"),
                .product(name: "SQLiteKit", package: "DataConnectKit"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
