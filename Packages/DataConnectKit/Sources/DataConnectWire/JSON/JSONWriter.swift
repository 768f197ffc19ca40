/// A fast writer of compact JSON into a growable byte buffer.
///
/// Calls mirror the document's structure; the writer inserts commas and colons itself. It trusts the call
/// sequence: `key(_:)` belongs inside an object before each value, values inside arrays go without keys.
/// A wrong sequence produces invalid JSON, never a crash.
///
/// Output rules:
/// - strings escape `"`, `\` and the control characters U+0000 to U+001F (`\b \f \n \r \t`, others as
///   `\u00XX` in lowercase hex); `/` and all non-ASCII characters are written as they are, in UTF-8;
/// - doubles are written like `JSON.stringify`: integral values within ±2^53 without a fraction (`1.0`
///   becomes `1`, `-0.0` becomes `0`), others in Swift's shortest round-trip form (`0.1`, `1e-07`,
///   `1e+300`); **non-finite doubles are written as `null`**, so writing never fails.
///
/// ```swift
/// var writer = JSONWriter()
/// writer.beginObject()
/// writer.key("data")
/// writer.beginObject()
/// writer.key("title")
/// writer.string("Alien")
/// writer.key("year")
/// writer.int(1979)
/// writer.endObject()
/// writer.endObject()
/// writer.text  // {"data":{"title":"Alien","year":1979}}
/// ```
public struct JSONWriter: Sendable {
    /// The output buffer.
    @usableFromInline
    var buffer: [UInt8]

    /// The bytes written so far.
    public var bytes: [UInt8] { buffer }

    /// Whether the next value or key follows a sibling and needs a comma first.
    @usableFromInline
    var needsComma = false

    /// Creates a writer, reserving `capacity` bytes up front.
    public init(capacity: Int = 1024) {
        buffer = []
        buffer.reserveCapacity(capacity)
    }

    /// The bytes written so far, as text.
    public var text: String {
        String(decoding: buffer, as: UTF8.self)
    }

    /// Forgets everything written, keeping the buffer's capacity for the next document.
    public mutating func reset() {
        buffer.removeAll(keepingCapacity: true)
        needsComma = false
    }

    @inline(__always)
    @usableFromInline
    mutating func separate() {
        if needsComma {
            buffer.append(UInt8(ascii: ","))
        }
    }

    // MARK: Structure

    /// Opens an object: `{`.
    @inlinable
    public mutating func beginObject() {
        separate()
        buffer.append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Closes the current object: `}`.
    @inlinable
    public mutating func endObject() {
        buffer.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Opens an array: `[`.
    @inlinable
    public mutating func beginArray() {
        separate()
        buffer.append(UInt8(ascii: "["))
        needsComma = false
    }

    /// Closes the current array: `]`.
    @inlinable
    public mutating func endArray() {
        buffer.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes an object member's key and the colon after it; the member's value comes next.
    public mutating func key(_ key: String) {
        separate()
        appendQuoted(key)
        buffer.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes an object member's key given as UTF-8 bytes, escaping as needed.
    public mutating func key(utf8 key: UnsafeRawBufferPointer) {
        separate()
        appendQuoted(key)
        buffer.append(UInt8(ascii: ":"))
        needsComma = false
    }

    // MARK: Scalars

    /// Writes a string value.
    public mutating func string(_ value: String) {
        separate()
        appendQuoted(value)
        needsComma = true
    }

    /// Writes a string value given as UTF-8 bytes (for example a text column read without copying).
    ///
    /// The bytes are escaped like any string; they are expected to be valid UTF-8 and are not checked.
    public mutating func string(utf8 value: UnsafeRawBufferPointer) {
        separate()
        appendQuoted(value)
        needsComma = true
    }

    /// Writes an integer value.
    public mutating func int(_ value: Int) {
        int64(Int64(value))
    }

    /// Writes a 64-bit integer value as a JSON number.
    public mutating func int64(_ value: Int64) {
        separate()
        Self.appendInteger(value, to: &buffer)
        needsComma = true
    }

    /// Writes a double value: integral values within ±2^53 without a fraction, others in shortest round-trip
    /// form, non-finite values as `null`.
    public mutating func double(_ value: Double) {
        separate()
        Self.appendDouble(value, to: &buffer)
        needsComma = true
    }

    /// Writes a number value exactly as it is held (see ``JSONNumber/text``).
    public mutating func number(_ value: JSONNumber) {
        separate()
        switch value.storage {
        case .int(let integer):
            Self.appendInteger(integer, to: &buffer)
        case .double(let double):
            Self.appendDouble(double, to: &buffer)
        case .literal(let text):
            var text = text
            text.withUTF8 { buffer.append(contentsOf: $0) }
        }
        needsComma = true
    }

    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) {
        separate()
        if value {
            buffer.append(contentsOf: [0x74, 0x72, 0x75, 0x65])
        } else {
            buffer.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])
        }
        needsComma = true
    }

    /// Writes `null`.
    public mutating func null() {
        separate()
        buffer.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
        needsComma = true
    }

    /// Writes one complete, already encoded JSON value as it is (for example JSON built by SQLite).
    ///
    /// The bytes are not checked; they must be one valid JSON value.
    public mutating func raw(_ encoded: UnsafeRawBufferPointer) {
        separate()
        buffer.append(contentsOf: encoded)
        needsComma = true
    }

    /// Writes one complete, already encoded JSON value as it is.
    ///
    /// The bytes are not checked; they must be one valid JSON value.
    public mutating func raw(_ encoded: [UInt8]) {
        separate()
        buffer.append(contentsOf: encoded)
        needsComma = true
    }

    // MARK: Values

    /// Writes a whole value.
    ///
    /// With `canonical`, the output is a stable text for equal values, fit for cache keys: object keys sorted
    /// by their UTF-8 bytes (Unicode scalar order), and numbers normalized so that equal numbers print the same
    /// (integers in `Int64` range as plain integers, so `1.0` and `1e0` print `1`; other values in shortest
    /// round-trip form when that is exact, otherwise as their literal text).
    public mutating func write(_ value: JSONValue, canonical: Bool = false) {
        switch value {
        case .null:
            null()
        case .bool(let flag):
            bool(flag)
        case .number(let number):
            if canonical {
                separate()
                var text = number.canonicalText
                text.withUTF8 { buffer.append(contentsOf: $0) }
                needsComma = true
            } else {
                self.number(number)
            }
        case .string(let text):
            string(text)
        case .array(let elements):
            beginArray()
            for element in elements {
                write(element, canonical: canonical)
            }
            endArray()
        case .object(let object):
            beginObject()
            if canonical {
                for entry in object.sortedByKey {
                    key(entry.key)
                    write(entry.value, canonical: true)
                }
            } else {
                for entry in object.entries {
                    key(entry.key)
                    write(entry.value)
                }
            }
            endObject()
        }
    }

    /// Serializes a value to compact JSON bytes.
    ///
    /// ```swift
    /// JSONWriter.serialize(["b": 1, "a": [true, nil]])                   // {"b":1,"a":[true,null]}
    /// JSONWriter.serialize(["b": 1, "a": [true, nil]], canonical: true)  // {"a":[true,null],"b":1}
    /// ```
    public static func serialize(_ value: JSONValue, canonical: Bool = false) -> [UInt8] {
        var writer = JSONWriter(capacity: 256)
        writer.write(value, canonical: canonical)
        return writer.buffer
    }

    /// Serializes a value to compact JSON text.
    public static func serializeToString(_ value: JSONValue, canonical: Bool = false) -> String {
        String(decoding: serialize(value, canonical: canonical), as: UTF8.self)
    }

    // MARK: Encoding

    private mutating func appendQuoted(_ text: String) {
        var text = text
        text.withUTF8 { appendQuoted(UnsafeRawBufferPointer($0)) }
    }

    private mutating func appendQuoted(_ utf8: UnsafeRawBufferPointer) {
        buffer.append(UInt8(ascii: "\""))
        var runBegin = 0
        var index = 0
        let count = utf8.count
        while index < count {
            // Eight bytes at a time while none needs an escape (most text).
            if index + 8 <= count, let base = utf8.baseAddress,
                !Self.needsEscape(base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            {
                index += 8
                continue
            }
            let byte = utf8[index]
            if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            if index > runBegin {
                buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: utf8[runBegin..<index]))
            }
            appendEscape(byte)
            index += 1
            runBegin = index
        }
        if index > runBegin {
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: utf8[runBegin..<index]))
        }
        buffer.append(UInt8(ascii: "\""))
    }

    /// Whether a byte of `word` is a control character, `"` or `\\`. Each test is exact for "any byte": a lane can
    /// be flagged wrongly only above one flagged rightly.
    @inline(__always)
    private static func needsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let control = (word &- ones &* 0x20) & ~word
        let quotes = (quote &- ones) & ~quote
        let backslashes = (backslash &- ones) & ~backslash
        return (control | quotes | backslashes) & high != 0
    }

    private mutating func appendEscape(_ byte: UInt8) {
        buffer.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): buffer.append(byte)
        case 0x08: buffer.append(UInt8(ascii: "b"))
        case 0x0C: buffer.append(UInt8(ascii: "f"))
        case 0x0A: buffer.append(UInt8(ascii: "n"))
        case 0x0D: buffer.append(UInt8(ascii: "r"))
        case 0x09: buffer.append(UInt8(ascii: "t"))
        default:
            let hexDigits: StaticString = "0123456789abcdef"
            buffer.append(contentsOf: [0x75, 0x30, 0x30])  // u00
            buffer.append(hexDigits.utf8Start[Int(byte >> 4)])
            buffer.append(hexDigits.utf8Start[Int(byte & 0x0F)])
        }
    }

    /// Appends the decimal digits of `value`.
    static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
        if value >= 0 && value < 10 {
            bytes.append(UInt8(truncatingIfNeeded: value) + 0x30)
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var magnitude = value.magnitude
            var index = buffer.count
            repeat {
                index -= 1
                buffer[index] = UInt8(truncatingIfNeeded: magnitude % 10) + 0x30
                magnitude /= 10
            } while magnitude != 0
            if value < 0 {
                index -= 1
                buffer[index] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[index...]))
        }
    }

    /// Appends a double the way ``double(_:)`` documents.
    static func appendDouble(_ value: Double, to bytes: inout [UInt8]) {
        guard value.isFinite else {
            bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
            return
        }
        if value.magnitude <= 9_007_199_254_740_992 && value.rounded(.towardZero) == value {
            appendInteger(Int64(value), to: &bytes)
            return
        }
        var text = value.description
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }
}
