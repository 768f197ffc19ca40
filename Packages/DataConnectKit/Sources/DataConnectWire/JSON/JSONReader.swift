/// A strict RFC 8259 JSON parser working directly on UTF-8 bytes.
///
/// The reader accepts exactly one JSON value of any kind, surrounded by optional whitespace, and rejects
/// everything RFC 8259 does not allow: trailing commas, comments, single quotes, leading zeros, `+1`, `.5`,
/// `1.`, raw control characters in strings, invalid escapes, lone UTF-16 surrogates in `\u` escapes,
/// ill-formed UTF-8 (overlong forms, encoded surrogates, bytes beyond U+10FFFF), a byte order mark, and
/// anything after the value. Nesting deeper than ``Options/maxDepth`` throws instead of exhausting the stack.
///
/// Strings without escapes are created straight from the input bytes; numbers keep their exact text (see
/// ``JSONNumber``); objects keep key order, and a repeated key keeps its first position and last value.
///
/// ```swift
/// let reader = JSONReader(options: .init(maxDepth: 64, maxInputSize: 1 << 20))
/// let value = try reader.parse(#"{"data": {"movie": {"title": "Alien"}}}"#)
/// value["data"]?["movie"]?["title"]  // "Alien"
/// ```
public struct JSONReader: Sendable {
    /// Limits that keep hostile input from exhausting memory or the stack.
    public struct Options: Hashable, Sendable {
        /// The deepest nesting of arrays and objects accepted; deeper input throws
        /// ``JSONError/Kind/nestingTooDeep``.
        ///
        /// The parser recurses once per level, using a few hundred bytes of stack each, so the default of 512
        /// fits comfortably in any thread's stack.
        public var maxDepth: Int
        /// The largest input accepted, in bytes; larger input throws ``JSONError/Kind/inputTooLarge``.
        public var maxInputSize: Int

        /// Creates options; by default 512 levels of nesting and no size limit.
        public init(maxDepth: Int = 512, maxInputSize: Int = .max) {
            self.maxDepth = maxDepth
            self.maxInputSize = maxInputSize
        }
    }

    /// The limits this reader applies.
    public var options: Options

    /// Creates a reader with the given limits.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// Parses one JSON value from UTF-8 bytes.
    ///
    /// - Parameter bytes: The whole document.
    /// - Returns: The value.
    /// - Throws: ``JSONError`` with the position of the first problem.
    public func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONError) -> JSONValue {
        if bytes.count > options.maxInputSize {
            throw JSONError(
                kind: .inputTooLarge,
                reason: "input of \(bytes.count) bytes exceeds the limit of \(options.maxInputSize) bytes",
                offset: 0, line: 1, column: 1
            )
        }
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            throw JSONError(
                kind: .unexpectedEndOfInput, reason: "unexpected end of input", offset: 0, line: 1, column: 1
            )
        }
        var parser = JSONParser(
            base: base.assumingMemoryBound(to: UInt8.self), count: bytes.count, maxDepth: options.maxDepth
        )
        return try parser.parseDocument()
    }

    /// Parses one JSON value from UTF-8 bytes.
    ///
    /// - Throws: ``JSONError`` with the position of the first problem.
    public func parse(_ bytes: [UInt8]) throws(JSONError) -> JSONValue {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(JSONError) -> JSONValue in try parse(raw) }
        }
        return try result.get()
    }

    /// Parses one JSON value from any contiguous byte collection, such as `ArraySlice<UInt8>` or `Data`.
    ///
    /// Collections without contiguous storage are copied first.
    ///
    /// - Throws: ``JSONError`` with the position of the first problem.
    public func parse<Bytes: Sequence>(_ bytes: Bytes) throws(JSONError) -> JSONValue where Bytes.Element == UInt8 {
        let contiguous = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONError) -> JSONValue in try parse(UnsafeRawBufferPointer(buffer)) }
        }
        if let contiguous {
            return try contiguous.get()
        }
        return try parse(Array(bytes))
    }

    /// Parses the first JSON value of UTF-8 bytes and ignores whatever follows it.
    ///
    /// For peers that send a value followed by stray bytes (a newline, a `\0`, a leftover character), where
    /// ``parse(_:)-(UnsafeRawBufferPointer)`` would refuse the document. The value itself is checked as strictly as
    /// ever.
    ///
    /// ```swift
    /// let (value, end) = try JSONReader().parseFirstValue(Array(#"{"a": 1}x"#.utf8))
    /// // value == ["a": 1], end == 8
    /// ```
    ///
    /// - Returns: The value, and the offset just past it (leading whitespace included).
    /// - Throws: ``JSONError`` with the position of the first problem inside the value.
    public func parseFirstValue(_ bytes: [UInt8]) throws(JSONError) -> (value: JSONValue, end: Int) {
        if bytes.count > options.maxInputSize {
            throw JSONError(
                kind: .inputTooLarge,
                reason: "input of \(bytes.count) bytes exceeds the limit of \(options.maxInputSize) bytes",
                offset: 0, line: 1, column: 1
            )
        }
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONError) -> (value: JSONValue, end: Int) in
                guard let base = buffer.baseAddress, buffer.count > 0 else {
                    throw JSONError(
                        kind: .unexpectedEndOfInput, reason: "unexpected end of input", offset: 0, line: 1, column: 1)
                }
                var parser = JSONParser(base: base, count: buffer.count, maxDepth: options.maxDepth)
                return try parser.parseLeadingValue()
            }
        }
        return try result.get()
    }

    /// Parses one JSON value from text.
    ///
    /// - Throws: ``JSONError`` with the position of the first problem.
    public func parse(_ text: String) throws(JSONError) -> JSONValue {
        var text = text
        let result = text.withUTF8 { buffer in
            Result { () throws(JSONError) -> JSONValue in try parse(UnsafeRawBufferPointer(buffer)) }
        }
        return try result.get()
    }
}

/// The recursive-descent parser behind ``JSONReader``; one instance parses one document.
struct JSONParser {
    let base: UnsafePointer<UInt8>
    let count: Int
    let maxDepth: Int
    var position = 0
    var depth = 0
    /// Reused buffer for strings with escapes.
    var scratch: [UInt8] = []
    /// Whether the last string parsed contained escapes.
    var lastStringHadEscapes = false
    /// Elements of the arrays being parsed, innermost last; each array takes its elements off the top.
    var elementStack: [JSONValue] = []
    /// Members of the objects being parsed, innermost last; each object takes its members off the top.
    var memberStack: [(key: String, value: JSONValue)] = []

    /// The member count from which an object being parsed finds repeated keys through a dictionary.
    static let duplicateIndexThreshold = 16

    init(base: UnsafePointer<UInt8>, count: Int, maxDepth: Int) {
        self.base = base
        self.count = count
        self.maxDepth = maxDepth
    }

    // MARK: Values

    /// document = ws value ws
    mutating func parseDocument() throws(JSONError) -> JSONValue {
        let value = try parseValue()
        skipWhitespace()
        if position < count {
            throw unexpectedCharacter(at: position, suffix: " after the top-level value")
        }
        return value
    }

    /// document-prefix = ws value; returns the value and the offset after it.
    mutating func parseLeadingValue() throws(JSONError) -> (value: JSONValue, end: Int) {
        let value = try parseValue()
        return (value, position)
    }

    /// value = object / array / string / number / true / false / null
    mutating func parseValue() throws(JSONError) -> JSONValue {
        skipWhitespace()
        guard position < count else { throw endOfInput() }
        switch base[position] {
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "{"):
            return try parseObject()
        case UInt8(ascii: "["):
            return try parseArray()
        case UInt8(ascii: "t"):
            try expectWord("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectWord("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectWord("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try parseNumber())
        default:
            throw unexpectedCharacter(at: position)
        }
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while position < count {
            let byte = base[position]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            position += 1
        }
    }

    mutating func expectWord(_ word: StaticString) throws(JSONError) {
        let bytes = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for expected in bytes {
            guard position < count else { throw endOfInput() }
            guard base[position] == expected else { throw unexpectedCharacter(at: position) }
            position += 1
        }
    }

    /// Enters an array or object opened at `offset`.
    @inline(__always)
    mutating func enterContainer(at offset: Int) throws(JSONError) {
        depth += 1
        if depth > maxDepth {
            throw makeError(.nestingTooDeep, "nesting depth exceeds the limit of \(maxDepth)", at: offset)
        }
    }

    /// array = begin-array [ value *( value-separator value ) ] end-array
    private mutating func parseArray() throws(JSONError) -> JSONValue {
        try enterContainer(at: position)
        position += 1
        skipWhitespace()
        if position < count && base[position] == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return .array([])
        }
        let stackBase = elementStack.count
        while true {
            let element = try parseValue()
            elementStack.append(element)
            skipWhitespace()
            guard position < count else { throw endOfInput() }
            let byte = base[position]
            if byte == UInt8(ascii: ",") {
                position += 1
            } else if byte == UInt8(ascii: "]") {
                position += 1
                break
            } else {
                throw unexpectedCharacter(at: position)
            }
        }
        let elements = Array(elementStack[stackBase...])
        elementStack.removeSubrange(stackBase...)
        depth -= 1
        return .array(elements)
    }

    /// object = begin-object [ member *( value-separator member ) ] end-object; member = string name-separator value
    ///
    /// Repeated keys are found cheaply: a 64-bit filter of key fingerprints rules most keys out without
    /// comparing strings, and large objects switch to a dictionary.
    private mutating func parseObject() throws(JSONError) -> JSONValue {
        try enterContainer(at: position)
        position += 1
        skipWhitespace()
        if position < count && base[position] == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return .object(JSONObject())
        }
        let stackBase = memberStack.count
        var fingerprints: UInt64 = 0
        var positions: [String: Int]?
        while true {
            skipWhitespace()
            guard position < count else { throw endOfInput() }
            guard base[position] == UInt8(ascii: "\"") else { throw unexpectedCharacter(at: position) }
            let keyBegin = position + 1
            let key = try parseString()
            let fingerprint =
                lastStringHadEscapes
                ? Self.fingerprint(count: scratch.count, first: scratch.first ?? 0, last: scratch.last ?? 0)
                : Self.fingerprint(
                    count: position - 1 - keyBegin, first: base[keyBegin], last: base[max(keyBegin, position - 2)]
                )
            skipWhitespace()
            guard position < count else { throw endOfInput() }
            guard base[position] == UInt8(ascii: ":") else { throw unexpectedCharacter(at: position) }
            position += 1
            let value = try parseValue()

            if let existing = positions?[key] {
                memberStack[stackBase + existing].value = value
            } else if positions == nil && fingerprints & fingerprint != 0,
                let existing = memberStack[stackBase...].firstIndex(where: { $0.key == key })
            {
                memberStack[existing].value = value
            } else {
                fingerprints |= fingerprint
                if positions != nil {
                    positions?[key] = memberStack.count - stackBase
                }
                memberStack.append((key, value))
                if positions == nil && memberStack.count - stackBase == Self.duplicateIndexThreshold {
                    var index: [String: Int] = [:]
                    index.reserveCapacity(Self.duplicateIndexThreshold * 2)
                    for offset in 0..<Self.duplicateIndexThreshold {
                        index[memberStack[stackBase + offset].key] = offset
                    }
                    positions = index
                }
            }

            skipWhitespace()
            guard position < count else { throw endOfInput() }
            let byte = base[position]
            if byte == UInt8(ascii: ",") {
                position += 1
            } else if byte == UInt8(ascii: "}") {
                position += 1
                break
            } else {
                throw unexpectedCharacter(at: position)
            }
        }
        let members = Array(memberStack[stackBase...])
        memberStack.removeSubrange(stackBase...)
        depth -= 1
        return .object(JSONObject(uniqueEntries: members, index: positions))
    }

    /// One bit chosen from a key's decoded UTF-8 length, first and last byte; equal keys get equal bits.
    @inline(__always)
    private static func fingerprint(count: Int, first: UInt8, last: UInt8) -> UInt64 {
        let mixed = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9 ^ UInt64(first) &* 31 ^ UInt64(last) &* 131
        return 1 << (mixed & 63)
    }

    // MARK: Numbers

    /// number = [ minus ] int [ frac ] [ exp ]; int = zero / ( digit1-9 *DIGIT )
    mutating func parseNumber() throws(JSONError) -> JSONNumber {
        let begin = position
        var negative = false
        if base[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        try expectDigit()
        let digitsBegin = position
        var magnitude: UInt64 = 0
        if base[position] == UInt8(ascii: "0") {
            position += 1
            if position < count && base[position] &- 0x30 < 10 {
                throw makeError(.invalidNumber, "invalid number: leading zeros are not allowed", at: digitsBegin)
            }
        } else {
            while position < count {
                let digit = base[position] &- 0x30
                guard digit < 10 else { break }
                magnitude = magnitude &* 10 &+ UInt64(digit)
                position += 1
            }
        }
        let integerDigits = position - digitsBegin
        var isPlainInteger = true
        if position < count && base[position] == UInt8(ascii: ".") {
            isPlainInteger = false
            position += 1
            try expectDigit()
            skipDigits()
        }
        if position < count && base[position] | 0x20 == UInt8(ascii: "e") {
            isPlainInteger = false
            position += 1
            if position < count && (base[position] == UInt8(ascii: "+") || base[position] == UInt8(ascii: "-")) {
                position += 1
            }
            try expectDigit()
            skipDigits()
        }
        // Up to 19 digits cannot overflow UInt64, so `magnitude` is exact here.
        if isPlainInteger && integerDigits <= 19 {
            if negative {
                if magnitude != 0 && magnitude <= 1 << 63 {
                    return JSONNumber(storage: .int(magnitude == 1 << 63 ? .min : -Int64(magnitude)))
                }
            } else if magnitude <= UInt64(Int64.max) {
                return JSONNumber(storage: .int(Int64(magnitude)))
            }
        }
        let text = String(decoding: UnsafeBufferPointer(start: base + begin, count: position - begin), as: UTF8.self)
        return JSONNumber(storage: .literal(text))
    }

    @inline(__always)
    private mutating func expectDigit() throws(JSONError) {
        guard position < count else { throw endOfInput() }
        guard base[position] &- 0x30 < 10 else {
            if base[position] < 0x80 {
                throw makeError(
                    .invalidNumber, "invalid number: expected a digit, found \(describeCharacter(at: position))",
                    at: position
                )
            }
            throw unexpectedCharacter(at: position)
        }
    }

    @inline(__always)
    private mutating func skipDigits() {
        while position < count && base[position] &- 0x30 < 10 {
            position += 1
        }
    }

}
