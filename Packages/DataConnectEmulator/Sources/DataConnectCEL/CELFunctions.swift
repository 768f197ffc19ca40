/// The built-in functions: conversions, `size`, string tests, timestamps and durations, and UUID generation.
enum CELFunctions {
    static func call(_ function: CELFunction, _ arguments: [CELValue]) throws(CELError) -> CELValue {
        switch function {
        case .size: return try size(arguments[0])
        case .int: return try int(arguments[0])
        case .uint: return try uint(arguments[0])
        case .double: return try double(arguments[0])
        case .string: return try string(arguments[0])
        case .bool: return try bool(arguments[0])
        case .dyn: return arguments[0]
        case .timestamp: return try timestamp(arguments[0])
        case .duration: return try duration(arguments[0])
        case .uuidV4: return .string(UUIDGenerator.v4())
        case .uuidV7: return .string(UUIDGenerator.v7())
        case .matches:
            let (text, pattern) = try strings(function, arguments)
            return .bool(try matches(text, pattern))
        case .startsWith:
            let (text, prefix) = try strings(function, arguments)
            return .bool(text.unicodeScalars.starts(with: prefix.unicodeScalars))
        case .endsWith:
            let (text, suffix) = try strings(function, arguments)
            return .bool(text.unicodeScalars.reversed().starts(with: suffix.unicodeScalars.reversed()))
        case .contains:
            let (text, part) = try strings(function, arguments)
            return .bool(part.isEmpty || containsScalars(text, part))
        case .lowerAscii, .upperAscii:
            guard case .string(let text) = arguments[0] else { throw noOverload(function, arguments) }
            let lower = function == .lowerAscii
            var scalars = String.UnicodeScalarView()
            for scalar in text.unicodeScalars {
                let isUpper = scalar >= "A" && scalar <= "Z"
                let isLower = scalar >= "a" && scalar <= "z"
                if lower && isUpper || !lower && isLower {
                    scalars.append(Unicode.Scalar(UInt8(scalar.value) ^ 0x20))
                } else {
                    scalars.append(scalar)
                }
            }
            return .string(String(scalars))
        }
    }

    // MARK: Conversions

    private static func size(_ value: CELValue) throws(CELError) -> CELValue {
        switch value {
        case .string(let text): return .int(Int64(text.unicodeScalars.count))
        case .list(let list): return .int(Int64(list.count))
        case .map(let map): return .int(Int64(map.count))
        default: throw noOverload(.size, [value])
        }
    }

    private static func int(_ value: CELValue) throws(CELError) -> CELValue {
        switch value {
        case .int: return value
        case .uint(let unsigned):
            guard let signed = Int64(exactly: unsigned) else { throw rangeError(.int, value) }
            return .int(signed)
        case .double(let double):
            guard double.isFinite, double > -9_223_372_036_854_775_809.0, double < 9_223_372_036_854_775_808.0 else {
                throw rangeError(.int, value)
            }
            return .int(Int64(double.rounded(.towardZero)))
        case .string(let text):
            guard let integer = Int64(text) else { throw conversionError(.int, text) }
            return .int(integer)
        case .timestamp(let timestamp):
            return .int(timestamp.seconds)
        default:
            throw noOverload(.int, [value])
        }
    }

    private static func uint(_ value: CELValue) throws(CELError) -> CELValue {
        switch value {
        case .uint: return value
        case .int(let signed):
            guard let unsigned = UInt64(exactly: signed) else { throw rangeError(.uint, value) }
            return .uint(unsigned)
        case .double(let double):
            guard double.isFinite, double > -1, double < 18_446_744_073_709_551_616.0 else {
                throw rangeError(.uint, value)
            }
            return .uint(UInt64(double.rounded(.towardZero)))
        case .string(let text):
            guard let unsigned = UInt64(text) else { throw conversionError(.uint, text) }
            return .uint(unsigned)
        default:
            throw noOverload(.uint, [value])
        }
    }

    private static func double(_ value: CELValue) throws(CELError) -> CELValue {
        switch value {
        case .double: return value
        case .int(let integer): return .double(Double(integer))
        case .uint(let unsigned): return .double(Double(unsigned))
        case .string(let text):
            guard let double = Double(text) else { throw conversionError(.double, text) }
            return .double(double)
        default:
            throw noOverload(.double, [value])
        }
    }

    private static func string(_ value: CELValue) throws(CELError) -> CELValue {
        switch value {
        case .string: return value
        case .null: return .string("null")
        case .bool(let bool): return .string(bool ? "true" : "false")
        case .int(let integer): return .string(String(integer))
        case .uint(let unsigned): return .string(String(unsigned))
        case .double(let double): return .string(format(double))
        case .timestamp(let timestamp): return .string(timestamp.rfc3339)
        case .duration(let duration): return .string(duration.text)
        case .list, .map: throw noOverload(.string, [value])
        }
    }

    private static func bool(_ value: CELValue) throws(CELError) -> CELValue {
        switch value {
        case .bool: return value
        case .string(let text):
            switch text {
            case "true", "True", "TRUE", "t", "1": return .bool(true)
            case "false", "False", "FALSE", "f", "0": return .bool(false)
            default: throw conversionError(.bool, text)
            }
        default:
            throw noOverload(.bool, [value])
        }
    }

    private static func timestamp(_ value: CELValue) throws(CELError) -> CELValue {
        switch value {
        case .timestamp: return value
        case .string(let text):
            guard let timestamp = CELTimestamp(rfc3339: text) else {
                throw .evaluation(message: "timestamp() cannot parse \"\(text)\" as an RFC 3339 timestamp")
            }
            return .timestamp(timestamp)
        case .int(let seconds):
            guard let timestamp = CELTimestamp(seconds: seconds) else {
                throw .evaluation(message: "timestamp out of range")
            }
            return .timestamp(timestamp)
        default:
            throw noOverload(.timestamp, [value])
        }
    }

    private static func duration(_ value: CELValue) throws(CELError) -> CELValue {
        switch value {
        case .duration: return value
        case .string(let text):
            guard let duration = CELDuration(parsing: text) else {
                throw .evaluation(message: "duration() cannot parse \"\(text)\" (write e.g. \"1h30m\" or \"2.5s\")")
            }
            return .duration(duration)
        default:
            throw noOverload(.duration, [value])
        }
    }

    /// Formats a double the way CEL prints one: integral values without a fraction, others in shortest form.
    static func format(_ double: Double) -> String {
        if double.isFinite, double == double.rounded(.towardZero), abs(double) < 1e15 {
            return String(Int64(double))
        }
        return double.description
    }

    // MARK: Strings

    private static func strings(
        _ function: CELFunction, _ arguments: [CELValue]
    ) throws(CELError) -> (String, String) {
        guard case .string(let first) = arguments[0], case .string(let second) = arguments[1] else {
            throw noOverload(function, arguments)
        }
        return (first, second)
    }

    private static func containsScalars(_ text: String, _ part: String) -> Bool {
        let haystack = Array(text.unicodeScalars)
        let needle = Array(part.unicodeScalars)
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)] == needle[...] {
            return true
        }
        return false
    }

    /// Whether `pattern` matches anywhere in `text` (RE2-style search), matching Unicode scalars.
    private static func matches(_ text: String, _ pattern: String) throws(CELError) -> Bool {
        let regex: Regex<AnyRegexOutput>
        do {
            regex = try Regex(pattern)
        } catch {
            throw .evaluation(message: "matches(): invalid regular expression \"\(pattern)\"")
        }
        return text.contains(regex.matchingSemantics(.unicodeScalar))
    }

    // MARK: Errors

    private static func noOverload(_ function: CELFunction, _ arguments: [CELValue]) -> CELError {
        .evaluation(
            message: "no such overload: \(function.rawValue)(\(arguments.map(\.typeName).joined(separator: ", ")))")
    }

    private static func conversionError(_ function: CELFunction, _ text: String) -> CELError {
        .evaluation(message: "\(function.rawValue)() cannot convert \"\(text)\"")
    }

    private static func rangeError(_ function: CELFunction, _ value: CELValue) -> CELError {
        .evaluation(message: "\(function.rawValue)() argument out of range: \(value.json)")
    }
}
