/// Why a JSON document could not be read, and where.
///
/// The position is given three ways: ``offset`` is the 0-based byte offset into the input, ``line`` and
/// ``column`` are 1-based, with lines separated by `\n` and columns counted in Unicode scalars.
///
/// ```swift
/// do {
///     _ = try JSONValue(parsing: "[1, x]")
/// } catch {
///     print(error)  // unexpected character "x" at line 1, column 5
/// }
/// ```
public struct JSONError: Error, Hashable, Sendable {
    /// The kind of failure, for code that reacts to it.
    public enum Kind: Hashable, Sendable {
        /// A character that cannot appear here.
        case unexpectedCharacter
        /// The input ended inside a value, or was empty.
        case unexpectedEndOfInput
        /// A backslash followed by a character that is not a JSON escape.
        case invalidEscape
        /// A `\u` escape without four hexadecimal digits.
        case invalidUnicodeEscape
        /// A `\u` escape of a UTF-16 surrogate that is not part of a pair.
        case loneSurrogate
        /// A raw control character (U+0000 to U+001F) inside a string.
        case controlCharacterInString
        /// Bytes that are not well-formed UTF-8.
        case invalidUTF8
        /// A number that breaks the JSON number grammar (leading zeros, a missing digit).
        case invalidNumber
        /// Arrays and objects nested deeper than ``JSONReader/Options/maxDepth``.
        case nestingTooDeep
        /// An input larger than ``JSONReader/Options/maxInputSize``.
        case inputTooLarge
    }

    /// The kind of failure.
    public var kind: Kind
    /// What went wrong, without the position, e.g. `unexpected character "x"`.
    public var reason: String
    /// The 0-based byte offset of the failure in the input.
    public var offset: Int
    /// The 1-based line of the failure.
    public var line: Int
    /// The 1-based column of the failure, in Unicode scalars.
    public var column: Int

    /// Creates an error value.
    public init(kind: Kind, reason: String, offset: Int, line: Int, column: Int) {
        self.kind = kind
        self.reason = reason
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// The full message, e.g. `unexpected character "x" at line 1, column 5`.
    public var message: String {
        "\(reason) at line \(line), column \(column)"
    }
}

extension JSONError: CustomStringConvertible {
    /// The full message; see ``message``.
    public var description: String { message }
}
