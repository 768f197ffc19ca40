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
        // What the tests share: hang guards, the child-process runner, built executables, loopback sockets.
        .package(path: "Packages/DataConnectTestSupport"),
    ],
    targets: [
        // MARK: Tools

        // Flags, options with values, positionals, subcommands and help requests: the machinery both command
        // lines (`dataconnect`, `movies`) and `movies-tui` parse their arguments with. Pure, no Foundation.
        .target(
            name: "ArgumentParsing",
            path: "Tools/ArgumentParsing"
        ),
        .executableTarget(
            name: "dataconnect",
            dependencies: [
                "ArgumentParsing",
                .product(name: "DataConnectSchema", package: "DataConnectKit"),
                .product(name: "GraphQLLanguage", package: "DataConnectKit"),
                // The JSON values and envelopes `dataconnect execute` sends and reads.
                .product(name: "DataConnectWire", package: "DataConnectKit"),
                .product(name: "DataConnectEmulator", package: "DataConnectEmulator"),
                .product(name: "DataConnectEngine", package: "DataConnectEmulator"),
                // The store `dataconnect sql` migrates with, as the emulator's start-up does.
                .product(name: "DataConnectPostgreSQLStore", package: "DataConnectEmulator"),
                .product(name: "EmulatorHTTP", package: "DataConnectEmulator"),
                .product(name: "DataConnectCodegen", package: "DataConnectCodegen"),
                // The connection `dataconnect sql` diffs, migrates, sets up and grants on.
                .product(name: "PostgreSQLKit", package: "DataConnectKit"),
                // The development server `dataconnect postgres start|stop DIR` keeps in a directory.
                .product(name: "PostgreSQLTesting", package: "DataConnectKit"),
            ],
            path: "Tools/dataconnect"
        ),

        // MARK: Apps

        // The apps' models, without the SDK: movie rows and details, movie ids, emulator addresses, display width.
        .target(
            name: "MoviesModels",
            path: "Apps/MoviesAppModels/Sources/MoviesModels"
        ),
        // The generated movies SDK's results mapped to the models (MovieRow, MovieDetails), for the CLI and the TUI.
        .target(
            name: "MoviesAppModels",
            dependencies: [
                "MoviesModels",
                .product(name: "FirebaseDataConnectGenerated", package: "FirebaseDataConnectGenerated"),
            ],
            path: "Apps/MoviesAppModels/Sources/MoviesAppModels"
        ),
        // The `movies` command line's pure logic: argument parsing, formatting, the signed-in user's view, diffs.
        .target(
            name: "MoviesCLICore",
            dependencies: ["MoviesModels", "ArgumentParsing"],
            path: "Apps/MoviesCLI/Sources/MoviesCLICore"
        ),
        // The thin shell that runs `movies` commands against the generated movies SDK.
        .executableTarget(
            name: "movies",
            dependencies: [
                "MoviesCLICore",
                "MoviesModels",
                "MoviesAppModels",
                .product(name: "FirebaseDataConnect", package: "DataConnect"),
                // signup, login, logout, whoami: real accounts on the emulator's Auth API; the connector reads
                // the signed-in user's token from it.
                .product(name: "FirebaseAuth", package: "DataConnect"),
                .product(name: "FirebaseDataConnectGenerated", package: "FirebaseDataConnectGenerated"),
            ],
            path: "Apps/MoviesCLI/Sources/movies"
        ),
        // The narrated walkthrough `make demo` runs: create, list, cache vs server, a live subscription, auth.
        .executableTarget(
            name: "movies-demo",
            dependencies: [
                .product(name: "FirebaseDataConnect", package: "DataConnect"),
                // The auth step signs a real emulator user up and in.
                .product(name: "FirebaseAuth", package: "DataConnect"),
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
            dependencies: ["MoviesModels", "ArgumentParsing"],
            path: "Apps/MoviesTUI/Sources/MoviesTUICore"
        ),
        // The ncurses shell of `movies-tui`: draws frames, maps keys, runs effects against the movies SDK.
        .executableTarget(
            name: "movies-tui",
            dependencies: [
                "CNCurses",
                "MoviesTUICore",
                "MoviesModels",
                "MoviesAppModels",
                .product(name: "FirebaseDataConnect", package: "DataConnect"),
                // The sign-in screen's effects: email and password accounts on the emulator's Auth API.
                .product(name: "FirebaseAuth", package: "DataConnect"),
                .product(name: "FirebaseDataConnectGenerated", package: "FirebaseDataConnectGenerated"),
            ],
            path: "Apps/MoviesTUI/Sources/movies-tui"
        ),

        // MARK: Cross-package tests

        // The documented layering checked on the packages' manifests (`swift package dump-package`), and the
        // package graph docs/architecture.md draws from them.
        .testTarget(
            name: "LayeringTests",
            dependencies: [.product(name: "DataConnectTestSupport", package: "DataConnectTestSupport")],
            path: "Tests/LayeringTests"
        ),
        // The shared argument parser, without a command line around it.
        .testTarget(
            name: "ArgumentParsingTests",
            dependencies: ["ArgumentParsing"],
            path: "Tests/ArgumentParsingTests"
        ),
        // Runs the built `dataconnect` executable as a process, the way a user does.
        .testTarget(
            name: "DataConnectCLITests",
            dependencies: [
                "dataconnect",
                .product(name: "DataConnectTestSupport", package: "DataConnectTestSupport"),
                // The stream client's WebSocket frames and the hostile requests' tokens.
                .product(name: "DataConnectEncoding", package: "DataConnectKit"),
                .product(name: "DataConnectSchema", package: "DataConnectKit"),
                .product(name: "GraphQLLanguage", package: "DataConnectKit"),
                // `dataconnect sql` runs against a throwaway server; the tests read its catalog themselves.
                .product(name: "PostgreSQLKit", package: "DataConnectKit"),
                .product(name: "PostgreSQLTesting", package: "DataConnectKit"),
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
                "MoviesModels",
                "movies",
                .product(name: "DataConnectTestSupport", package: "DataConnectTestSupport"),
                .product(name: "DataConnectTesting", package: "DataConnectTesting"),
                // For building SDK and Auth errors in the shell's error-mapping tests.
                .product(name: "FirebaseDataConnect", package: "DataConnect"),
                .product(name: "FirebaseAuth", package: "DataConnect"),
            ],
            path: "Tests/MoviesCLITests"
        ),
        // Reducer and layout tests of MoviesTUICore, and a tmux end-to-end test of the built `movies-tui`.
        .testTarget(
            name: "MoviesTUITests",
            dependencies: [
                "MoviesTUICore",
                "MoviesModels",
                // Built so the end-to-end test can run it inside tmux, and change data with the CLI meanwhile.
                "movies-tui",
                "movies",
                .product(name: "DataConnectTestSupport", package: "DataConnectTestSupport"),
                // tmux runs straight on the `posix_spawn` runner, its output in a file (see Support/Tmux.swift).
                .product(name: "ProcessSpawning", package: "DataConnectTestSupport"),
                .product(name: "DataConnectTesting", package: "DataConnectTesting"),
            ],
            path: "Tests/MoviesTUITests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
