/// A JSON number that keeps its exact value.
///
/// JSON numbers have arbitrary precision, while `Double` has 53 bits of mantissa and `Int64` 64 bits of range.
/// `JSONNumber` therefore stores integers that fit `Int64` as integers, doubles created in code as doubles, and
/// everything else (fractions, exponents, huge integers, `-0`) as the literal text it was read from, so a value
/// such as `9007199254740993` or `1e400` survives a read and a write unchanged.
///
/// Two numbers are equal when they denote the same decimal value: `1`, `1.0`, `10e-1` and `0.1e1` are equal,
/// `-0` equals `0`. A `Double` counts as the decimal value of its shortest round-trip form, so
/// `JSONNumber(0.1)` equals the literal `0.1`. Non-finite doubles (which JSON cannot express) equal only
/// themselves, and are written as `null` by ``JSONWriter``.
///
/// ```swift
/// let big = try JSONValue(parsing: "9007199254740993")
/// big.numberValue?.int64Value  // 9007199254740993, exact
/// big.numberValue?.doubleValue // 9007199254740992.0, rounded
/// ```
public struct JSONNumber: Sendable {
    @usableFromInline
    enum Storage: Sendable {
        /// An integer in `Int64` range.
        case int(Int64)
        /// A double built in code (never read from text).
        case double(Double)
        /// Validated JSON number text that is not a plain `Int64` integer.
        case literal(String)
    }

    @usableFromInline
    var storage: Storage

    @usableFromInline
    init(storage: Storage) {
        self.storage = storage
    }

    /// Creates a number from an integer.
    @inlinable
    public init(_ value: Int) {
        storage = .int(Int64(value))
    }

    /// Creates a number from a 64-bit integer.
    @inlinable
    public init(_ value: Int64) {
        storage = .int(value)
    }

    /// Creates a number from a double.
    ///
    /// Non-finite values are kept as they are; ``JSONWriter`` writes them as `null`, like `JSON.stringify`.
    @inlinable
    public init(_ value: Double) {
        storage = .double(value)
    }

    /// Creates a number from JSON number text, or returns `nil` when the text is not a valid JSON number.
    ///
    /// The grammar is RFC 8259's: an optional `-`, no leading zeros, no `+`, digits on both sides of a `.`,
    /// and an optional exponent.
    ///
    /// ```swift
    /// JSONNumber(literal: "1.5e3")  // 1500
    /// JSONNumber(literal: "01")     // nil
    /// ```
    public init?(literal: String) {
        var text = literal
        let valid = text.withUTF8 { JSONNumberGrammar.isValid($0) }
        guard valid else { return nil }
        self.init(validatedLiteral: text)
    }

    /// Creates a number from text already known to be a valid JSON number.
    init(validatedLiteral text: String) {
        if let value = JSONNumberGrammar.plainInt64(text) {
            storage = .int(value)
        } else {
            storage = .literal(text)
        }
    }

    /// The number as JSON text.
    ///
    /// Integers print as integers; a literal prints exactly as it was read; a double prints like
    /// ``JSONWriter/double(_:)`` writes it (integral values within ±2^53 without a fraction, otherwise the
    /// shortest round-trip form). Non-finite doubles, which JSON cannot express, print as `null`.
    public var text: String {
        switch storage {
        case .int(let value):
            return String(value)
        case .literal(let text):
            return text
        case .double(let value):
            var bytes: [UInt8] = []
            JSONWriter.appendDouble(value, to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The value as an `Int64`, when the number is an integer in `Int64` range.
    ///
    /// Integral values written with a fraction or an exponent count: `1.0` and `1e2` give `1` and `100`.
    /// Fractions and out-of-range values give `nil`.
    public var int64Value: Int64? {
        switch storage {
        case .int(let value):
            return value
        case .double(let value):
            return Int64(exactly: value)
        case .literal:
            return decimalForm.int64Value
        }
    }

    /// The value as an `Int`, when the number is an integer in `Int` range.
    public var intValue: Int? {
        int64Value.flatMap { Int(exactly: $0) }
    }

    /// The value as the nearest `Double`.
    ///
    /// Large magnitudes round to infinity (`1e400` gives `+infinity`) and tiny ones to zero; `-0` gives `-0.0`.
    public var doubleValue: Double {
        switch storage {
        case .int(let value):
            return Double(value)
        case .double(let value):
            return value
        case .literal(let text):
            return Double(text) ?? .nan
        }
    }

    /// Whether the number is mathematically an integer, whatever its size or spelling.
    ///
    /// `1`, `-0`, `1.0`, `1e2` and `1e400` are integers; `1.5` and `1e-2` are not. Non-finite doubles are not.
    public var isInteger: Bool {
        switch storage {
        case .int:
            return true
        case .double(let value):
            return value.isFinite && value.rounded(.towardZero) == value
        case .literal:
            return decimalForm.isInteger
        }
    }

    /// The exact decimal value, used for equality, hashing and canonical output.
    var decimalForm: DecimalForm {
        switch storage {
        case .int(let value):
            return DecimalForm(value)
        case .double(let value):
            guard value.isFinite else { return DecimalForm(nonFinite: value) }
            return DecimalForm(text: value.description)
        case .literal(let text):
            return DecimalForm(text: text)
        }
    }

    /// The text written in canonical form: an integer when the value is an integer in `Int64` range, otherwise
    /// the shortest round-trip double text when that denotes exactly the same value, otherwise the exact value
    /// as significant digits and an exponent (`12345678901234567890123456789e1`).
    var canonicalText: String {
        switch storage {
        case .int(let value):
            return String(value)
        case .double:
            if let integer = decimalForm.int64Value {
                return String(integer)
            }
            return text
        case .literal(let literal):
            let form = decimalForm
            if let integer = form.int64Value {
                return String(integer)
            }
            let double = Double(literal) ?? .nan
            if double.isFinite, DecimalForm(text: double.description) == form {
                return JSONNumber(double).text
            }
            return form.text
        }
    }
}

extension JSONNumber: Hashable {
    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        if case .int(let left) = lhs.storage, case .int(let right) = rhs.storage {
            return left == right
        }
        return lhs.decimalForm == rhs.decimalForm
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(decimalForm)
    }
}

extension JSONNumber: CustomStringConvertible {
    /// The number as JSON text; see ``text``.
    public var description: String { text }
}

extension JSONNumber: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) {
        self.init(value)
    }
}

extension JSONNumber: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) {
        self.init(value)
    }
}

/// An exact decimal value: `(-1)^negative × digits × 10^exponent`, normalized.
///
/// `digits` holds ASCII digits without leading or trailing zeros; zero has no digits and is never negative.
struct DecimalForm: Hashable, Sendable {
    var negative: Bool
    var digits: [UInt8]
    var exponent: Int
    /// `nan`, `inf` or `-inf` for non-finite doubles; empty otherwise.
    var special: String = ""

    init(_ value: Int64) {
        negative = value < 0
        var magnitude = value.magnitude
        var reversed: [UInt8] = []
        exponent = 0
        while magnitude != 0 {
            let digit = UInt8(magnitude % 10)
            magnitude /= 10
            if reversed.isEmpty && digit == 0 {
                exponent += 1
            } else {
                reversed.append(digit + 0x30)
            }
        }
        digits = reversed.reversed()
        if digits.isEmpty {
            negative = false
            exponent = 0
        }
    }

    init(nonFinite value: Double) {
        negative = false
        digits = []
        exponent = 0
        special = value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf")
    }

    /// Parses number text: JSON grammar, or Swift's `Double.description` (which may write `e+20`).
    init(text: String) {
        var negative = false
        var digits: [UInt8] = []
        var fractionDigits = 0
        var exponentValue = 0
        var exponentNegative = false
        var state = 0  // 0: integer part, 1: fraction, 2: exponent
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "-"):
                if state == 2 { exponentNegative = true } else { negative = true }
            case UInt8(ascii: "+"):
                break
            case UInt8(ascii: "."):
                state = 1
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                state = 2
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if state == 2 {
                    // Saturate far beyond any meaningful exponent instead of overflowing.
                    if exponentValue < 1 << 40 {
                        exponentValue = exponentValue * 10 + Int(byte - 0x30)
                    }
                } else {
                    if !(digits.isEmpty && byte == UInt8(ascii: "0")) {
                        digits.append(byte)
                    }
                    if state == 1 { fractionDigits += 1 }
                }
            default:
                break
            }
        }
        var exponent = (exponentNegative ? -exponentValue : exponentValue) - fractionDigits
        while let last = digits.last, last == UInt8(ascii: "0") {
            digits.removeLast()
            exponent += 1
        }
        if digits.isEmpty {
            negative = false
            exponent = 0
        }
        self.negative = negative
        self.digits = digits
        self.exponent = exponent
    }

    var isInteger: Bool {
        special.isEmpty && exponent >= 0
    }

    /// The value as JSON number text: `-`, the significant digits, and `e<exponent>` when not zero.
    var text: String {
        guard special.isEmpty else { return special }
        guard !digits.isEmpty else { return "0" }
        let mantissa = (negative ? "-" : "") + String(decoding: digits, as: UTF8.self)
        return exponent == 0 ? mantissa : "\(mantissa)e\(exponent)"
    }

    var int64Value: Int64? {
        guard special.isEmpty else { return nil }
        if digits.isEmpty { return 0 }
        guard exponent >= 0, digits.count + exponent <= 19 else { return nil }
        // Accumulate negatively so that Int64.min is reachable.
        var value: Int64 = 0
        for index in 0..<(digits.count + exponent) {
            let digit = index < digits.count ? Int64(digits[index] - 0x30) : 0
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = times10.subtractingReportingOverflow(digit)
            if overflow1 || overflow2 { return nil }
            value = next
        }
        if negative { return value }
        return value == .min ? nil : -value
    }
}

/// The RFC 8259 number grammar, shared by the reader and ``JSONNumber/init(literal:)``.
enum JSONNumberGrammar {
    /// Whether `bytes` is exactly one JSON number.
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let end = scan(bytes, from: 0)
        return end == bytes.count && end > 0
    }

    /// Returns the end index of the longest valid number starting at `start`, or -1 when none starts there.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        let count = bytes.count
        func isDigit(_ i: Int) -> Bool { i < count && bytes[i] &- 0x30 < 10 }
        if index < count && bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard isDigit(index) else { return -1 }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) { return -1 }
        } else {
            while isDigit(index) { index += 1 }
        }
        if index < count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard isDigit(index) else { return -1 }
            while isDigit(index) { index += 1 }
        }
        if index < count && (bytes[index] | 0x20) == UInt8(ascii: "e") {
            index += 1
            if index < count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) { index += 1 }
            guard isDigit(index) else { return -1 }
            while isDigit(index) { index += 1 }
        }
        return index
    }

    /// The value of a plain integer literal (no fraction, no exponent, not `-0`) in `Int64` range.
    static func plainInt64(_ text: String) -> Int64? {
        if text == "-0" { return nil }
        for byte in text.utf8 where byte == UInt8(ascii: ".") || byte | 0x20 == UInt8(ascii: "e") {
            return nil
        }
        return Int64(text)
    }
}
