// swift-tools-version:6.0
import PackageDescription

{{toolkitPin}}

/// {{app}}: a command-line app over the generated `{{package}}` SDK, and its full-stack tests (see ../README.md).
let package = Package(
    name: "{{app}}",
    dependencies: [
        // The typed SDK that `make generate` writes from ../dataconnect.
        .package(path: "../Generated/{{package}}"),
        // The core SDK (module FirebaseDataConnect) and the test harness (DataConnectTesting).
        {{toolkitDependencies}}
    ],
    targets: [
        .executableTarget(
            name: "{{app}}",
            dependencies: [
                .product(name: "{{package}}", package: "{{package}}"),
                .product(name: "FirebaseDataConnect", package: "DataConnect"),
            ],
            path: "Sources/{{app}}"
        ),
        // Full-stack tests: the generated SDK against the emulator, in the test process (no socket, no port).
        .testTarget(
            name: "{{app}}Tests",
            dependencies: [
                .product(name: "{{package}}", package: "{{package}}"),
                .product(name: "FirebaseDataConnect", package: "DataConnect"),
                .product(name: "DataConnectTesting", package: "{{testingPackage}}"),
            ],
            path: "Tests/{{app}}Tests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
