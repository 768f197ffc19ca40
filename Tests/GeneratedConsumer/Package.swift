// swift-tools-version:6.0
import PackageDescription

/// Compiles the checked-in generated packages and runs their operations against a live emulator:
/// `Apps/FirebaseDataConnectGenerated` (Backend/movies), `Tests/Generated/Library*` (Tests/Backends/library),
/// `Tests/Generated/SearchCatalog` (Tests/Backends/search) and `Tests/Generated/LedgerBooks` (Tests/Backends/ledger).
let package = Package(
    name: "GeneratedConsumer",
    dependencies: [
        .package(path: "../../Apps/FirebaseDataConnectGenerated"),
        .package(path: "../Generated/LibraryLending"),
        .package(path: "../Generated/LibraryKiosk"),
        .package(path: "../Generated/SearchCatalog"),
        .package(path: "../Generated/LedgerBooks"),
        .package(path: "../../Packages/DataConnect"),
        // `TestEmulator` and the in-process transport for the live tests.
        .package(path: "../../Packages/DataConnectTesting"),
        // The child-process runner the snippets app runs on.
        .package(path: "../../Packages/DataConnectTestSupport"),
    ],
    targets: [
        // The code snippets of the Data Connect documentation, verbatim, as an app would run them.
        .executableTarget(
            name: "SeedSnippets",
            dependencies: [
                .product(name: "FirebaseDataConnectGenerated", package: "FirebaseDataConnectGenerated")
            ]
        ),
        .testTarget(
            name: "GeneratedConsumerTests",
            dependencies: [
                "SeedSnippets",
                .product(name: "FirebaseDataConnectGenerated", package: "FirebaseDataConnectGenerated"),
                .product(name: "LibraryLending", package: "LibraryLending"),
                .product(name: "LibraryKiosk", package: "LibraryKiosk"),
                .product(name: "SearchCatalog", package: "SearchCatalog"),
                .product(name: "LedgerBooks", package: "LedgerBooks"),
                .product(name: "FirebaseDataConnect", package: "DataConnect"),
                .product(name: "FirebaseAuth", package: "DataConnect"),
                .product(name: "DataConnectTesting", package: "DataConnectTesting"),
                .product(name: "DataConnectTestSupport", package: "DataConnectTestSupport"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
