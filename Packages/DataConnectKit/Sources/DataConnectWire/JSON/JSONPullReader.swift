/// Reads a JSON document one value at a time, for code that translates JSON into another format without building a
/// ``JSONValue`` tree.
///
/// The reader checks the same grammar as ``JSONReader`` (it is the same parser), but the caller drives it: it asks
/// what comes next, opens objects and arrays, walks their members, and reads or skips each value. Every member key
/// and every element announced must be followed by exactly one read of a value (``readValue()``, ``skipValue()``,
/// one of the typed reads, or an object or array walked to its end); ``finish()`` checks that nothing follows the
/// document.
///
/// The reader points into the caller's bytes, so it lives inside `withUnsafeBufferPointer`:
///
/// ```swift
/// try bytes.withUnsafeBufferPointer { buffer throws(JSONError) in
///     var reader = try JSONPullReader(buffer)
///     try reader.beginObject()
///     while let key = try reader.nextKey() {
///         if key == "title" { print(try reader.readString()) } else { try reader.skipValue() }
///     }
///     try reader.finish()
/// }
/// ```
public struct JSONPullReader {
    /// What the next value is, as its first character tells.
    public enum ValueKind: Hashable, Sendable {
        /// `{`.
        case object
        /// `[`.
        case array
        /// `"`.
        case string
        /// `-` or a digit.
        case number
        /// `t` or `f`.
        case bool
        /// `n`.
        case null
    }

    private var parser: JSONParser
    /// Whether the innermost open object or array has had no member or element yet.
    private var atFirstEntry = false

    /// Starts reading a document.
    ///
    /// - Parameters:
    ///   - buffer: The whole document; it must outlive the reader.
    ///   - options: The limits of nesting depth and input size.
    /// - Throws: ``JSONError`` when the input is empty or larger than `options.maxInputSize`.
    public init(
        _ buffer: UnsafeBufferPointer<UInt8>, options: JSONReader.Options = JSONReader.Options()
    ) throws(JSONError) {
        if buffer.count > options.maxInputSize {
            throw JSONError(
                kind: .inputTooLarge,
                reason: "input of \(buffer.count) bytes exceeds the limit of \(options.maxInputSize) bytes",
                offset: 0, line: 1, column: 1
            )
        }
        guard let base = buffer.baseAddress, buffer.count > 0 else {
            throw JSONError(
                kind: .unexpectedEndOfInput, reason: "unexpected end of input", offset: 0, line: 1, column: 1)
        }
        parser = JSONParser(base: base, count: buffer.count, maxDepth: options.maxDepth)
    }

    /// The byte offset of the next character to read.
    public var offset: Int { parser.position }

    /// What the next value is, without reading it.
    ///
    /// - Throws: ``JSONError`` at the end of the input or at a character that cannot start a value.
    public mutating func peek() throws(JSONError) -> ValueKind {
        parser.skipWhitespace()
        guard parser.position < parser.count else { throw parser.endOfInput() }
        switch parser.base[parser.position] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        default: throw parser.unexpectedCharacter(at: parser.position)
        }
    }

    // MARK: Objects and arrays

    /// Opens the object that comes next: `{`.
    ///
    /// - Throws: ``JSONError`` when the next value is not an object, or nesting is too deep.
    public mutating func beginObject() throws(JSONError) {
        try open(UInt8(ascii: "{"))
    }

    /// Reads the next member's key and its `:`, or closes the object and returns `nil`.
    ///
    /// - Throws: ``JSONError`` at a missing `,` or `:`, a malformed key, or the end of the input.
    public mutating func nextKey() throws(JSONError) -> String? {
        guard try nextEntry(closing: UInt8(ascii: "}")) else { return nil }
        guard parser.base[parser.position] == UInt8(ascii: "\"") else {
            throw parser.unexpectedCharacter(at: parser.position)
        }
        let key = try parser.parseString()
        parser.skipWhitespace()
        guard parser.position < parser.count else { throw parser.endOfInput() }
        guard parser.base[parser.position] == UInt8(ascii: ":") else {
            throw parser.unexpectedCharacter(at: parser.position)
        }
        parser.position += 1
        return key
    }

    /// Reads the next member's key and its `:` and hands the key's decoded UTF-8 bytes to `body`, without creating
    /// a `String`; or closes the object and returns `nil`.
    ///
    /// The bytes are valid only inside `body`.
    ///
    /// - Returns: What `body` returns, or `nil` after closing the object.
    /// - Throws: ``JSONError`` at a missing `,` or `:`, a malformed key, or the end of the input.
    public mutating func withNextKey<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) throws(JSONError) -> R? {
        guard try nextEntry(closing: UInt8(ascii: "}")) else { return nil }
        guard parser.base[parser.position] == UInt8(ascii: "\"") else {
            throw parser.unexpectedCharacter(at: parser.position)
        }
        let content = try parser.scanString()
        parser.skipWhitespace()
        guard parser.position < parser.count else { throw parser.endOfInput() }
        guard parser.base[parser.position] == UInt8(ascii: ":") else {
            throw parser.unexpectedCharacter(at: parser.position)
        }
        parser.position += 1
        if let content {
            return body(UnsafeBufferPointer(start: parser.base + content.lowerBound, count: content.count))
        }
        return parser.scratch.withUnsafeBufferPointer(body)
    }

    /// Opens the array that comes next: `[`.
    ///
    /// - Throws: ``JSONError`` when the next value is not an array, or nesting is too deep.
    public mutating func beginArray() throws(JSONError) {
        try open(UInt8(ascii: "["))
    }

    /// Whether another element follows (its `,` read), or `false` after closing the array.
    ///
    /// - Throws: ``JSONError`` at a missing `,` or the end of the input.
    public mutating func nextElement() throws(JSONError) -> Bool {
        try nextEntry(closing: UInt8(ascii: "]"))
    }

    private mutating func open(_ bracket: UInt8) throws(JSONError) {
        parser.skipWhitespace()
        guard parser.position < parser.count else { throw parser.endOfInput() }
        guard parser.base[parser.position] == bracket else { throw parser.unexpectedCharacter(at: parser.position) }
        try parser.enterContainer(at: parser.position)
        parser.position += 1
        atFirstEntry = true
    }

    /// Reads the `,` before an entry, or the closing bracket; leaves `position` at the entry's first character.
    private mutating func nextEntry(closing: UInt8) throws(JSONError) -> Bool {
        parser.skipWhitespace()
        guard parser.position < parser.count else { throw parser.endOfInput() }
        if parser.base[parser.position] == closing {
            parser.position += 1
            parser.depth -= 1
            atFirstEntry = false
            return false
        }
        if !atFirstEntry {
            guard parser.base[parser.position] == UInt8(ascii: ",") else {
                throw parser.unexpectedCharacter(at: parser.position)
            }
            parser.position += 1
            parser.skipWhitespace()
            guard parser.position < parser.count else { throw parser.endOfInput() }
        }
        atFirstEntry = false
        return true
    }

    // MARK: Values

    /// Reads a string.
    ///
    /// - Throws: ``JSONError`` when the next value is not a well-formed string.
    public mutating func readString() throws(JSONError) -> String {
        try expect(.string)
        return try parser.parseString()
    }

    /// Reads a string and hands its decoded UTF-8 bytes to `body`, without creating a `String`.
    ///
    /// The bytes are a view of the input when the string has no escapes; they are valid only inside `body`.
    ///
    /// - Returns: What `body` returns.
    /// - Throws: ``JSONError`` when the next value is not a well-formed string.
    public mutating func withStringBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) throws(JSONError) -> R {
        try expect(.string)
        if let content = try parser.scanString() {
            return body(UnsafeBufferPointer(start: parser.base + content.lowerBound, count: content.count))
        }
        return parser.scratch.withUnsafeBufferPointer(body)
    }

    /// Reads a number, exactly (see ``JSONNumber``).
    ///
    /// - Throws: ``JSONError`` when the next value is not a well-formed number.
    public mutating func readNumber() throws(JSONError) -> JSONNumber {
        try expect(.number)
        return try parser.parseNumber()
    }

    /// Reads `true` or `false`.
    ///
    /// - Throws: ``JSONError`` when the next value is not a boolean.
    public mutating func readBool() throws(JSONError) -> Bool {
        try expect(.bool)
        if parser.base[parser.position] == UInt8(ascii: "t") {
            try parser.expectWord("true")
            return true
        }
        try parser.expectWord("false")
        return false
    }

    /// Reads `null`.
    ///
    /// - Throws: ``JSONError`` when the next value is not `null`.
    public mutating func readNull() throws(JSONError) {
        try expect(.null)
        try parser.expectWord("null")
    }

    /// Reads the next value whole, whatever it is.
    ///
    /// - Throws: ``JSONError`` at the first problem in the value.
    public mutating func readValue() throws(JSONError) -> JSONValue {
        let value = try parser.parseValue()
        atFirstEntry = false
        return value
    }

    /// Reads the next value and forgets it; it is checked as strictly as any other.
    ///
    /// - Throws: ``JSONError`` at the first problem in the value.
    public mutating func skipValue() throws(JSONError) {
        _ = try readValue()
    }

    /// Checks that only whitespace follows the document.
    ///
    /// - Throws: ``JSONError`` at the first character after the document.
    public func finish() throws(JSONError) {
        var rest = parser
        rest.skipWhitespace()
        if rest.position < rest.count {
            throw rest.unexpectedCharacter(at: rest.position, suffix: " after the top-level value")
        }
    }

    private mutating func expect(_ kind: ValueKind) throws(JSONError) {
        let found = try peek()
        guard found == kind else { throw parser.unexpectedCharacter(at: parser.position) }
        atFirstEntry = false
    }
}
