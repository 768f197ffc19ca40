import DataConnectTestSupport
import DataConnectTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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

    /// Runs `movies ARGUMENTS --emulator ADDRESS` with `input` on its standard input.
    func run(_ arguments: [String], input: String) async throws -> ProcessResult {
        try await ChildProcess(
            BuiltExecutable.require("movies"), arguments + ["--emulator", address],
            environment: ChildProcess.environment(adding: environment), standardInput: Data(input.utf8)
        ).waitForExit()
    }

    /// Sets a user's custom claims as an admin would: the Auth emulator's `accounts:update` with the
    /// `Bearer owner` token firebase-tools accepts for the admin API.
    ///
    /// - Parameters:
    ///   - claims: The claims, as the JSON text of an object.
    ///   - uid: The user.
    func setCustomClaims(_ claims: String, uid: String) async throws {
        let url = URL(
            string: "http://\(address)/identitytoolkit.googleapis.com/v1/projects/demo-project/accounts:update")!
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("Bearer owner", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: ["localId": uid, "customAttributes": claims])
        let (body, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode
        #expect(status == 200, "accounts:update: \(String(decoding: body, as: UTF8.self))")
    }

    /// Starts `movies ARGUMENTS --emulator ADDRESS` in the background.
    func start(_ arguments: String...) throws -> ChildProcess {
        try ChildProcess.startMovies(arguments + ["--emulator", address], environment: environment)
    }
}
