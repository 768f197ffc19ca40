/// The options and positionals ``ArgumentReader/parse(_:command:stoppingAtPositional:)`` read, in order.
///
/// Options are reported under their canonical names whatever spelling was typed. A tool reads them either by
/// name (``value(_:)``, ``contains(_:)``) or, to check values in the order the user gave them, by walking
/// ``occurrences``.
///
/// ```swift
/// let parsed = try ArgumentReader(["--genre", "Drama", "x"]).parse([.value("--genre")])
/// parsed.value("--genre")  // "Drama"
/// parsed.positionals       // ["x"]
/// ```
public struct ParsedArguments: Hashable, Sendable {
    /// One option as given.
    public struct Occurrence: Hashable, Sendable {
        /// The canonical name.
        public var option: String
        /// The name as typed, e.g. an alias.
        public var spelling: String
        /// The value; `nil` for a flag.
        public var value: String?

        /// Creates an occurrence.
        public init(option: String, spelling: String, value: String?) {
            self.option = option
            self.spelling = spelling
            self.value = value
        }
    }

    /// Every option given, in order.
    public var occurrences: [Occurrence]
    /// The positionals, in order.
    public var positionals: [String]
    /// Whether `-h` or `--help` was given; reading stopped there.
    public var helpRequested: Bool

    /// Creates parsed arguments.
    public init(occurrences: [Occurrence] = [], positionals: [String] = [], helpRequested: Bool = false) {
        self.occurrences = occurrences
        self.positionals = positionals
        self.helpRequested = helpRequested
    }

    /// Whether the option (a flag, or an option with a value) was given.
    ///
    /// - Parameter option: The canonical name.
    public func contains(_ option: String) -> Bool {
        occurrences.contains { $0.option == option }
    }

    /// The option's value, the last one when it was given more than once; `nil` when it was not given.
    ///
    /// - Parameter option: The canonical name.
    public func value(_ option: String) -> String? {
        occurrences.last { $0.option == option }?.value
    }

    /// Every value given to a repeatable option, in order.
    ///
    /// - Parameter option: The canonical name.
    public func values(_ option: String) -> [String] {
        occurrences.compactMap { $0.option == option ? $0.value : nil }
    }
}
