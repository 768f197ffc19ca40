import DataConnectTesting
import Foundation
import Testing
import WorkspaceTestSupport

/// The seeded movies emulator the end-to-end tests share, and a way to run `movies` against it.
enum MoviesFixture {
    private static let started: Result<TestEmulator, any Error> = Result {
        try TestEmulator(backend: RepositoryPaths.movies, seedFile: RepositoryPaths.moviesSeed)
    }

    /// The running emulator, started on first use.
    static func emulator() throws -> TestEmulator {
        try started.get()
    }

    /// `127.0.0.1:<port>` of the emulator.
    static func address() throws -> String {
        let emulator = try emulator()
        return "\(emulator.host):\(emulator.port)"
    }

    /// A text no other test uses, e.g. a genre or title only one test's rows carry.
    static func unique(_ prefix: String) -> String {
        "\(prefix) \(UUID().uuidString.prefix(8))"
    }

    /// Star Wars, from the seed.
    static let starWarsID = "252ff53a-a807-5c12-840b-96bff4798d7b"
}

extension ChildProcess {
    /// Starts the built `movies` with a small environment (see ``ChildProcess/environment(adding:)``): `NO_COLOR`
    /// is never inherited, and the emulator variable only when given in `environment`.
    static func startMovies(_ arguments: [String], environment: [String: String] = [:]) throws -> ChildProcess {
        try ChildProcess(
            BuiltExecutable.require("movies"), arguments, environment: ChildProcess.environment(adding: environment))
    }

    /// Runs the built `movies` to its end, with the environment of ``startMovies(_:environment:)``.
    static func movies(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessResult {
        try await startMovies(arguments, environment: environment).waitForExit()
    }
}

/// One user's view of `movies`: a private configuration folder and the emulator address.
struct MoviesUser: Sendable {
    /// The folder `MOVIES_CONFIG_DIR` points at.
    let configuration: TemporaryDirectory
    /// `--emulator` for every run.
    let address: String

    /// A user with an empty configuration folder, pointed at the shared emulator.
    init() throws {
        configuration = try TemporaryDirectory(prefix: "movies-config")
        address = try MoviesFixture.address()
    }

    /// The child's extra environment.
    var environment: [String: String] { ["MOVIES_CONFIG_DIR": configuration.path] }

    /// Runs `movies ARGUMENTS --emulator ADDRESS` with this user's configuration folder.
    func run(_ arguments: String...) async throws -> ProcessResult {
        try await ChildProcess.movies(arguments + ["--emulator", address], environment: environment)
    }

    /// Starts `movies ARGUMENTS --emulator ADDRESS` in the background.
    func start(_ arguments: String...) throws -> ChildProcess {
        try ChildProcess.startMovies(arguments + ["--emulator", address], environment: environment)
    }
}
