import DataConnectTime

/// A CEL `google.protobuf.Timestamp`: seconds and nanoseconds since 1970-01-01T00:00:00Z, in years 1 to 9999.
struct CELTimestamp: Hashable, Comparable, Sendable {
    /// Whole seconds since the Unix epoch (floor).
    var seconds: Int64
    /// Nanoseconds within the second, 0 to 999,999,999.
    var nanos: Int32

    /// 0001-01-01T00:00:00Z.
    static let minSeconds: Int64 = -62_135_596_800
    /// 9999-12-31T23:59:59Z.
    static let maxSeconds: Int64 = 253_402_300_799

    /// Creates a timestamp, or `nil` when it falls outside years 1 to 9999.
    init?(seconds: Int64, nanos: Int32 = 0) {
        guard (Self.minSeconds...Self.maxSeconds).contains(seconds), (0..<1_000_000_000).contains(nanos) else {
            return nil
        }
        self.seconds = seconds
        self.nanos = nanos
    }

    /// Parses RFC 3339 by the kit's one rule (`RFC3339Timestamp`: 1 to 9 fraction digits after a `.`, `t` and `z`
    /// accepted, no leap second); `nil` when the text is not a timestamp or falls outside years 1 to 9999.
    init?(rfc3339 text: String) {
        guard let timestamp = try? RFC3339Timestamp(parsing: text) else { return nil }
        self.init(seconds: timestamp.seconds, nanos: timestamp.nanoseconds)
    }

    /// The timestamp in UTC as RFC 3339, with 0, 3, 6 or 9 fraction digits: `2024-05-01T12:00:00.250Z`.
    var rfc3339: String {
        RFC3339Timestamp(seconds: seconds, nanoseconds: nanos).formatted()
    }

    /// The timestamp moved by `duration`, or `nil` when the result falls outside years 1 to 9999.
    func adding(_ duration: CELDuration) -> CELTimestamp? {
        let (wholeSeconds, remainder) = duration.nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        var seconds = seconds.addingReportingOverflow(wholeSeconds)
        guard !seconds.overflow else { return nil }
        var nanos = Int64(self.nanos) + remainder
        if nanos < 0 {
            nanos += 1_000_000_000
            seconds.partialValue -= 1
        } else if nanos >= 1_000_000_000 {
            nanos -= 1_000_000_000
            seconds.partialValue += 1
        }
        return CELTimestamp(seconds: seconds.partialValue, nanos: Int32(nanos))
    }

    /// The duration from `other` to `self`, or `nil` when it does not fit.
    func difference(from other: CELTimestamp) -> CELDuration? {
        let seconds = self.seconds.subtractingReportingOverflow(other.seconds)
        guard !seconds.overflow else { return nil }
        let scaled = seconds.partialValue.multipliedReportingOverflow(by: 1_000_000_000)
        guard !scaled.overflow else { return nil }
        let total = scaled.partialValue.addingReportingOverflow(Int64(nanos) - Int64(other.nanos))
        guard !total.overflow else { return nil }
        return CELDuration(nanoseconds: total.partialValue)
    }

    static func < (lhs: CELTimestamp, rhs: CELTimestamp) -> Bool {
        (lhs.seconds, lhs.nanos) < (rhs.seconds, rhs.nanos)
    }
}

/// A CEL `google.protobuf.Duration`, kept as nanoseconds (about ±292 years).
struct CELDuration: Hashable, Comparable, Sendable {
    /// The signed length in nanoseconds.
    var nanoseconds: Int64

    /// Parses a Go-style duration: an optional sign, then number-unit pairs such as `1h30m`, `1.5s`, `-250ms`.
    ///
    /// Units are `h`, `m`, `s`, `ms`, `us` (or `µs`) and `ns`; `0` alone is also accepted.
    init?(parsing text: String) {
        var scalars = Array(text.unicodeScalars)
        var negative = false
        if let sign = scalars.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            scalars.removeFirst()
        }
        if scalars == ["0"] {
            nanoseconds = 0
            return
        }
        guard !scalars.isEmpty else { return nil }
        var total: Int64 = 0
        var index = 0
        func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar >= "0" && scalar <= "9" }
        while index < scalars.count {
            var whole: Int64 = 0
            var fraction: Int64 = 0
            var fractionScale: Int64 = 1
            var sawDigit = false
            while index < scalars.count, isDigit(scalars[index]) {
                let digit = Int64(scalars[index].value - 48)
                let next = whole.multipliedReportingOverflow(by: 10)
                guard !next.overflow else { return nil }
                whole = next.partialValue + digit
                sawDigit = true
                index += 1
            }
            if index < scalars.count, scalars[index] == "." {
                index += 1
                while index < scalars.count, isDigit(scalars[index]) {
                    if fractionScale < 1_000_000_000_000_000 {
                        fraction = fraction * 10 + Int64(scalars[index].value - 48)
                        fractionScale *= 10
                    }
                    sawDigit = true
                    index += 1
                }
            }
            guard sawDigit else { return nil }
            var unit = ""
            while index < scalars.count, !isDigit(scalars[index]), scalars[index] != "." {
                unit.unicodeScalars.append(scalars[index])
                index += 1
            }
            let unitNanoseconds: Int64
            switch unit {
            case "h": unitNanoseconds = 3_600_000_000_000
            case "m": unitNanoseconds = 60_000_000_000
            case "s": unitNanoseconds = 1_000_000_000
            case "ms": unitNanoseconds = 1_000_000
            case "us", "µs", "μs": unitNanoseconds = 1000
            case "ns": unitNanoseconds = 1
            default: return nil
            }
            let wholePart = whole.multipliedReportingOverflow(by: unitNanoseconds)
            guard !wholePart.overflow else { return nil }
            let fractionPart = Int64((Double(fraction) / Double(fractionScale) * Double(unitNanoseconds)).rounded())
            let sum = total.addingReportingOverflow(wholePart.partialValue)
            guard !sum.overflow else { return nil }
            let sum2 = sum.partialValue.addingReportingOverflow(fractionPart)
            guard !sum2.overflow else { return nil }
            total = sum2.partialValue
        }
        nanoseconds = negative ? -total : total
    }

    init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// The duration as CEL prints it: seconds with up to nine fraction digits, `5400s`, `1.5s`, `-0.001s`.
    var text: String {
        let magnitude = nanoseconds.magnitude
        let seconds = magnitude / 1_000_000_000
        let nanos = magnitude % 1_000_000_000
        var text = (nanoseconds < 0 ? "-" : "") + String(seconds)
        if nanos != 0 {
            var fraction = String(nanos)
            fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text + "s"
    }

    static func < (lhs: CELDuration, rhs: CELDuration) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }
}
