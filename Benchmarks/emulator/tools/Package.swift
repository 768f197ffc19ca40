// swift-tools-version:6.0
import PackageDescription

/// A helper of the emulator benchmark (not part of the product; built by ../run.sh): `sql-explain` prints the
/// SQL and parameter values the engine runs for a connector query (`Engine.explain`), which the database
/// floor (../floor.c) steps.
let package = Package(
    name: "EmulatorBenchTools",
    products: [
        .executable(name: "sql-explain", targets: ["SQLExplain"])
    ],
    dependencies: [
        .package(path: "../../../Packages/DataConnectEmulator"),
        .package(path: "../../../Packages/DataConnectKit"),
    ],
    targets: [
        .executableTarget(
            name: "SQLExplain",
            dependencies: [
                .product(name: "DataConnectEngine", package: "DataConnectEmulator"),
                .product(name: "DataConnectSQLiteStore", package: "DataConnectEmulator"),
                .product(name: "DataConnectPostgreSQLStore", package: "DataConnectEmulator"),
                .product(name: "DataConnectSchema", package: "DataConnectKit"),
                .product(name: "DataConnectWire", package: "DataConnectKit"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
