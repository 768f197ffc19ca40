// swift-tools-version:6.0
import PackageDescription

/// DataConnectTestSupport: what every package's tests share.
///
/// One hang guard, one child-process runner on `posix_spawn`, executable lookup, temporary folders and loopback
/// sockets (free ports, listeners, connections, a raw HTTP/1.1 exchange). It depends on nothing, so any package may
/// use it, DataConnectKit included, without a cycle.
let package = Package(
    name: "DataConnectTestSupport",
    products: [
        .library(name: "ProcessSpawning", targets: ["ProcessSpawning"]),
        .library(name: "DataConnectTestSupport", targets: ["DataConnectTestSupport"]),
    ],
    targets: [
        // MARK: Libraries

        // `posix_spawn` and `waitpid`, without Foundation or Testing: also what PostgreSQLTesting, which the CLI
        // ships, runs `initdb` and `pg_ctl` with.
        .target(name: "ProcessSpawning"),
        // The tests' side: hang guards, `ChildProcess` with events to wait on, built executables, loopback sockets.
        // A library that imports Testing, not a test target.
        .target(name: "DataConnectTestSupport", dependencies: ["ProcessSpawning"]),

        // MARK: Tests

        .testTarget(name: "DataConnectTestSupportTests", dependencies: ["DataConnectTestSupport", "ProcessSpawning"]),
    ],
    swiftLanguageModes: [.v6]
)
