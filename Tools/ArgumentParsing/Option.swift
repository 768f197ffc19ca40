/// One option a command accepts: a flag such as `--desc`, or an option that takes a value such as `--genre Drama`.
///
/// The first name is the option's canonical name, the one ``ParsedArguments`` reports it under; the others are
/// aliases. Long options may also be given their value after `=` (`--genre=Drama`).
///
/// ```swift
/// let options: [Option] = [
///     .value("--backend", aliases: "--config-dir", expecting: "a directory"),
///     .flag("--quiet", aliases: "-q"),
/// ]
/// ```
public struct Option: Hashable, Sendable {
    /// Whether the option takes a value.
    public enum Kind: Hashable, Sendable {
        /// A flag: present or not; `--flag=value` is an error.
        case flag
        /// An option with a value; `expected` completes the message when the value is missing: `--backend needs a
        /// directory`.
        case value(expected: String)
    }

    /// The canonical name first, then the aliases, each spelled as typed (`--backend`, `-q`).
    public var names: [String]
    /// Whether the option takes a value.
    public var kind: Kind

    /// The canonical name.
    public var name: String { names[0] }

    /// Whether the option takes a value.
    public var takesValue: Bool {
        if case .value = kind { return true }
        return false
    }

    /// Creates an option from its names.
    ///
    /// - Parameters:
    ///   - names: The canonical name, then the aliases; at least one.
    ///   - kind: Whether the option takes a value.
    public init(names: [String], kind: Kind) {
        precondition(!names.isEmpty, "an option needs a name")
        self.names = names
        self.kind = kind
    }

    /// A flag, such as `--desc`.
    ///
    /// - Parameters:
    ///   - name: The canonical name.
    ///   - aliases: Other spellings, such as `-q` for `--quiet`.
    public static func flag(_ name: String, aliases: String...) -> Option {
        Option(names: [name] + aliases, kind: .flag)
    }

    /// An option that takes a value, such as `--genre Drama` or `--genre=Drama`.
    ///
    /// - Parameters:
    ///   - name: The canonical name.
    ///   - aliases: Other spellings.
    ///   - expected: What the value is, for the message when it is missing (`--backend needs a directory`).
    public static func value(_ name: String, aliases: String..., expecting expected: String = "a value") -> Option {
        Option(names: [name] + aliases, kind: .value(expected: expected))
    }
}
