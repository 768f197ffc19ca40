import ArgumentParsing
import Foundation
import MoviesModels

/// A command-line usage error: printed on one line, exit status 2.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with the arguments.
    public var message: String
    /// The command whose help explains the right usage, if known.
    public var topic: HelpTopic?

    /// Creates a usage error.
    ///
    /// - Parameters:
    ///   - message: What is wrong.
    ///   - topic: The command the arguments were for, if known.
    public init(_ message: String, topic: HelpTopic? = nil) {
        self.message = message
        self.topic = topic
    }

    /// The message followed by where to read the usage, e.g. `--limit needs a number (see movies list --help)`.
    public var description: String {
        if let topic { return "\(message) (see movies \(topic.rawValue) --help)" }
        return "\(message) (see movies --help)"
    }
}

extension MoviesCommand {
    /// Parses the arguments after the program name.
    ///
    /// A pure function so it can be tested without starting a process. `--emulator HOST:PORT` and `--json`
    /// may appear anywhere; options take their value as the next argument or after `=`
    /// (`--genre=Drama`); `--` ends the options (see `ArgumentReader` for the shared rules).
    ///
    /// ```swift
    /// try MoviesCommand.parse(["review", id, "--rating", "5"])  // .review(ReviewOptions(...))
    /// try MoviesCommand.parse([])                               // .help(topic: nil)
    /// ```
    ///
    /// - Parameter arguments: The arguments, without the program name.
    /// - Returns: The command.
    /// - Throws: ``UsageError`` for an unknown command or option, a missing or malformed value, or a
    ///   missing required option.
    public static func parse(_ arguments: [String]) throws(UsageError) -> MoviesCommand {
        var reader = ArgumentReader(arguments)
        let leading = try UsageError.reading(topic: nil) { () throws(ArgumentError) in
            try reader.parse(GlobalOptions.accepted, stoppingAtPositional: true)
        }
        if leading.helpRequested { return MoviesCommand(.help(topic: nil)) }
        var globals = try GlobalOptions(leading, topic: nil)
        guard let name = leading.positionals.first else { return MoviesCommand(.help(topic: nil)) }
        let known = HelpTopic.allCases.map(\.rawValue)
        if name == "help" {
            let topic = try UsageError.reading(topic: nil) { () throws(ArgumentError) in
                try reader.helpTopic(among: known)
            }
            return MoviesCommand(.help(topic: topic.flatMap(HelpTopic.init(rawValue:))))
        }
        guard let topic = HelpTopic(rawValue: name) else {
            throw UsageError(ArgumentError(.unknownCommand(name, known: known)).message)
        }
        let parsed = try UsageError.reading(topic: topic) { () throws(ArgumentError) in
            try reader.parse(SubcommandParser.accepted(topic) + GlobalOptions.accepted, command: topic.rawValue)
        }
        if parsed.helpRequested { return MoviesCommand(.help(topic: topic)) }
        try globals.update(from: parsed, topic: topic)
        let action = try SubcommandParser(topic: topic, parsed: parsed).action()
        if globals.json && !action.isRead {
            throw UsageError("--json applies only to read commands, not to \(topic.rawValue)", topic: topic)
        }
        return MoviesCommand(action, emulator: globals.emulator, json: globals.json)
    }

    /// The emulator to use: `--emulator`, else `FIREBASE_DATA_CONNECT_EMULATOR_HOST`, else the standard address.
    ///
    /// - Parameter environment: The process environment.
    /// - Returns: The address.
    /// - Throws: ``UsageError`` when the environment variable is set but is not `host:port`.
    public func emulatorAddress(environment: [String: String]) throws(UsageError) -> EmulatorAddress {
        do {
            return try EmulatorAddress.resolve(emulator, environment: environment)
        } catch {
            throw UsageError(error.description)
        }
    }
}

extension UsageError {
    /// Runs a step of the shared parser, turning its ``ArgumentError`` into a usage error about `topic`.
    fileprivate static func reading<Result>(
        topic: HelpTopic?, _ step: () throws(ArgumentError) -> Result
    ) throws(UsageError) -> Result {
        do {
            return try step()
        } catch {
            throw UsageError(error.message, topic: topic)
        }
    }
}

/// The options every command accepts, before or after its name.
private struct GlobalOptions {
    static let accepted: [Option] = [.value("--emulator"), .flag("--json")]

    var emulator: EmulatorAddress?
    var json = false

    /// The global options given before the command's name.
    init(_ parsed: ParsedArguments, topic: HelpTopic?) throws(UsageError) {
        try update(from: parsed, topic: topic)
    }

    /// Takes `--emulator` and `--json` from parsed arguments; the last `--emulator` wins.
    mutating func update(from parsed: ParsedArguments, topic: HelpTopic?) throws(UsageError) {
        if let text = parsed.value("--emulator") {
            guard let address = EmulatorAddress(text) else {
                throw UsageError("--emulator needs HOST:PORT, got \"\(text)\"", topic: topic)
            }
            emulator = address
        }
        if parsed.contains("--json") { json = true }
    }
}

/// Builds one subcommand's action from its parsed arguments.
private struct SubcommandParser {
    let topic: HelpTopic
    let positionals: [String]
    let parsed: ParsedArguments

    init(topic: HelpTopic, parsed: ParsedArguments) {
        self.topic = topic
        self.positionals = parsed.positionals
        self.parsed = parsed
    }

    /// The options of each command, besides the global ones.
    static func accepted(_ topic: HelpTopic) -> [Option] {
        switch topic {
        case .list: [.value("--genre"), .value("--sort"), .value("--limit"), .value("--page"), .flag("--desc")]
        case .search: [.value("--genre"), .value("--min-year"), .value("--max-year"), .value("--min-rating")]
        case .add:
            [
                .value("--title"), .value("--year"), .value("--genre"), .value("--rating"), .value("--aspect"),
                .value("--tags"),
            ]
        case .review: [.value("--rating"), .value("--text")]
        case .signup: [.value("--email"), .value("--password"), .flag("--password-stdin"), .value("--name")]
        case .login: [.value("--email"), .value("--password"), .flag("--password-stdin")]
        case .watch: [.value("--genre"), .flag("--poll")]
        case .show, .delete, .favorites, .logout, .whoami: []
        }
    }

    /// The action the parsed arguments ask for.
    func action() throws(UsageError) -> MoviesCommand.Action {
        switch topic {
        case .list:
            try expectPositionals(0)
            return .list(
                ListOptions(
                    genre: parsed.value("--genre"), sort: try sortKey(), descending: parsed.contains("--desc"),
                    limit: try integer("--limit", in: 1...10_000), page: try integer("--page", in: 1...1_000_000)))
        case .search:
            guard !positionals.isEmpty else { throw UsageError("search needs the TEXT to find", topic: topic) }
            let text = positionals.joined(separator: " ")
            return .search(
                SearchOptions(
                    text: text, genre: parsed.value("--genre"), minYear: try integer("--min-year"),
                    maxYear: try integer("--max-year"), minRating: try integer("--min-rating", in: 0...5)))
        case .show:
            return .show(id: try singleID())
        case .delete:
            return .delete(id: try singleID())
        case .add:
            try expectPositionals(0)
            let title = try required("--title")
            guard !title.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw UsageError("--title must not be empty", topic: topic)
            }
            return .add(
                NewMovie(
                    title: title, releaseYear: try requiredInteger("--year", in: 1800...3000),
                    genre: try required("--genre"), rating: try requiredInteger("--rating", in: 1...5),
                    aspectRatio: try aspectRatio(), tags: tags()))
        case .review:
            let id = try singleID()
            return .review(
                ReviewOptions(
                    movieID: id, rating: try requiredInteger("--rating", in: 1...5), text: parsed.value("--text") ?? "")
            )
        case .favorites:
            switch positionals.first {
            case nil, "list":
                try expectPositionals(positionals.isEmpty ? 0 : 1)
                return .favorites(.list)
            case "add":
                return .favorites(.add(try id(at: 1, count: 2)))
            case "remove", "rm":
                return .favorites(.remove(try id(at: 1, count: 2)))
            case let other?:
                throw UsageError("unknown favorites action \"\(other)\"; use add ID or remove ID", topic: topic)
            }
        case .signup:
            try expectPositionals(0)
            let credentials = try credentials()
            if let name = parsed.value("--name"), name.isEmpty || name.count > 50 {
                throw UsageError("--name needs 1 to 50 characters", topic: topic)
            }
            return .signup(SignUpOptions(credentials: credentials, name: parsed.value("--name")))
        case .login:
            try expectPositionals(0)
            return .login(try credentials())
        case .logout:
            try expectPositionals(0)
            return .logout
        case .whoami:
            try expectPositionals(0)
            return .whoami
        case .watch:
            try expectPositionals(0)
            return .watch(genre: parsed.value("--genre"), poll: parsed.contains("--poll"))
        }
    }

    // MARK: Values

    /// `--email E` with exactly one of `--password P` and `--password-stdin`.
    private func credentials() throws(UsageError) -> Credentials {
        let email = try required("--email")
        guard email.contains("@"), !email.contains(where: \.isWhitespace) else {
            throw UsageError("--email needs an address such as ada@example.com, got \"\(email)\"", topic: topic)
        }
        switch (parsed.value("--password"), parsed.contains("--password-stdin")) {
        case (let password?, false):
            guard !password.isEmpty else { throw UsageError("--password must not be empty", topic: topic) }
            return Credentials(email: email, password: .argument(password))
        case (nil, true):
            return Credentials(email: email, password: .standardInput)
        case (_?, true):
            throw UsageError("give --password or --password-stdin, not both", topic: topic)
        case (nil, false):
            throw UsageError("\(topic.rawValue) needs --password or --password-stdin", topic: topic)
        }
    }

    private func expectPositionals(_ count: Int) throws(UsageError) {
        guard positionals.count > count else { return }
        throw UsageError("unexpected argument \"\(positionals[count])\" for \(topic.rawValue)", topic: topic)
    }

    private func singleID() throws(UsageError) -> UUID {
        try id(at: 0, count: 1)
    }

    private func id(at index: Int, count: Int) throws(UsageError) -> UUID {
        guard positionals.count > index else {
            throw UsageError("\(topic.rawValue) needs a movie ID", topic: topic)
        }
        try expectPositionals(count)
        guard let id = MovieID.parse(positionals[index]) else {
            throw UsageError("\"\(positionals[index])\" is not a movie ID (a UUID)", topic: topic)
        }
        return id
    }

    private func required(_ option: String) throws(UsageError) -> String {
        guard let value = parsed.value(option) else {
            throw UsageError("\(topic.rawValue) needs \(option)", topic: topic)
        }
        return value
    }

    private func integer(_ option: String, in range: ClosedRange<Int>? = nil) throws(UsageError) -> Int? {
        guard let text = parsed.value(option) else { return nil }
        guard let value = Int(text), range?.contains(value) ?? true else {
            let expected = range.map { "a number from \($0.lowerBound) to \($0.upperBound)" } ?? "a number"
            throw UsageError("\(option) needs \(expected), got \"\(text)\"", topic: topic)
        }
        return value
    }

    private func requiredInteger(_ option: String, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard parsed.value(option) != nil else { throw UsageError("\(topic.rawValue) needs \(option)", topic: topic) }
        return try integer(option, in: range) ?? range.lowerBound
    }

    private func sortKey() throws(UsageError) -> MovieSortKey {
        guard let text = parsed.value("--sort") else { return .title }
        guard let key = MovieSortKey(rawValue: text.lowercased()) else {
            throw UsageError("--sort needs title, year or rating, got \"\(text)\"", topic: topic)
        }
        return key
    }

    private func aspectRatio() throws(UsageError) -> AspectRatioOption? {
        guard let text = parsed.value("--aspect") else { return nil }
        guard let ratio = AspectRatioOption(rawValue: text.uppercased()) else {
            throw UsageError("--aspect needs ACADEMY, WIDESCREEN or ANAMORPHIC, got \"\(text)\"", topic: topic)
        }
        return ratio
    }

    private func tags() -> [String] {
        guard let text = parsed.value("--tags") else { return [] }
        return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
