import Foundation

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
    /// (`--genre=Drama`); `--` ends the options.
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
        var globals = GlobalOptions()
        var name: String?
        while name == nil, let argument = try reader.next() {
            if try globals.consume(argument, from: &reader, topic: nil) { continue }
            switch argument.name {
            case "-h", "--help": return MoviesCommand(.help(topic: nil))
            default:
                guard !argument.isOption else { throw UsageError("unknown option \"\(argument.name)\"") }
                name = argument.name
            }
        }
        guard let name else { return MoviesCommand(.help(topic: nil)) }
        if name == "help" {
            return MoviesCommand(.help(topic: try parseHelpTopic(&reader)))
        }
        guard let topic = HelpTopic(rawValue: name) else {
            let known = HelpTopic.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError("unknown command \"\(name)\"; commands: \(known)")
        }
        var parser = SubcommandParser(topic: topic, reader: reader, globals: globals)
        guard let action = try parser.parse() else { return MoviesCommand(.help(topic: topic)) }
        if parser.globals.json && !action.isRead {
            throw UsageError("--json applies only to read commands, not to \(topic.rawValue)", topic: topic)
        }
        return MoviesCommand(action, emulator: parser.globals.emulator, json: parser.globals.json)
    }

    private static func parseHelpTopic(_ reader: inout ArgumentReader) throws(UsageError) -> HelpTopic? {
        guard let argument = try reader.next() else { return nil }
        guard let topic = HelpTopic(rawValue: argument.name) else {
            let known = HelpTopic.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError("no help for \"\(argument.name)\"; commands: \(known)")
        }
        if let extra = try reader.next() { throw UsageError("help takes one command, got \"\(extra.name)\" too") }
        return topic
    }
}

/// The options every command accepts.
private struct GlobalOptions {
    var emulator: EmulatorAddress?
    var json = false

    /// Takes `--emulator` or `--json`; returns whether the argument was one of them.
    mutating func consume(
        _ argument: ArgumentReader.Argument, from reader: inout ArgumentReader, topic: HelpTopic?
    ) throws(UsageError) -> Bool {
        switch argument.name {
        case "--emulator":
            let text = try reader.value(for: argument, topic: topic)
            guard let address = EmulatorAddress(text) else {
                throw UsageError("--emulator needs HOST:PORT, got \"\(text)\"", topic: topic)
            }
            emulator = address
            return true
        case "--json":
            try reader.rejectValue(of: argument, topic: topic)
            json = true
            return true
        default:
            return false
        }
    }
}

/// Parses the arguments after one subcommand's name.
private struct SubcommandParser {
    let topic: HelpTopic
    var reader: ArgumentReader
    var globals: GlobalOptions
    var positionals: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []

    init(topic: HelpTopic, reader: ArgumentReader, globals: GlobalOptions) {
        self.topic = topic
        self.reader = reader
        self.globals = globals
    }

    /// The options that take a value, and the flags, of each command.
    private var accepted: (values: Set<String>, flags: Set<String>) {
        switch topic {
        case .list: (["--genre", "--sort", "--limit", "--page"], ["--desc"])
        case .search: (["--genre", "--min-year", "--max-year", "--min-rating"], [])
        case .add: (["--title", "--year", "--genre", "--rating", "--aspect", "--tags"], [])
        case .review: (["--rating", "--text"], [])
        case .login: (["--uid", "--email", "--name"], [])
        case .watch: (["--genre"], ["--poll"])
        case .show, .delete, .favorites, .logout, .whoami: ([], [])
        }
    }

    /// The action, or `nil` when `--help` was given.
    mutating func parse() throws(UsageError) -> MoviesCommand.Action? {
        let accepted = self.accepted
        while let argument = try reader.next() {
            if try globals.consume(argument, from: &reader, topic: topic) { continue }
            if argument.name == "-h" || argument.name == "--help" { return nil }
            if !argument.isOption {
                positionals.append(argument.name)
            } else if accepted.values.contains(argument.name) {
                values[argument.name] = try reader.value(for: argument, topic: topic)
            } else if accepted.flags.contains(argument.name) {
                try reader.rejectValue(of: argument, topic: topic)
                flags.insert(argument.name)
            } else {
                throw UsageError("unknown option \"\(argument.name)\" for \(topic.rawValue)", topic: topic)
            }
        }
        return try action()
    }

    private func action() throws(UsageError) -> MoviesCommand.Action {
        switch topic {
        case .list:
            try expectPositionals(0)
            return .list(
                ListOptions(
                    genre: values["--genre"], sort: try sortKey(), descending: flags.contains("--desc"),
                    limit: try integer("--limit", in: 1...10_000), page: try integer("--page", in: 1...1_000_000)))
        case .search:
            guard !positionals.isEmpty else { throw UsageError("search needs the TEXT to find", topic: topic) }
            let text = positionals.joined(separator: " ")
            return .search(
                SearchOptions(
                    text: text, genre: values["--genre"], minYear: try integer("--min-year"),
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
                    movieID: id, rating: try requiredInteger("--rating", in: 1...5), text: values["--text"] ?? ""))
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
        case .login:
            try expectPositionals(0)
            let uid = try required("--uid")
            guard !uid.isEmpty, uid.count <= 128, !uid.contains(where: \.isWhitespace) else {
                throw UsageError("--uid needs 1 to 128 characters without spaces, got \"\(uid)\"", topic: topic)
            }
            if let name = values["--name"], name.isEmpty || name.count > 50 {
                throw UsageError("--name needs 1 to 50 characters", topic: topic)
            }
            return .login(LoginOptions(uid: uid, email: values["--email"], name: values["--name"]))
        case .logout:
            try expectPositionals(0)
            return .logout
        case .whoami:
            try expectPositionals(0)
            return .whoami
        case .watch:
            try expectPositionals(0)
            return .watch(genre: values["--genre"], poll: flags.contains("--poll"))
        }
    }

    // MARK: Values

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
        guard let value = values[option] else {
            throw UsageError("\(topic.rawValue) needs \(option)", topic: topic)
        }
        return value
    }

    private func integer(_ option: String, in range: ClosedRange<Int>? = nil) throws(UsageError) -> Int? {
        guard let text = values[option] else { return nil }
        guard let value = Int(text), range?.contains(value) ?? true else {
            let expected = range.map { "a number from \($0.lowerBound) to \($0.upperBound)" } ?? "a number"
            throw UsageError("\(option) needs \(expected), got \"\(text)\"", topic: topic)
        }
        return value
    }

    private func requiredInteger(_ option: String, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard values[option] != nil else { throw UsageError("\(topic.rawValue) needs \(option)", topic: topic) }
        return try integer(option, in: range) ?? range.lowerBound
    }

    private func sortKey() throws(UsageError) -> MovieSortKey {
        guard let text = values["--sort"] else { return .title }
        guard let key = MovieSortKey(rawValue: text.lowercased()) else {
            throw UsageError("--sort needs title, year or rating, got \"\(text)\"", topic: topic)
        }
        return key
    }

    private func aspectRatio() throws(UsageError) -> AspectRatioOption? {
        guard let text = values["--aspect"] else { return nil }
        guard let ratio = AspectRatioOption(rawValue: text.uppercased()) else {
            throw UsageError("--aspect needs ACADEMY, WIDESCREEN or ANAMORPHIC, got \"\(text)\"", topic: topic)
        }
        return ratio
    }

    private func tags() -> [String] {
        guard let text = values["--tags"] else { return [] }
        return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

/// Reads arguments one at a time, splitting `--name=value` and honouring `--`.
private struct ArgumentReader {
    /// One argument: an option name (with its `=value`, if any) or a positional.
    struct Argument {
        var name: String
        var inlineValue: String?
        var isOption: Bool
    }

    private let arguments: [String]
    private var index = 0
    private var optionsEnded = false

    init(_ arguments: [String]) {
        self.arguments = arguments
    }

    mutating func next() throws(UsageError) -> Argument? {
        guard index < arguments.count else { return nil }
        let text = arguments[index]
        index += 1
        if optionsEnded { return Argument(name: text, inlineValue: nil, isOption: false) }
        if text == "--" {
            optionsEnded = true
            return try next()
        }
        // A lone "-" and negative numbers are values, not options.
        guard text.hasPrefix("-"), text.count > 1, Int(text) == nil else {
            return Argument(name: text, inlineValue: nil, isOption: false)
        }
        if text.hasPrefix("--"), let equals = text.firstIndex(of: "=") {
            return Argument(
                name: String(text[..<equals]), inlineValue: String(text[text.index(after: equals)...]), isOption: true)
        }
        return Argument(name: text, inlineValue: nil, isOption: true)
    }

    /// The option's value: after `=`, else the next argument when that is not an option.
    mutating func value(for argument: Argument, topic: HelpTopic?) throws(UsageError) -> String {
        if let inline = argument.inlineValue { return inline }
        // The next argument is the value unless it is another option; `--text=--x` passes such a value.
        guard index < arguments.count, !(arguments[index].hasPrefix("--") && arguments[index].count > 2) else {
            throw UsageError("\(argument.name) needs a value", topic: topic)
        }
        let value = arguments[index]
        index += 1
        return value
    }

    /// Fails when a flag was given a value with `=`.
    func rejectValue(of argument: Argument, topic: HelpTopic?) throws(UsageError) {
        if argument.inlineValue != nil { throw UsageError("\(argument.name) takes no value", topic: topic) }
    }
}
