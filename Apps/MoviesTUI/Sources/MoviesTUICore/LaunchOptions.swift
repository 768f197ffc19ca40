import MoviesCLICore

/// The `movies-tui` command line, parsed: `[String] -> LaunchCommand`.
public enum LaunchCommand: Equatable, Sendable {
    /// `--help`: print ``LaunchOptions/helpText`` and exit 0.
    case help
    /// Run the app.
    case run(LaunchOptions)

    /// Parses the arguments after the program name.
    ///
    /// ```swift
    /// try LaunchCommand.parse(["--emulator", "127.0.0.1:9000", "--uid", "alice"], environment: [:])
    /// // .run(LaunchOptions(emulator: 127.0.0.1:9000, uid: "alice"))
    /// ```
    ///
    /// - Parameters:
    ///   - arguments: The arguments.
    ///   - environment: The process environment, for `FIREBASE_DATA_CONNECT_EMULATOR_HOST`.
    /// - Returns: The command.
    /// - Throws: ``UsageError`` for an unknown option, a missing value or a bad address.
    public static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> LaunchCommand {
        var emulator: EmulatorAddress?
        var uid: String?
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--help", "-h":
                return .help
            case "--emulator":
                guard let value = remaining.popFirst() else { throw UsageError("--emulator needs HOST:PORT") }
                guard let address = EmulatorAddress(value) else {
                    throw UsageError("--emulator must be HOST:PORT, got \"\(value)\"")
                }
                emulator = address
            case "--uid":
                guard let value = remaining.popFirst(), !value.isEmpty, !value.contains(where: \.isWhitespace) else {
                    throw UsageError("--uid needs a uid (one word)")
                }
                uid = value
            default:
                throw UsageError("unknown argument \"\(argument)\"")
            }
        }
        return .run(LaunchOptions(emulator: try EmulatorAddress.resolve(emulator, environment: environment), uid: uid))
    }
}

/// How `movies-tui` starts.
public struct LaunchOptions: Equatable, Sendable {
    /// The emulator to talk to.
    public var emulator: EmulatorAddress
    /// The uid to sign in as at start, if any.
    public var uid: String?

    /// Creates options.
    public init(emulator: EmulatorAddress, uid: String? = nil) {
        self.emulator = emulator
        self.uid = uid
    }

    /// The `--help` text.
    public static var helpText: String {
        var text = """
            usage: movies-tui [--emulator HOST:PORT] [--uid UID]

            A terminal browser for the movies catalogue of a Data Connect emulator.

            Options:
              --emulator HOST:PORT  the emulator (default: $FIREBASE_DATA_CONNECT_EMULATOR_HOST, else 127.0.0.1:9399)
              --uid UID             start signed in as UID (emulator auth)
              --help                print this help

            Keys:

            """
        let keyWidth = KeyBindings.all.map { DisplayWidth.of($0.keys) }.max() ?? 0
        for binding in KeyBindings.all {
            text += "  " + DisplayWidth.pad(binding.keys, to: keyWidth) + "  " + binding.action + "\n"
        }
        return text
    }
}
