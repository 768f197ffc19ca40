// swift-tools-version:6.0
import PackageDescription

/// {{app}}: a command-line app over the generated `{{package}}` SDK (see ../README.md).
let package = Package(
    name: "{{app}}",
    dependencies: [
        // The typed SDK that `make generate` writes from ../dataconnect.
        .package(path: "../Generated/{{package}}"),
        // The core SDK (module FirebaseDataConnect), from the dataconnect repository this project was made with.
        .package(path: "{{coreSdkPath}}"),
    ],
    targets: [
        .executableTarget(
            name: "{{app}}",
            dependencies: [
                .product(name: "{{package}}", package: "{{package}}"),
                .product(name: "FirebaseDataConnect", package: "DataConnect"),
            ],
            path: "Sources/{{app}}"
        )
    ],
    swiftLanguageModes: [.v6]
)
