// swift-tools-version:6.0
import PackageDescription

/// DataConnectCodegen: the Swift code generator (Translate → Render) behind `dataconnect sdk generate`.
let package = Package(
    name: "DataConnectCodegen",
    products: [
        .library(name: "DataConnectCodegen", targets: ["DataConnectCodegen"])
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
