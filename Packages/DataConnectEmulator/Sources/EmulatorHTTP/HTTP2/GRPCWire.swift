/// The gRPC-over-HTTP/2 details that are not HTTP/2's: the request's content type and timeout, the message framing
/// of requests, and the status trailers.
enum GRPCWire {
    /// Whether a content type is gRPC's at all (`application/grpc`, possibly with a subtype or parameters).
    static func isGRPC(contentType: String?) -> Bool {
        guard let lower = contentType?.lowercased() else { return false }
        return lower == "application/grpc" || lower.hasPrefix("application/grpc+")
            || lower.hasPrefix("application/grpc;")
    }

    /// Whether a gRPC content type names a message format the server reads: protobuf (`application/grpc` or
    /// `application/grpc+proto`).
    static func isProtobuf(contentType: String) -> Bool {
        let type = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? contentType
        let trimmed = type.trimmingSpaces.lowercased()
        return trimmed == "application/grpc" || trimmed == "application/grpc+proto"
    }

    /// The duration of a `grpc-timeout` value: 1 to 8 digits and a unit (`H`, `M`, `S`, `m`, `u`, `n`); nil when
    /// malformed.
    static func timeout(_ value: String) -> Duration? {
        let utf8 = Array(value.utf8)
        guard utf8.count >= 2, utf8.count <= 9 else { return nil }
        var amount: Int64 = 0
        for digit in utf8.dropLast() {
            guard digit >= 0x30, digit <= 0x39 else { return nil }
            amount = amount * 10 + Int64(digit - 0x30)
        }
        switch utf8.last! {
        case UInt8(ascii: "H"): return .seconds(amount * 3600)
        case UInt8(ascii: "M"): return .seconds(amount * 60)
        case UInt8(ascii: "S"): return .seconds(amount)
        case UInt8(ascii: "m"): return .milliseconds(amount)
        case UInt8(ascii: "u"): return .microseconds(amount)
        case UInt8(ascii: "n"): return .nanoseconds(amount)
        default: return nil
        }
    }

    /// `grpc-message`'s encoding: UTF-8, with bytes outside printable ASCII and `%` percent-encoded.
    static func percentEncoded(_ message: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(message.utf8.count)
        for byte in message.utf8 {
            if byte >= 0x20 && byte <= 0x7E && byte != UInt8(ascii: "%") {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The trailers that end a call: `grpc-status`, `grpc-message` when there is one, then `extra` (names
    /// lower-cased; reserved and pseudo-header names dropped).
    static func trailers(_ status: GRPCStatus, extra: HTTPHeaders) -> [(String, String)] {
        var fields = [("grpc-status", String(status.code.rawValue))]
        if !status.message.isEmpty { fields.append(("grpc-message", percentEncoded(status.message))) }
        for field in extra {
            let name = field.name.lowercased()
            guard !name.hasPrefix(":"), name != "grpc-status", name != "grpc-message" else { continue }
            fields.append((name, field.value))
        }
        return fields
    }
}

/// Splits a request stream's DATA into gRPC messages (a 1-byte compressed flag, a 4-byte big-endian length, the
/// bytes), refusing compressed messages and messages over the limit as soon as their prefix is in.
struct GRPCMessageReader {
    private var buffer: [UInt8] = []
    private var consumed = 0

    /// Whether part of a message is waiting for the rest.
    var hasPartialMessage: Bool { buffer.count > consumed }

    /// Takes a piece of DATA; calls `message` for each complete message, in order. Returns the status that ends the
    /// call when the bytes break the rules (the rest is then to be ignored), else nil.
    mutating func receive(
        _ bytes: UnsafeRawBufferPointer, limit: Int, message: ([UInt8]) -> Void
    ) -> GRPCStatus? {
        buffer.append(contentsOf: bytes)
        defer {
            if consumed == buffer.count {
                buffer.removeAll(keepingCapacity: buffer.capacity <= 65_536)
                consumed = 0
            } else if consumed > 0 {
                buffer.removeFirst(consumed)
                consumed = 0
            }
        }
        while buffer.count - consumed >= 5 {
            let flag = buffer[consumed]
            let length =
                Int(buffer[consumed + 1]) << 24 | Int(buffer[consumed + 2]) << 16 | Int(buffer[consumed + 3]) << 8
                | Int(buffer[consumed + 4])
            if flag == 1 {
                return GRPCStatus(
                    .unimplemented, "compressed messages are not supported: send them uncompressed (identity)")
            }
            if flag != 0 {
                return GRPCStatus(.internal, "invalid message flags \(flag): expected 0 (uncompressed)")
            }
            if length > limit {
                return GRPCStatus(.resourceExhausted, "message of \(length) bytes exceeds the limit of \(limit) bytes")
            }
            guard buffer.count - consumed >= 5 + length else {
                if consumed == 0 { buffer.reserveCapacity(5 + length) }
                break
            }
            message(Array(buffer[(consumed + 5)..<(consumed + 5 + length)]))
            consumed += 5 + length
        }
        return nil
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
            let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })
        else { return "" }
        return String(scalars[first...last])
    }
}
