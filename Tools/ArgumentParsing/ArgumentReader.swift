/// Reads a command line one argument at a time: options with their values, positionals, and `--`.
///
/// The reader is the parser's lowest layer. Most commands call ``parse(_:command:stoppingAtPositional:)``, which
/// reads every remaining argument against a list of ``Option``s; a tool with subcommands reads the options before
/// the subcommand's name, then the subcommand's own:
///
/// ```swift
/// var reader = ArgumentReader(["--json", "list", "--genre=Drama", "--desc"])
/// let globals = try reader.parse([.flag("--json")], stoppingAtPositional: true)   // positionals: ["list"]
/// let list = try reader.parse([.value("--genre"), .flag("--desc"), .flag("--json")], command: "list")
/// list.value("--genre")  // "Drama"
/// ```
///
/// The rules, shared by every tool of the workspace:
/// - `--name=value` and `--name value` both give a value; a flag given a value with `=` is an error.
/// - The argument after an option is its value unless it is itself a long option (`--genre --desc` is a missing
///   value); such a value can still be given with `=` (`--text=--meh--`). `-1` and a lone `-` are values.
/// - `--` ends the options: every later argument is a positional.
/// - `-h` and `--help` stop the reading and mark the arguments as asking for help.
public struct ArgumentReader: Sendable {
    private let arguments: [String]
    private var index = 0
    private var optionsEnded = false

    /// Creates a reader of the arguments after the program name (or after a subcommand's name).
    ///
    /// - Parameter arguments: The arguments.
    public init(_ arguments: [String]) {
        self.arguments = arguments
    }

    /// Whether every argument has been read.
    public var isAtEnd: Bool { index >= arguments.count }

    /// The arguments not read yet, as given.
    public var remaining: ArraySlice<String> { arguments[index...] }

    /// The next argument, skipping the `--` that ends the options; `nil` at the end.
    public mutating func next() -> Argument? {
        guard index < arguments.count else { return nil }
        let text = arguments[index]
        index += 1
        if optionsEnded { return .positional(text) }
        if text == "--" {
            optionsEnded = true
            return next()
        }
        return Argument(parsing: text)
    }

    /// The value of an option just read: the text after `=`, else the next argument unless that is a long option.
    ///
    /// - Parameters:
    ///   - argument: The option, as ``next()`` returned it.
    ///   - expected: What the value is, for the message when it is missing.
    /// - Returns: The value.
    /// - Throws: ``ArgumentError/Reason/missingValue(option:expected:)``.
    public mutating func value(for argument: Argument, expected: String = "a value") throws(ArgumentError) -> String {
        if let inline = argument.inlineValue { return inline }
        guard index < arguments.count, optionsEnded || !Self.isLongOption(arguments[index]) else {
            throw ArgumentError(.missingValue(option: argument.name, expected: expected))
        }
        defer { index += 1 }
        return arguments[index]
    }

    /// Reads the remaining arguments as options from `options`, and positionals.
    ///
    /// - Parameters:
    ///   - options: The options accepted here.
    ///   - command: The subcommand being read, named by unknown-option errors.
    ///   - stoppingAtPositional: Whether to stop after the first positional (a subcommand's name), leaving the
    ///     rest for the subcommand's own call.
    /// - Returns: The options in the order given, and the positionals; as soon as `-h` or `--help` is read,
    ///   what was read so far with ``ParsedArguments/helpRequested`` set.
    /// - Throws: ``ArgumentError`` for an unknown option, a missing value, or a flag given a value.
    public mutating func parse(
        _ options: [Option], command: String? = nil, stoppingAtPositional: Bool = false
    ) throws(ArgumentError) -> ParsedArguments {
        var parsed = ParsedArguments()
        while let argument = next() {
            guard argument.isOption else {
                parsed.positionals.append(argument.name)
                if stoppingAtPositional { break }
                continue
            }
            if argument.name == "-h" || argument.name == "--help" {
                parsed.helpRequested = true
                break
            }
            guard let option = options.first(where: { $0.names.contains(argument.name) }) else {
                throw ArgumentError(.unknownOption(argument.name), command: command)
            }
            switch option.kind {
            case .flag:
                guard argument.inlineValue == nil else {
                    throw ArgumentError(.unexpectedValue(option: argument.name), command: command)
                }
                parsed.occurrences.append(.init(option: option.name, spelling: argument.name, value: nil))
            case .value(let expected):
                do {
                    let value = try value(for: argument, expected: expected)
                    parsed.occurrences.append(.init(option: option.name, spelling: argument.name, value: value))
                } catch {
                    throw ArgumentError(error.reason, command: command)
                }
            }
        }
        return parsed
    }

    /// Reads the arguments of `help [TOPIC]`: the topic, or `nil` for the overview.
    ///
    /// - Parameter topics: The commands there is help for.
    /// - Returns: The topic, one of `topics`, or `nil` when none is given.
    /// - Throws: ``ArgumentError/Reason/unknownHelpTopic(_:known:)`` and
    ///   ``ArgumentError/Reason/extraHelpTopic(_:)``.
    public mutating func helpTopic(among topics: [String]) throws(ArgumentError) -> String? {
        guard let topic = next() else { return nil }
        guard topics.contains(topic.name) else {
            throw ArgumentError(.unknownHelpTopic(topic.name, known: topics))
        }
        if let extra = next() { throw ArgumentError(.extraHelpTopic(extra.name)) }
        return topic.name
    }

    /// Whether an argument is a long option (`--name`), which cannot be a value without `=`.
    private static func isLongOption(_ text: String) -> Bool {
        text.hasPrefix("--") && text.count > 2
    }
}
