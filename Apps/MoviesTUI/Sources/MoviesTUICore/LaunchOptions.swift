import ArgumentParsing
import MoviesModels

/// The `movies-tui` command line, parsed: `[String] -> LaunchCommand`.
public enum LaunchCommand: Equatable, Sendable {
    /// `--help`: print ``LaunchOptions/helpText`` and exit 0.
    case help
    /// Run the app.
    case run(LaunchOptions)

    /// Parses the arguments after the program name.
    ///
    /// ```swift
    /// try LaunchCommand.parse(["--emulator", "127.0.0.1:9000"], environment: ["MOVIES_CONFIG_DIR": "/tmp/a"])
    /// // .run(LaunchOptions(emulator: 127.0.0.1:9000, signInDirectory: "/tmp/a/firebase-auth"))
    /// ```
    ///
    /// - Parameters:
    ///   - arguments: The arguments.
    ///   - environment: The process environment, for `FIREBASE_DATA_CONNECT_EMULATOR_HOST` and
    ///     `MOVIES_CONFIG_DIR`.
    /// - Returns: The command.
    /// - Throws: ``LaunchError`` for an unknown option, a missing value or a bad address.
    public static func parse(_ arguments: [String], environment: [String: String]) throws(LaunchError) -> LaunchCommand
    {
        var reader = ArgumentReader(arguments)
        let parsed: ParsedArguments
        do {
            parsed = try reader.parse([.value("--emulator", expecting: "HOST:PORT")])
        } catch {
            if case .unknownOption(let name) = error.reason { throw LaunchError("unknown argument \"\(name)\"") }
            throw LaunchError(error.message)
        }
        if parsed.helpRequested { return .help }
        if let extra = parsed.positionals.first { throw LaunchError("unknown argument \"\(extra)\"") }
        var emulator: EmulatorAddress?
        if let text = parsed.value("--emulator") {
            guard let address = EmulatorAddress(text) else {
                throw LaunchError("--emulator must be HOST:PORT, got \"\(text)\"")
            }
            emulator = address
        }
        // The `movies` CLI keeps its signed-in user in the same place, so both apps share a sign-in.
        let signInDirectory = environment["MOVIES_CONFIG_DIR"].flatMap { $0.isEmpty ? nil : $0 + "/firebase-auth" }
        do {
            return .run(
                LaunchOptions(
                    emulator: try EmulatorAddress.resolve(emulator, environment: environment),
                    signInDirectory: signInDirectory))
        } catch {
            throw LaunchError(error.description)
        }
    }
}

/// A `movies-tui` usage error: printed with a pointer to `--help`, exit status 2.
public struct LaunchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with the arguments.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameter message: What is wrong.
    public init(_ message: String) {
        self.message = message
    }

    /// The ``message``.
    public var description: String { message }
}

/// How `movies-tui` starts.
public struct LaunchOptions: Equatable, Sendable {
    /// The emulator to talk to.
    public var emulator: EmulatorAddress
    /// Where Firebase Auth keeps the signed-in user: `$MOVIES_CONFIG_DIR/firebase-auth`, as the `movies` CLI
    /// does; `nil` for Firebase Auth's automatic place (`${XDG_CONFIG_HOME:-~/.config}/firebase-auth`).
    public var signInDirectory: String?

    /// Creates options.
    public init(emulator: EmulatorAddress, signInDirectory: String? = nil) {
        self.emulator = emulator
        self.signInDirectory = signInDirectory
    }

    /// The `--help` text.
    public static var helpText: String {
        var text = """
            usage: movies-tui [--emulator HOST:PORT]

            A terminal browser for the movies catalogue of a Data Connect emulator.

            Options:
              --emulator HOST:PORT  the emulator, for Data Connect and Firebase Auth (default:
                                    $FIREBASE_DATA_CONNECT_EMULATOR_HOST, else 127.0.0.1:9399)
              --help                print this help

            Sign in with L (email and password, or create an account). The user stays signed in across runs,
            kept by Firebase Auth in $MOVIES_CONFIG_DIR/firebase-auth when set, else
            ${XDG_CONFIG_HOME:-~/.config}/firebase-auth: the same place as `movies login`.

            Keys:

            """
        let keyWidth = KeyBindings.all.map { DisplayWidth.of($0.keys) }.max() ?? 0
        for binding in KeyBindings.all {
            text += "  " + DisplayWidth.pad(binding.keys, to: keyWidth) + "  " + binding.action + "\n"
        }
        return text
    }
}
