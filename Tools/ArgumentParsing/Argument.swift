/// One command-line argument as ``ArgumentReader`` reads it: an option (with its `=value`, if any) or a positional.
public struct Argument: Hashable, Sendable {
    /// The option's name as typed (`--genre` of `--genre=Drama`), or the positional's whole text.
    public var name: String
    /// The value given after `=` (`Drama` of `--genre=Drama`), if any.
    public var inlineValue: String?
    /// Whether the argument is an option rather than a positional.
    public var isOption: Bool

    /// Creates an argument.
    public init(name: String, inlineValue: String? = nil, isOption: Bool) {
        self.name = name
        self.inlineValue = inlineValue
        self.isOption = isOption
    }

    /// A positional argument.
    public static func positional(_ text: String) -> Argument {
        Argument(name: text, isOption: false)
    }

    /// An option, with the value given after `=`, if any.
    public static func option(_ name: String, value: String? = nil) -> Argument {
        Argument(name: name, inlineValue: value, isOption: true)
    }

    /// Reads one argument's text.
    ///
    /// An argument starting with `-` is an option, except a lone `-` and negative numbers (`-1`), which are
    /// values. `--name=value` is split at the first `=`.
    ///
    /// - Parameter text: The argument as the shell passed it.
    public init(parsing text: String) {
        guard text.hasPrefix("-"), text.count > 1, Int(text) == nil else {
            self = .positional(text)
            return
        }
        if text.hasPrefix("--"), let equals = text.firstIndex(of: "=") {
            self = .option(String(text[..<equals]), value: String(text[text.index(after: equals)...]))
        } else {
            self = .option(text)
        }
    }
}
