/// What is wrong with a command line, as the shared parser finds it.
///
/// Each tool turns it into its own usage error, usually keeping ``message``:
///
/// ```swift
/// do { ... } catch { throw UsageError(error.message, topic: topic) }
/// ```
public struct ArgumentError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of mistake, with what the message names.
    public enum Reason: Hashable, Sendable {
        /// An option the command does not accept.
        case unknownOption(String)
        /// An option that takes a value was the last argument, or was followed by another option.
        case missingValue(option: String, expected: String)
        /// A flag was given a value with `=`.
        case unexpectedValue(option: String)
        /// A subcommand the tool does not have; `known` lists the ones it has, or is empty to list none.
        case unknownCommand(String, known: [String])
        /// `help TOPIC` for a topic there is no help for.
        case unknownHelpTopic(String, known: [String])
        /// `help` was given a second topic.
        case extraHelpTopic(String)
    }

    /// The kind of mistake.
    public var reason: Reason
    /// The subcommand whose arguments were being read, if any; unknown options name it.
    public var command: String?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - reason: The kind of mistake.
    ///   - command: The subcommand whose arguments were being read.
    public init(_ reason: Reason, command: String? = nil) {
        self.reason = reason
        self.command = command
    }

    /// One line for the user, e.g. `unknown option "--bogus" for validate` or `--limit needs a value`.
    public var message: String {
        switch reason {
        case .unknownOption(let name):
            return "unknown option \"\(name)\"" + (command.map { " for \($0)" } ?? "")
        case .missingValue(let option, let expected):
            return "\(option) needs \(expected)"
        case .unexpectedValue(let option):
            return "\(option) takes no value"
        case .unknownCommand(let name, let known):
            return "unknown command \"\(name)\"" + (known.isEmpty ? "" : "; commands: \(known.joined(separator: ", "))")
        case .unknownHelpTopic(let name, let known):
            return "no help for \"\(name)\"; commands: \(known.joined(separator: ", "))"
        case .extraHelpTopic(let name):
            return "help takes one command, got \"\(name)\" too"
        }
    }

    /// The ``message``.
    public var description: String { message }
}
