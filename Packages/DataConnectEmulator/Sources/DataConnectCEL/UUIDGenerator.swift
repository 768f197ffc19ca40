#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Generates UUIDs in Data Connect's canonical form: 32 lowercase hex digits, no dashes.
///
/// Version 4 is random; version 7 (RFC 9562) starts with a 48-bit Unix time in milliseconds, so keys generated
/// later sort later (keys generated within the same millisecond are in random order among themselves). Both use
/// `SystemRandomNumberGenerator` unless given a generator. CEL's `uuidV4()` and `uuidV7()` and
/// `@default(expr: "uuidV4()")` come here.
///
/// ```swift
/// UUIDGenerator.v4()  // "5f0c7a9e1b2d4c8e9a3f6b1d2e4c8a7f"
/// UUIDGenerator.v7()  // "0192f3a1c2d87b4e8f1a2b3c4d5e6f70"
/// ```
public enum UUIDGenerator {
    /// A random (version 4) UUID.
    ///
    /// ```swift
    /// let id = UUIDGenerator.v4()  // 32 hex digits, id[12] == "4"
    /// ```
    ///
    /// - Returns: 32 lowercase hex digits.
    public static func v4() -> String {
        var generator = SystemRandomNumberGenerator()
        return v4(using: &generator)
    }

    /// A random (version 4) UUID drawn from `generator`.
    ///
    /// Seeded generators make tests reproducible.
    ///
    /// ```swift
    /// var generator = SystemRandomNumberGenerator()
    /// UUIDGenerator.v4(using: &generator)
    /// ```
    ///
    /// - Parameter generator: the source of the 122 random bits.
    /// - Returns: 32 lowercase hex digits.
    public static func v4<Generator: RandomNumberGenerator>(using generator: inout Generator) -> String {
        var bytes = randomBytes(using: &generator)
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        return hex(bytes)
    }

    /// A time-ordered (version 7) UUID for the current time.
    ///
    /// ```swift
    /// UUIDGenerator.v7() < UUIDGenerator.v7()  // true when a millisecond passed between them
    /// ```
    ///
    /// - Returns: 32 lowercase hex digits.
    public static func v7() -> String {
        var generator = SystemRandomNumberGenerator()
        return v7(unixMilliseconds: WallClock.unixMicroseconds() / 1000, using: &generator)
    }

    /// A time-ordered (version 7) UUID for a given time, with random bits from `generator`.
    ///
    /// The first 48 bits are `unixMilliseconds` (taken modulo 2^48), then the version, 12 random bits, the variant
    /// and 62 random bits.
    ///
    /// ```swift
    /// var generator = SystemRandomNumberGenerator()
    /// UUIDGenerator.v7(unixMilliseconds: 1_700_000_000_000, using: &generator).prefix(12)  // "018bcfe56800"
    /// ```
    ///
    /// - Parameters:
    ///   - unixMilliseconds: milliseconds since 1970-01-01T00:00:00Z.
    ///   - generator: the source of the random bits.
    /// - Returns: 32 lowercase hex digits.
    public static func v7<Generator: RandomNumberGenerator>(
        unixMilliseconds: Int64, using generator: inout Generator
    ) -> String {
        var bytes = randomBytes(using: &generator)
        let milliseconds = UInt64(bitPattern: unixMilliseconds) & 0xFFFF_FFFF_FFFF
        for index in 0..<6 {
            bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> UInt64(8 * (5 - index)))
        }
        bytes[6] = bytes[6] & 0x0F | 0x70
        bytes[8] = bytes[8] & 0x3F | 0x80
        return hex(bytes)
    }

    private static func randomBytes<Generator: RandomNumberGenerator>(using generator: inout Generator) -> [UInt8] {
        let high = generator.next()
        let low = generator.next()
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: high >> UInt64(8 * (7 - index)))
            bytes[index + 8] = UInt8(truncatingIfNeeded: low >> UInt64(8 * (7 - index)))
        }
        return bytes
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(32)
        for byte in bytes {
            output.append(digits[Int(byte >> 4)])
            output.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: output, as: UTF8.self)
    }
}

/// The system's wall clock, read without Foundation.
enum WallClock {
    /// Microseconds since 1970-01-01T00:00:00Z.
    static func unixMicroseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
    }
}
