// swift-tools-version:6.0
import PackageDescription

/// DataConnectCodegen: the Swift code generator (Translate → Render) behind `dataconnect generate`.
let package = Package(
    name: "DataConnectCodegen",
    products: [
        .library(name: "DataConnectCodegen", targets: ["DataConnectCodegen"]),
        .executable(name: "codegen-bench", targets: ["CodegenBenchmarks"]),
    ],
    dependencies: [
        // The front end: config loading, schema model, generated API and operation validation.
        .package(path: "../DataConnectKit")
    ],
    targets: [
        // MARK: Library

        .target(
            name: "DataConnectCodegen",
            dependencies: [
                .product(name: "DataConnectSchema", package: "DataConnectKit"),
                .product(name: "GraphQLLanguage", package: "DataConnectKit"),
            ]
        ),

        // MARK: Benchmarks

        // `make bench-codegen`: generation time for Backend/movies and a 500-operation connector.
        .executableTarget(
            name: "CodegenBenchmarks",
            dependencies: [
                "DataConnectCodegen",
                .product(name: "DataConnectSchema", package: "DataConnectKit"),
            ]
        ),

        // MARK: Tests

        .testTarget(
            name: "DataConnectCodegenTests",
            dependencies: [
                "DataConnectCodegen",
                .product(name: "DataConnectSchema", package: "DataConnectKit"),
                .product(name: "GraphQLLanguage", package: "DataConnectKit"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
