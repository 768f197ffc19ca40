/// A `google.protobuf.Duration`: whole seconds and nanoseconds, both of the same sign.
///
/// Its JSON form, the one ``DataConnectWire/DataConnectProperties/maxAge`` holds, is seconds with an optional
/// fraction of up to nine digits and an `s`: `30s`, `1.5s`, `-0.000000001s`. Writing uses no fraction, or three,
/// six or nine digits, as protobuf's JSON printer does.
///
/// ```swift
/// let duration = ProtobufDuration(text: "1.5s")  // seconds 1, nanos 500_000_000
/// duration?.text                                 // "1.500s"
/// ```
public struct ProtobufDuration: Hashable, Sendable {
    /// Whole seconds (`seconds = 1`).
    public var seconds: Int64
    /// Nanoseconds, -999,999,999 to 999,999,999, of the same sign as `seconds` (`nanos = 2`).
    public var nanos: Int32

    /// The largest magnitude of `seconds` protobuf allows: 10,000 years.
    public static let maxSeconds: Int64 = 315_576_000_000

    /// Creates a duration.
    public init(seconds: Int64, nanos: Int32 = 0) {
        self.seconds = seconds
        self.nanos = nanos
    }

    /// Reads the JSON form, `-?[0-9]+(\.[0-9]{1,9})?s`, or returns `nil` when `text` is not one or is out of range.
    public init?(text: String) {
        var utf8 = Substring(text).utf8[...]
        guard utf8.last == UInt8(ascii: "s") else { return nil }
        utf8 = utf8.dropLast()
        let negative = utf8.first == UInt8(ascii: "-")
        if negative { utf8 = utf8.dropFirst() }
        var seconds: Int64 = 0
        var digits = 0
        while let byte = utf8.first, byte != UInt8(ascii: ".") {
            guard byte &- 0x30 < 10, digits < 12 else { return nil }
            seconds = seconds * 10 + Int64(byte - 0x30)
            digits += 1
            utf8 = utf8.dropFirst()
        }
        guard digits > 0, seconds <= Self.maxSeconds else { return nil }
        var nanos: Int32 = 0
        if utf8.first == UInt8(ascii: ".") {
            utf8 = utf8.dropFirst()
            guard !utf8.isEmpty, utf8.count <= 9 else { return nil }
            var scale: Int32 = 100_000_000
            for byte in utf8 {
                guard byte &- 0x30 < 10 else { return nil }
                nanos += Int32(byte - 0x30) * scale
                scale /= 10
            }
        }
        self.init(seconds: negative ? -seconds : seconds, nanos: negative ? -nanos : nanos)
    }

    /// The JSON form: `30s`, `1.500s`, `-0.000000001s`.
    public var text: String {
        let negative = seconds < 0 || nanos < 0
        var result = negative ? "-" : ""
        result += String(seconds.magnitude)
        let fraction = nanos.magnitude
        if fraction != 0 {
            var digits = String(fraction)
            digits = String(repeating: "0", count: 9 - digits.count) + digits
            if fraction % 1_000_000 == 0 {
                digits = String(digits.prefix(3))
            } else if fraction % 1_000 == 0 {
                digits = String(digits.prefix(6))
            }
            result += "." + digits
        }
        return result + "s"
    }

    /// Writes the fields, leaving out zeros.
    func writeFields(to writer: inout ProtobufWriter) {
        if seconds != 0 { writer.writeInt64(1, seconds) }
        if nanos != 0 { writer.writeInt32(2, nanos) }
    }

    /// Reads the fields over the ones already read.
    mutating func merge(from reader: inout ProtobufReader) throws(ProtobufError) {
        while let (field, wireType) = try reader.nextField() {
            switch (field, wireType) {
            case (1, .varint): seconds = try reader.readInt64()
            case (2, .varint): nanos = try reader.readInt32()
            default: try reader.skipField(wireType)
            }
        }
    }
}
