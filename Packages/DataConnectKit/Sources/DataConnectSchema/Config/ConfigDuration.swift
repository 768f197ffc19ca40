/// A duration written in a configuration file, such as `clientCache.maxAge: 1h30m`.
///
/// The syntax is Go's `time.ParseDuration`, which the Firebase tools use: one or more decimal
/// numbers, each with a unit (`ns`, `us`/`µs`, `ms`, `s`, `m`, `h`), e.g. `"30s"`, `"1.5h"`,
/// `"1h30m"`, `"250ms"`. A bare `"0"` is allowed. Negative durations are rejected.
///
/// ```swift
/// let maxAge = try ConfigDuration.parse("1h30m").get()
/// maxAge.seconds      // 5400
/// maxAge.text         // "1h30m"
/// ```
public struct ConfigDuration: Hashable, Sendable, CustomStringConvertible {
    /// The text as written in the file.
    public var text: String
    /// The length in nanoseconds.
    public var nanoseconds: Int64

    /// Creates a duration from its text and length.
    public init(text: String, nanoseconds: Int64) {
        self.text = text
        self.nanoseconds = nanoseconds
    }

    /// A zero duration written `"0"`.
    public static let zero = ConfigDuration(text: "0", nanoseconds: 0)

    /// The length in seconds.
    public var seconds: Double { Double(nanoseconds) / 1_000_000_000 }

    /// The length as a Swift `Duration`.
    public var duration: Duration { .nanoseconds(nanoseconds) }

    /// The text as written.
    public var description: String { text }

    /// Parses a duration such as `"30s"` or `"1h30m"`.
    ///
    /// - Parameter text: The text from the file (surrounding spaces are ignored).
    /// - Returns: The duration, or why the text is not one.
    public static func parse(_ text: String) -> Result<ConfigDuration, ConfigValueError> {
        let trimmed = text.trimmedForConfig
        var scalars = Substring(trimmed).unicodeScalars[...]
        if scalars.first == "-" {
            return .failure(ConfigValueError(message: "a duration must not be negative"))
        }
        if scalars.first == "+" { scalars = scalars.dropFirst() }
        if String(scalars) == "0" { return .success(ConfigDuration(text: text, nanoseconds: 0)) }
        if scalars.isEmpty { return .failure(ConfigValueError(message: "expected a number with a unit, e.g. \"30s\"")) }

        var total: Int64 = 0
        var isFirst = true
        while !scalars.isEmpty {
            // The number: digits, optionally a fraction.
            let integerDigits = scalars.prefix { $0.properties.numericType == .decimal && $0.isASCII }
            scalars = scalars.dropFirst(integerDigits.count)
            var fractionDigits = Substring.UnicodeScalarView()[...]
            if scalars.first == "." {
                scalars = scalars.dropFirst()
                fractionDigits = scalars.prefix { $0.properties.numericType == .decimal && $0.isASCII }
                scalars = scalars.dropFirst(fractionDigits.count)
            }
            if integerDigits.isEmpty && fractionDigits.isEmpty {
                if !isFirst {
                    return .failure(
                        ConfigValueError(
                            message: "unexpected \"\(String(scalars))\" (write the parts together, e.g. \"1h30m\")"))
                }
                return .failure(ConfigValueError(message: "expected a number with a unit, e.g. \"30s\" or \"1h30m\""))
            }
            // The unit: the longest match first.
            guard let (unit, length) = unit(at: scalars) else {
                if scalars.isEmpty {
                    return .failure(ConfigValueError(message: "missing unit (use ms, s, m or h), e.g. \"30s\""))
                }
                return .failure(ConfigValueError(message: "unknown unit \"\(String(scalars))\" (use ms, s, m or h)"))
            }
            scalars = scalars.dropFirst(length)
            guard let part = nanoseconds(integer: integerDigits, fraction: fractionDigits, unit: unit),
                case (let sum, false) = total.addingReportingOverflow(part)
            else {
                return .failure(ConfigValueError(message: "the duration is too long"))
            }
            total = sum
            isFirst = false
        }
        return .success(ConfigDuration(text: text, nanoseconds: total))
    }

    /// Units and their length in nanoseconds; two-letter units come first so `ms` is not read as `m`.
    private static let units: [(String, Int64)] = [
        ("ns", 1), ("us", 1_000), ("µs", 1_000), ("μs", 1_000), ("ms", 1_000_000),
        ("s", 1_000_000_000), ("m", 60_000_000_000), ("h", 3_600_000_000_000),
    ]

    private static func unit(at scalars: Substring.UnicodeScalarView.SubSequence) -> (Int64, Int)? {
        for (name, length) in units {
            let nameScalars = Array(name.unicodeScalars)
            if scalars.starts(with: nameScalars) {
                return (length, nameScalars.count)
            }
        }
        return nil
    }

    private static func nanoseconds(
        integer: Substring.UnicodeScalarView.SubSequence, fraction: Substring.UnicodeScalarView.SubSequence,
        unit: Int64
    ) -> Int64? {
        var whole: Int64 = 0
        for scalar in integer {
            let digit = Int64(scalar.value - 48)
            let (times10, overflow1) = whole.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = times10.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return nil }
            whole = next
        }
        let (scaled, overflow) = whole.multipliedReportingOverflow(by: unit)
        if overflow { return nil }
        // The fraction: at most 18 digits matter for a nanosecond result.
        var numerator: Int64 = 0
        var denominator: Int64 = 1
        for scalar in fraction.prefix(18) {
            numerator = numerator * 10 + Int64(scalar.value - 48)
            denominator *= 10
        }
        let fractional = Int64((Double(numerator) / Double(denominator) * Double(unit)).rounded())
        let (sum, overflowSum) = scaled.addingReportingOverflow(fractional)
        return overflowSum ? nil : sum
    }
}

/// A byte size written in a configuration file, such as `clientCache.maxSize: 100MB`.
///
/// A number (a fraction is allowed) followed by an optional unit, case-insensitive: `B`, `KB`, `MB`,
/// `GB`, `TB` (and the `KiB` forms, or a bare `K`, `M`, `G`, `T`). Units are binary:
/// `1KB` is 1024 bytes, the way cache sizes are usually meant. A bare number is bytes.
///
/// ```swift
/// try ConfigByteSize.parse("100MB").get().bytes   // 104_857_600
/// ```
public struct ConfigByteSize: Hashable, Sendable, CustomStringConvertible {
    /// The text as written in the file.
    public var text: String
    /// The size in bytes.
    public var bytes: Int64

    /// Creates a size from its text and value.
    public init(text: String, bytes: Int64) {
        self.text = text
        self.bytes = bytes
    }

    /// The text as written.
    public var description: String { text }

    /// Parses a size such as `"100MB"`, `"512KB"` or `"1GB"`.
    ///
    /// - Parameter text: The text from the file (surrounding spaces are ignored).
    /// - Returns: The size, or why the text is not one.
    public static func parse(_ text: String) -> Result<ConfigByteSize, ConfigValueError> {
        let trimmed = text.trimmedForConfig
        if trimmed.hasPrefix("-") {
            return .failure(ConfigValueError(message: "a size must not be negative"))
        }
        let scalars = trimmed.unicodeScalars
        let numberEnd =
            scalars.firstIndex { !(($0.isASCII && $0.properties.numericType == .decimal) || $0 == ".") }
            ?? scalars.endIndex
        let number = String(scalars[..<numberEnd])
        let unit = String(scalars[numberEnd...]).trimmedForConfig.uppercased()
        guard !number.isEmpty, number.filter({ $0 == "." }).count <= 1, number != ".", let value = Double(number)
        else {
            return .failure(ConfigValueError(message: "expected a number with a unit, e.g. \"100MB\""))
        }
        guard let multiplier = multipliers[unit] else {
            return .failure(
                ConfigValueError(
                    message:
                        "unknown unit \"\(String(scalars[numberEnd...]).trimmedForConfig)\" (use B, KB, MB, GB or TB)"))
        }
        let bytes = (value * Double(multiplier)).rounded(.down)
        guard bytes < 9.2e18 else {
            return .failure(ConfigValueError(message: "the size is too large"))
        }
        return .success(ConfigByteSize(text: text, bytes: Int64(bytes)))
    }

    private static let multipliers: [String: Int64] = [
        "": 1, "B": 1,
        "K": 1 << 10, "KB": 1 << 10, "KIB": 1 << 10,
        "M": 1 << 20, "MB": 1 << 20, "MIB": 1 << 20,
        "G": 1 << 30, "GB": 1 << 30, "GIB": 1 << 30,
        "T": 1 << 40, "TB": 1 << 40, "TIB": 1 << 40,
    ]
}

/// Why a configuration value's text was rejected, e.g. `missing unit (use ms, s, m or h)`.
public struct ConfigValueError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The reason, starting lowercase, without a trailing period.
    public var message: String

    /// Creates an error with a reason.
    public init(message: String) {
        self.message = message
    }

    /// The reason.
    public var description: String { message }
}
