// swift-tools-version:6.0
import PackageDescription

/// The workspace root: the `dataconnect` CLI and the cross-package tests.
///
/// Libraries live in `Packages/*` and are linked here by path.
let package = Package(
    name: "DataConnectWorkspace",
    products: [
        .executable(name: "dataconnect", targets: ["dataconnect"]),
        .executable(name: "movies", targets: ["movies"]),
        .executable(name: "movies-demo", targets: ["movies-demo"]),
        .executable(name: "movies-tui", targets: ["movies-tui"]),
    ],
    dependencies: [
        .package(path: "Packages/DataConnectKit"),
        .package(path: "Packages/DataConnectEmulator"),
        .package(path: "Packages/DataConnectCodegen"),
        // The client SDK and the movies connector's generated SDK, for the `movies` app.
        .package(path: "Packages/DataConnect"),
        .package(path: "Packages/DataConnectTesting"),
        .package(path: "Apps/FirebaseDataConnectGenerated"),
    ],
    targets: [
        // MARK: Tools

        .executableTarget(
            name: "dataconnect",
            dependencies: [
                .product(name: "DataConnectSchema", package: "DataConnectKit"),
                .product(name: "GraphQLLanguage", package: "DataConnectKit"),
                .product(name: "DataConnectEmulator", package: "DataConnectEmulator"),
                .product(name: "DataConnectEngine", package: "DataConnectEmulator"),
                .product(name: "EmulatorHTTP", package: "DataConnectEmulator"),
                .product(name: "DataConnectCodegen", package: "DataConnectCodegen"),
            ],
            path: "Tools/dataconnect"
        ),

        // MARK: Apps

        // The `movies` command line's pure logic: argument parsing, formatting, the session store, diffs.
        .target(
            name: "MoviesCLICore",
            path: "Apps/MoviesCLI/Sources/MoviesCLICore"
        ),
        // The generated movies SDK's results as the apps' models (MovieRow, MovieDetails), for the CLI and the TUI.
        .target(
            name: "MoviesAppModels",
            dependencies: [
                "MoviesCLICore",
                .product(name: "FirebaseDataConnectGenerated", package: "FirebaseDataConnectGenerated"),
            ],
            path: "Apps/MoviesAppModels/Sources/MoviesAppModels"
        ),
        // The thin shell that runs `movies` commands against the generated movies SDK.
        .executableTarget(
            name: "movies",
            dependencies: [
                "MoviesCLICore",
                "MoviesAppModels",
                .product(name: "FirebaseDataConnect", package: "DataConnect"),
                .product(name: "FirebaseDataConnectGenerated", package: "FirebaseDataConnectGenerated"),
            ],
            path: "Apps/MoviesCLI/Sources/movies"
        ),
        // The narrated walkthrough `make demo` runs: create, list, cache vs server, a live subscription, auth.
        .executableTarget(
            name: "movies-demo",
            dependencies: [
                .product(name: "FirebaseDataConnect", package: "DataConnect"),
                .product(name: "FirebaseDataConnectGenerated", package: "FirebaseDataConnectGenerated"),
            ],
            path: "Apps/MoviesDemo/Sources/movies-demo"
        ),
        // ncursesw, wide-character build, through a shim header (see Apps/MoviesTUI/Sources/CNCurses/shim.h).
        .systemLibrary(
            name: "CNCurses",
            path: "Apps/MoviesTUI/Sources/CNCurses",
            pkgConfig: "ncursesw",
            providers: [.apt(["libncursesw5-dev"])]
        ),
        // The `movies-tui` terminal app's pure logic: state, actions, reducer, layout. No ncurses, no SDK.
        .target(
            name: "MoviesTUICore",
            // For DisplayWidth, EmulatorAddress and the movie models the CLI already defines.
            dependencies: ["MoviesCLICore"],
            path: "Apps/MoviesTUI/Sources/MoviesTUICore"
        ),
        // The ncurses shell of `movies-tui`: draws frames, maps keys, runs effects against the movies SDK.
        .executableTarget(
            name: "movies-tui",
            dependencies: [
                "CNCurses",
                "MoviesTUICore",
                "MoviesCLICore",
                "MoviesAppModels",
                .product(name: "FirebaseDataConnect", package: "DataConnect"),
                .product(name: "FirebaseDataConnectGenerated", package: "FirebaseDataConnectGenerated"),
            ],
            path: "Apps/MoviesTUI/Sources/movies-tui"
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
        // Unit tests of MoviesCLICore, and the built `movies` executable run against an in-process emulator.
        .testTarget(
            name: "MoviesCLITests",
            dependencies: [
                "MoviesCLICore",
                "movies",
                .product(name: "DataConnectTesting", package: "DataConnectTesting"),
                // For building SDK errors in the shell's error-mapping tests.
                .product(name: "FirebaseDataConnect", package: "DataConnect"),
            ],
            path: "Tests/MoviesCLITests"
        ),
        // Reducer and layout tests of MoviesTUICore, and a tmux end-to-end test of the built `movies-tui`.
        .testTarget(
            name: "MoviesTUITests",
            dependencies: [
                "MoviesTUICore",
                "MoviesCLICore",
                // Built so the end-to-end test can run it inside tmux, and change data with the CLI meanwhile.
                "movies-tui",
                "movies",
                .product(name: "DataConnectTesting", package: "DataConnectTesting"),
            ],
            path: "Tests/MoviesTUITests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
