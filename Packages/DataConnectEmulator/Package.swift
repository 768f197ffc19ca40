// swift-tools-version:6.0
import PackageDescription

/// The Data Connect emulator: the service over HTTP, executing connector operations as SQL on SQLite or
/// PostgreSQL.
let package = Package(
    name: "DataConnectEmulator",
    products: [
        .library(name: "EmulatorHTTP", targets: ["EmulatorHTTP"]),
        .library(name: "OutboundHTTP", targets: ["OutboundHTTP"]),
        .library(name: "DataConnectCEL", targets: ["DataConnectCEL"]),
        .library(name: "DataConnectEngine", targets: ["DataConnectEngine"]),
        .library(name: "DataConnectSQLiteStore", targets: ["DataConnectSQLiteStore"]),
        .library(name: "DataConnectPostgreSQLStore", targets: ["DataConnectPostgreSQLStore"]),
        .library(name: "AuthEmulator", targets: ["AuthEmulator"]),
        .library(name: "DataConnectEmulator", targets: ["DataConnectEmulator"]),
        .library(name: "EmulatorTesting", targets: ["EmulatorTesting"]),
        .executable(name: "http-bench", targets: ["HTTPBench"]),
        .executable(name: "realtime-bench", targets: ["RealtimeBench"]),
    ],
    dependencies: [
        .package(path: "../DataConnectKit"),
        // Hang guards, the child-process runner and loopback sockets, for the tests.
        .package(path: "../DataConnectTestSupport"),
    ],
    targets: [
        // MARK: HTTP

        // libmicrohttpd: HTTP/1.1 parsing, limits, an epoll thread pool, suspend/resume.
        .systemLibrary(
            name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        // libnghttp2: HTTP/2 framing, HPACK, flow control and flood protection for gRPC on the same port.
        .systemLibrary(name: "CNGHTTP2", pkgConfig: "libnghttp2", providers: [.apt(["libnghttp2-dev"])]),
        .target(
            name: "EmulatorHTTP",
            dependencies: [
                "CMicroHTTPD", "CNGHTTP2",
                // WebSocket framing and the handshake's SHA-1 and base64
                .product(name: "DataConnectEncoding", package: "DataConnectKit"),
            ]
        ),
        // The benchmark ceiling: the same HTTP layer answering a fixed reply (HTTP/1.1) and a fixed gRPC message.
        .executableTarget(name: "HTTPBench", dependencies: ["EmulatorHTTP"]),

        // MARK: Outbound HTTP: custom resolvers, embedding providers and token endpoints, called from request threads

        // OpenSSL: HTTPS to resolvers and Vertex AI, certificates checked against the system's trust store; RS256
        // signatures of service account JWTs.
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        // The `HTTPTransport` seam and its live implementation, a blocking HTTP/1.1 and HTTPS client on sockets.
        .target(name: "OutboundHTTP", dependencies: ["COpenSSL"]),

        // MARK: CEL: the expressions of @auth(expr:), @check, _expr values and @default(expr:)

        .target(
            name: "DataConnectCEL",
            dependencies: [
                .product(name: "DataConnectTime", package: "DataConnectKit"),
                .product(name: "DataConnectWire", package: "DataConnectKit"),
            ]
        ),

        // MARK: Engine: schema to SQL, operations to prepared statements, auth, execution

        // No database driver: the engine speaks to a database through `DataStore`, `DatabaseAccess` and
        // `SQLDialect`, which the stores below implement.
        .target(
            name: "DataConnectEngine",
            dependencies: [
                "DataConnectCEL",
                // the transport protocol custom resolver fields are sent through; the service passes the live one
                "OutboundHTTP",
                .product(name: "DataConnectTime", package: "DataConnectKit"),
                .product(name: "DataConnectSchema", package: "DataConnectKit"),
                .product(name: "GraphQLLanguage", package: "DataConnectKit"),
                .product(name: "DataConnectWire", package: "DataConnectKit"),
                // base64url of the tokens the engine reads and forwards
                .product(name: "DataConnectEncoding", package: "DataConnectKit"),
            ]
        ),

        // MARK: Stores: the databases the engine runs on

        // The embedded database: SQLite in memory or in a file, its pool, migrator, dialect and SQL functions.
        .target(
            name: "DataConnectSQLiteStore",
            dependencies: [
                "DataConnectEngine",
                .product(name: "DataConnectSchema", package: "DataConnectKit"),
                .product(name: "DataConnectWire", package: "DataConnectKit"),
                .product(name: "SQLiteKit", package: "DataConnectKit"),
            ]
        ),
        // A PostgreSQL server several emulator processes may share: its pool, migrator, dialect and change feed.
        .target(
            name: "DataConnectPostgreSQLStore",
            dependencies: [
                "DataConnectEngine",
                .product(name: "DataConnectSchema", package: "DataConnectKit"),
                .product(name: "DataConnectWire", package: "DataConnectKit"),
                .product(name: "PostgreSQLKit", package: "DataConnectKit"),
            ]
        ),

        // MARK: Auth: the Firebase Auth emulator (Identity Toolkit and Secure Token REST APIs), as firebase-tools'

        .target(
            name: "AuthEmulator",
            dependencies: [
                "EmulatorHTTP",
                .product(name: "DataConnectWire", package: "DataConnectKit"),
                // base64url of tokens, base64 of password hashes
                .product(name: "DataConnectEncoding", package: "DataConnectKit"),
                // accounts persist in <dataDir>/auth.sqlite, or in the dataconnect_auth schema on PostgreSQL
                .product(name: "SQLiteKit", package: "DataConnectKit"),
                .product(name: "PostgreSQLKit", package: "DataConnectKit"),
            ]
        ),

        // MARK: The service and its testing harness

        .target(
            name: "DataConnectEmulator",
            dependencies: [
                "EmulatorHTTP", "DataConnectEngine", "AuthEmulator", "OutboundHTTP",
                // the service opens its store through one factory (`StoreConfiguration`)
                "DataConnectSQLiteStore", "DataConnectPostgreSQLStore",
                .product(name: "DataConnectSchema", package: "DataConnectKit"),
                .product(name: "DataConnectWire", package: "DataConnectKit"),
                .product(name: "GraphQLLanguage", package: "DataConnectKit"),
                // the WebSocket sessions' messages, service account JWTs, the console's embedded assets
                .product(name: "DataConnectEncoding", package: "DataConnectKit"),
                // the gRPC services' protobuf messages and the descriptor set reflection answers from
                .product(name: "DataConnectProtobuf", package: "DataConnectKit"),
            ],
            plugins: ["ConsoleAssetsPlugin"]
        ),
        // The browser console (`Console/`) compiled into the emulator before each build.
        .plugin(name: "ConsoleAssetsPlugin", capability: .buildTool()),
        // `TestEmulator` on a free port, for this package's tests; `Packages/DataConnectTesting` re-exports it to
        // users together with the SDK's in-process transport.
        // `TestPostgreSQLSchema` gives suites that run on both databases a fresh PostgreSQL schema, and
        // `TestDatabaseTrait` (`.onBothDatabases`, `.on(_:)`) runs each test on its databases: it imports the
        // toolchain's Testing module, which needs no package dependency.
        .target(
            name: "EmulatorTesting",
            dependencies: [
                "DataConnectEmulator",
                .product(name: "PostgreSQLKit", package: "DataConnectKit"),
                .product(name: "PostgreSQLTesting", package: "DataConnectKit"),
            ]),
        // Realtime fan-out latency: 2,000 subscribers on the WebSocket stream held from one thread, one mutation,
        // p50/p99/max; `--subscribers N` also over gRPC streams.
        .executableTarget(
            name: "RealtimeBench",
            dependencies: [
                "CMicroHTTPD", "DataConnectEmulator", "EmulatorHTTP",
                // the gRPC subscribers: nghttp2's client session, and StreamRequest / StreamResponse as protobuf
                "CNGHTTP2", .product(name: "DataConnectProtobuf", package: "DataConnectKit"),
                .product(name: "DataConnectWire", package: "DataConnectKit"),
                .product(name: "DataConnectEncoding", package: "DataConnectKit"),
            ]),

        // MARK: Tests

        // Applies the server's allocator settings in a process of its own, for ServerAllocatorTests: the settings are
        // the whole process's and must not reach the shared test process (not a product).
        .executableTarget(name: "AllocatorProbe", dependencies: ["EmulatorHTTP"]),
        .testTarget(
            name: "EmulatorHTTPTests",
            dependencies: [
                "EmulatorHTTP", "AllocatorProbe",
                // the HTTP/2 test client is nghttp2's client session; hostile tests write raw frames
                "CNGHTTP2",
                .product(name: "DataConnectEncoding", package: "DataConnectKit"),
                .product(name: "DataConnectTestSupport", package: "DataConnectTestSupport"),
            ]
        ),
        // the live transport against servers on loopback ports: EmulatorHTTP's, a raw socket, Python's TLS server
        .testTarget(
            name: "OutboundHTTPTests",
            dependencies: [
                "OutboundHTTP", "EmulatorHTTP", .product(name: "DataConnectWire", package: "DataConnectKit"),
                .product(name: "DataConnectTestSupport", package: "DataConnectTestSupport"),
                // `openssl` makes the test certificates; Python's TLS server runs as a child process
                .product(name: "ProcessSpawning", package: "DataConnectTestSupport"),
            ]
        ),
        .testTarget(
            name: "AuthEmulatorTests",
            dependencies: [
                "AuthEmulator", "EmulatorHTTP", "DataConnectEmulator",
                .product(name: "DataConnectWire", package: "DataConnectKit"),
                .product(name: "DataConnectEncoding", package: "DataConnectKit"),
                // the PostgreSQL storage suite starts a cluster, as the engine's PostgreSQL suites do
                .product(name: "PostgreSQLKit", package: "DataConnectKit"),
                .product(name: "PostgreSQLTesting", package: "DataConnectKit"),
            ]
        ),
        .testTarget(
            name: "DataConnectCELTests",
            dependencies: ["DataConnectCEL", .product(name: "DataConnectWire", package: "DataConnectKit")]
        ),
        .testTarget(
            name: "DataConnectEngineTests",
            dependencies: [
                "DataConnectEngine", "DataConnectSQLiteStore", "DataConnectPostgreSQLStore", "EmulatorTesting",
                .product(name: "DataConnectSchema", package: "DataConnectKit"),
                .product(name: "SQLiteKit", package: "DataConnectKit"),
                .product(name: "DataConnectWire", package: "DataConnectKit"),
            ],
            // the expected SQL per dialect (Golden/<database>/<Suite>/<test>.sql), read from disk by the tests
            exclude: ["Golden"]
        ),
        .testTarget(
            name: "DataConnectEmulatorTests",
            dependencies: [
                "DataConnectEmulator", "EmulatorTesting", "DataConnectEngine", "DataConnectSQLiteStore",
                "DataConnectPostgreSQLStore",
                // the custom resolver tests serve a small GraphQL endpoint with it
                "EmulatorHTTP",
                .product(name: "PostgreSQLKit", package: "DataConnectKit"),
                // the differential test reads the connectors' operations to know which lists they order
                .product(name: "GraphQLLanguage", package: "DataConnectKit"),
                .product(name: "PostgreSQLTesting", package: "DataConnectKit"),
                .product(name: "DataConnectWire", package: "DataConnectKit"),
                // the stream client's frames, the tokens the tests write
                .product(name: "DataConnectEncoding", package: "DataConnectKit"),
                .product(name: "DataConnectTestSupport", package: "DataConnectTestSupport"),
                // `openssl` makes the service accounts' keys and checks their signatures
                .product(name: "ProcessSpawning", package: "DataConnectTestSupport"),
            ],
            // backend folders the tests start emulators on, or copy to a temporary folder
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
