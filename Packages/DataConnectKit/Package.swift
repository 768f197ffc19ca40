// swift-tools-version:6.0
import PackageDescription

/// DataConnectKit: the foundations shared by the code generator, the emulator and the SDK.
///
/// Nothing here carries a Firebase name in its API.
let package = Package(
    name: "DataConnectKit",
    products: [
        .library(name: "DataConnectTime", targets: ["DataConnectTime"]),
        .library(name: "DataConnectEncoding", targets: ["DataConnectEncoding"]),
        .library(name: "GraphQLLanguage", targets: ["GraphQLLanguage"]),
        .library(name: "DataConnectSchema", targets: ["DataConnectSchema"]),
        .library(name: "SQLiteKit", targets: ["SQLiteKit"]),
        .library(name: "DataConnectWire", targets: ["DataConnectWire"]),
        .library(name: "PostgreSQLKit", targets: ["PostgreSQLKit"]),
        .library(name: "PostgreSQLTesting", targets: ["PostgreSQLTesting"]),
        .executable(name: "pg-cluster", targets: ["PGCluster"]),
        .executable(name: "kit-bench", targets: ["KitBenchmarks"]),
    ],
    dependencies: [
        // The `posix_spawn` runner PostgreSQLTesting runs `initdb` and `pg_ctl` with; that package depends on nothing.
        .package(path: "../DataConnectTestSupport")
    ],
    targets: [
        // MARK: C libraries from Debian packages

        // SQLite 3.40 (JSON1, RETURNING, WAL); `import SQLite3` does not exist on Linux.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // libyaml; the pkg-config name is `yaml-0.1`, not `yaml`.
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        // libpq 15 (pipeline mode needs 14+); the server itself comes from Debian's `postgresql` package.
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),

        // MARK: Dates and times

        // The one owner of RFC 3339 timestamps, `YYYY-MM-DD` dates and civil-calendar arithmetic.
        .target(name: "DataConnectTime"),

        // MARK: Byte encodings: base64, SHA-1, WebSocket framing

        // The one owner of base64 and base64url, SHA-1 (for the WebSocket handshake) and RFC 6455 framing.
        .target(name: "DataConnectEncoding"),

        // MARK: GraphQL and the Data Connect schema

        .target(name: "GraphQLLanguage"),
        .target(name: "DataConnectSchema", dependencies: ["GraphQLLanguage", "DataConnectTime", "CYAML"]),

        // MARK: Storage and wire format

        .target(name: "SQLiteKit", dependencies: ["CSQLite"]),
        .target(name: "DataConnectWire"),
        // The PostgreSQL driver of the scale-out engine.
        .target(name: "PostgreSQLKit", dependencies: ["CLibPQ"]),

        // MARK: PostgreSQL servers for tests and development

        // Throwaway clusters for tests (`PostgreSQLCluster.shared()`), and `pg-cluster` behind `make postgres`.
        .target(
            name: "PostgreSQLTesting",
            dependencies: ["PostgreSQLKit", .product(name: "ProcessSpawning", package: "DataConnectTestSupport")]
        ),
        .executableTarget(name: "PGCluster", dependencies: ["PostgreSQLTesting"]),

        // MARK: Benchmarks (`make bench`)

        .executableTarget(
            name: "KitBenchmarks",
            dependencies: ["GraphQLLanguage", "DataConnectSchema", "DataConnectWire", "SQLiteKit"]
        ),

        // MARK: Tests

        .testTarget(name: "DataConnectTimeTests", dependencies: ["DataConnectTime"]),
        .testTarget(name: "DataConnectEncodingTests", dependencies: ["DataConnectEncoding"]),
        .testTarget(name: "GraphQLLanguageTests", dependencies: ["GraphQLLanguage"]),
        .testTarget(name: "DataConnectSchemaTests", dependencies: ["DataConnectSchema", "GraphQLLanguage"]),
        .testTarget(name: "SQLiteKitTests", dependencies: ["SQLiteKit"]),
        .testTarget(name: "DataConnectWireTests", dependencies: ["DataConnectWire"]),
        .testTarget(name: "PostgreSQLKitTests", dependencies: ["PostgreSQLKit", "PostgreSQLTesting", "PGCluster"]),
    ],
    swiftLanguageModes: [.v6]
)
