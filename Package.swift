// swift-tools-version:6.0
import PackageDescription

/// The workspace root: the `dataconnect` CLI and the cross-package tests.
///
/// Libraries live in `Packages/*` and are linked here by path.
let package = Package(
    name: "DataConnectWorkspace",
    products: [
        .executable(name: "dataconnect", targets: ["dataconnect"])
    ],
    dependencies: [
        .package(path: "Packages/DataConnectKit"),
        .package(path: "Packages/DataConnectEmulator"),
        .package(path: "Packages/DataConnectCodegen"),
    ],
    targets: [
        // MARK: Tools

        .executableTarget(
            name: "dataconnect",
            dependencies: [
                .product(name: "DataConnectSchema", package: "DataConnectKit"),
                .product(name: "GraphQLLanguage", package: "DataConnectKit"),
                .product(name: "DataConnectEmulator", package: "DataConnectEmulator"),
                .product(name: "EmulatorHTTP", package: "DataConnectEmulator"),
                .product(name: "DataConnectCodegen", package: "DataConnectCodegen"),
            ],
            path: "Tools/dataconnect"
        ),

        // MARK: Cross-package tests

        // Runs the built `dataconnect` executable as a process, the way a user does.
        .testTarget(
            name: "DataConnectCLITests",
            dependencies: [
                "dataconnect",
                .product(name: "DataConnectSchema", package: "DataConnectKit"),
                .product(name: "GraphQLLanguage", package: "DataConnectKit"),
            ],
            path: "Tests/DataConnectCLITests",
            // Corpus/*.case are inputs the tests read from disk, not sources.
            exclude: ["Corpus"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
