// swift-tools-version:6.0
import PackageDescription

/// DataConnect: the client SDK, with the upstream Firebase module and type names.
///
/// `FirebaseCore` configures apps and holds `Timestamp`; `FirebaseDataConnect` is the Data Connect client;
/// `FirebaseAuth` signs users in with the Apple SDK's API.
let package = Package(
    name: "DataConnect",
    products: [
        .library(name: "FirebaseCore", targets: ["FirebaseCore"]),
        .library(name: "FirebaseDataConnect", targets: ["FirebaseDataConnect"]),
        .library(name: "FirebaseAuth", targets: ["FirebaseAuth"]),
    ],
    dependencies: [
        // The wire format (JSON values, GraphQL envelopes, status codes) shared with the emulator.
        .package(path: "../DataConnectKit"),
        // The normalized client cache engine (memory or SQLite) behind `CacheSettings`.
        .package(path: "../DataConnectCache"),
        // Hang guards, loopback sockets and the child-process runner, for the tests.
        .package(path: "../DataConnectTestSupport"),
        // Nothing else: tests and benchmarks against a live emulator live in `Packages/DataConnectTesting`.
    ],
    targets: [
        // MARK: Libraries

        // libwebsockets: WebSocket framing, TLS (OpenSSL) and keep-alive pings for the realtime stream. Debian's
        // libcurl has no WebSocket support, so URLSessionWebSocketTask does not work on Linux
        // (docs/decisions/0004-libwebsockets-for-the-realtime-client.md).
        .systemLibrary(name: "CWebSockets", pkgConfig: "libwebsockets", providers: [.apt(["libwebsockets-dev"])]),
        .target(name: "FirebaseCore", dependencies: [.product(name: "DataConnectTime", package: "DataConnectKit")]),
        .target(
            name: "FirebaseDataConnect",
            dependencies: [
                "FirebaseCore",
                // The default token source: the app's signed-in Firebase Auth user, as upstream.
                "FirebaseAuth",
                "CWebSockets",
                .product(name: "DataConnectWire", package: "DataConnectKit"),
                // Close codes of the realtime stream, base64url of tokens.
                .product(name: "DataConnectEncoding", package: "DataConnectKit"),
                .product(name: "DataConnectCache", package: "DataConnectCache"),
            ]
        ),

        // Firebase Auth with the Apple SDK's API, talking to the Identity Toolkit REST API (or the Auth emulator)
        // over URLSession; Foundation, FirebaseCore, and DataConnectEncoding to read the tokens' base64url.
        .target(
            name: "FirebaseAuth",
            dependencies: ["FirebaseCore", .product(name: "DataConnectEncoding", package: "DataConnectKit")]
        ),

        // MARK: Tests

        .testTarget(name: "FirebaseCoreTests", dependencies: ["FirebaseCore"], resources: [.copy("Fixtures")]),
        // Talks real HTTP to a stand-in server on 127.0.0.1 (Support/StandInServer.swift).
        // With FirebaseDataConnect: a production-mode app (options from a plist, Auth and Data Connect against
        // a stand-in of Google's hosts) compared with literal fixtures.
        .testTarget(
            name: "FirebaseAuthTests",
            dependencies: [
                "FirebaseAuth", "FirebaseCore", "FirebaseDataConnect",
                .product(name: "DataConnectEncoding", package: "DataConnectKit"),
                .product(name: "DataConnectTestSupport", package: "DataConnectTestSupport"),
            ]
        ),
        .testTarget(
            name: "FirebaseDataConnectTests",
            dependencies: [
                "FirebaseDataConnect",
                "FirebaseCore",
                .product(name: "DataConnectWire", package: "DataConnectKit"),
                // The scripted WebSocket server's frames and handshake.
                .product(name: "DataConnectEncoding", package: "DataConnectKit"),
                .product(name: "DataConnectTestSupport", package: "DataConnectTestSupport"),
                // `openssl` makes the TLS tests' certificates and serves them.
                .product(name: "ProcessSpawning", package: "DataConnectTestSupport"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
