import DataConnectTestSupport
import Foundation

/// One hostile HTTP/2 exchange: raw frames written by hand on a fresh connection, and what came back.
struct HTTP2Attack: Sendable {
    /// What the attacker saw.
    enum Outcome: Equatable, CustomStringConvertible {
        /// A GOAWAY with this error code (RFC 9113 §7: 0 NO_ERROR, 1 PROTOCOL_ERROR, 11 ENHANCE_YOUR_CALM, …).
        case goAway(UInt32)
        /// RST_STREAM frames with these error codes.
        case reset([UInt32])
        /// A HEADERS frame on a stream (a response or trailers: a gRPC status, HPACK-coded).
        case headers
        /// A DATA frame on a stream: its payload.
        case data([UInt8])
        /// An HTTP/1.1 answer (the bytes did not open as HTTP/2).
        case http1(Int)
        /// The connection closed with nothing else.
        case closed
        /// Nothing within the hang guard.
        case silence

        var isAnswer: Bool { self != .silence }

        var description: String {
            switch self {
            case .goAway(let code): "GOAWAY \(code)"
            case .reset(let codes): "RST_STREAM \(Set(codes).sorted())"
            case .headers: "HEADERS"
            case .data(let payload): "DATA (\(payload.count) bytes)"
            case .http1(let status): "HTTP/1.1 \(status)"
            case .closed: "closed"
            case .silence: "no answer"
            }
        }
    }

    let name: String
    let run: @Sendable (Int) -> Outcome

    static let all: [HTTP2Attack] = [
        HTTP2Attack(name: "bad preface") { port in
            exchange(port, Array("PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n".utf8) + Array(repeating: 0x41, count: 64))
        },
        HTTP2Attack(name: "preface then garbage") { port in
            exchange(port, preface + Array(repeating: 0xFF, count: 4_096))
        },
        HTTP2Attack(name: "frames on a closed stream") { port in
            var bytes = preface + settings
            bytes += headers(stream: 1, grpcPath: healthPath, endStream: false)
            bytes += data(stream: 1, grpcMessage([]), endStream: true)
            for _ in 0..<1_000 { bytes += data(stream: 1, Array(repeating: 0, count: 64), endStream: false) }
            return exchange(port, bytes)
        },
        HTTP2Attack(name: "1 MiB HEADERS block") { port in
            var block = headerBlock(grpcPath: healthPath)
            let padding = literal(name: "x-padding", value: String(repeating: "a", count: 4_000))
            while block.count < 1 << 20 { block += padding }
            var bytes = preface + settings
            var offset = 0
            var first = true
            while offset < block.count {
                let end = min(block.count, offset + 16_384)
                let last = end == block.count
                bytes += frame(
                    type: first ? 1 : 9, flags: last ? 0x4 : 0, stream: 1, Array(block[offset..<end]))
                first = false
                offset = end
            }
            return exchange(port, bytes)
        },
        HTTP2Attack(name: "10,000 SETTINGS") { port in
            var bytes = preface + settings
            for _ in 0..<10_000 { bytes += frame(type: 4, flags: 0, stream: 0, [0, 3, 0, 0, 0, 100]) }
            return exchange(port, bytes)
        },
        HTTP2Attack(name: "10,000 PINGs") { port in
            var bytes = preface + settings
            for index in 0..<10_000 { bytes += frame(type: 6, flags: 0, stream: 0, bigEndian(UInt64(index))) }
            return exchange(port, bytes)
        },
        HTTP2Attack(name: "rapid reset (5,000 streams)") { port in
            var bytes = preface + settings
            for index in 0..<5_000 {
                let stream = UInt32(1 + 2 * index)
                bytes += headers(stream: stream, grpcPath: executeQueryPath, endStream: false)
                bytes += frame(type: 3, flags: 0, stream: stream, [0, 0, 0, 8])
            }
            return exchange(port, bytes)
        },
        HTTP2Attack(name: "a 9 MiB message") { port in
            var bytes = preface + settings + headers(stream: 1, grpcPath: executeQueryPath, endStream: false)
            let message = grpcMessage(Array(repeating: 0x0A, count: 9 << 20))
            var offset = 0
            while offset < message.count {
                let end = min(message.count, offset + 16_384)
                bytes += data(stream: 1, Array(message[offset..<end]), endStream: end == message.count)
                offset = end
            }
            return exchange(port, bytes)
        },
        HTTP2Attack(name: "200 streams left open, then a call") { port in
            var bytes = preface + settings
            for index in 0..<200 {
                bytes += headers(stream: UInt32(1 + 2 * index), grpcPath: executeQueryPath, endStream: false)
            }
            // The open calls never send their message (the server ends them after its connection timeout); a call
            // on the same connection is answered meanwhile.
            bytes += headers(stream: 401, grpcPath: healthPath, endStream: false)
            bytes += data(stream: 401, grpcMessage([]), endStream: true)
            return exchange(port, bytes, untilData: true)
        },
    ]

    // MARK: A well-behaved call

    /// A `grpc.health.v1.Health/Check` call on a fresh connection: its answer, the first DATA frame.
    static func unaryCall(port: Int) -> Outcome {
        var bytes = preface + settings + headers(stream: 1, grpcPath: healthPath, endStream: false)
        bytes += data(stream: 1, grpcMessage([]), endStream: true)
        return exchange(port, bytes, untilData: true)
    }

    /// A `HealthCheckResponse` saying `SERVING` (field 1, varint 1), framed.
    static let serving = grpcMessage([0x08, 0x01])

    // MARK: Frames

    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    static let settings = frame(type: 4, flags: 0, stream: 0, [])
    static let healthPath = "/grpc.health.v1.Health/Check"
    static let executeQueryPath = "/google.firebase.dataconnect.v1.ConnectorService/ExecuteQuery"

    static func frame(type: UInt8, flags: UInt8, stream: UInt32, _ payload: [UInt8]) -> [UInt8] {
        let length = UInt32(payload.count)
        return [UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags]
            + bigEndian(stream & 0x7FFF_FFFF) + payload
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func bigEndian(_ value: UInt64) -> [UInt8] {
        bigEndian(UInt32(value >> 32)) + bigEndian(UInt32(value & 0xFFFF_FFFF))
    }

    static func headers(stream: UInt32, grpcPath: String, endStream: Bool) -> [UInt8] {
        frame(type: 1, flags: 0x4 | (endStream ? 0x1 : 0), stream: stream, headerBlock(grpcPath: grpcPath))
    }

    static func data(stream: UInt32, _ payload: [UInt8], endStream: Bool) -> [UInt8] {
        frame(type: 0, flags: endStream ? 0x1 : 0, stream: stream, payload)
    }

    static func grpcMessage(_ bytes: [UInt8]) -> [UInt8] {
        [0] + bigEndian(UInt32(bytes.count)) + bytes
    }

    /// A request's header block in HPACK without Huffman coding or the dynamic table: `:method POST` and
    /// `:scheme http` from the static table, the rest as literals.
    static func headerBlock(grpcPath: String) -> [UInt8] {
        [0x83, 0x86] + literal(index: 4, value: grpcPath) + literal(index: 1, value: "127.0.0.1")
            + literal(index: 31, value: "application/grpc") + literal(name: "te", value: "trailers")
    }

    /// A literal field without indexing whose name is the static table's entry `index`.
    static func literal(index: Int, value: String) -> [UInt8] {
        integer(index, prefixBits: 4, flags: 0) + string(value)
    }

    /// A literal field without indexing with a new name.
    static func literal(name: String, value: String) -> [UInt8] {
        [0] + string(name) + string(value)
    }

    static func string(_ text: String) -> [UInt8] {
        integer(text.utf8.count, prefixBits: 7, flags: 0) + Array(text.utf8)
    }

    /// HPACK's prefixed integer (RFC 7541 §5.1).
    static func integer(_ value: Int, prefixBits: Int, flags: UInt8) -> [UInt8] {
        let limit = (1 << prefixBits) - 1
        guard value >= limit else { return [flags | UInt8(value)] }
        var bytes = [flags | UInt8(limit)]
        var rest = value - limit
        while rest >= 128 {
            bytes.append(UInt8(rest % 128 + 128))
            rest /= 128
        }
        bytes.append(UInt8(rest))
        return bytes
    }

    // MARK: The exchange

    /// Sends `bytes` (from another thread, so that a server that stops reading cannot block the reading), then reads
    /// frames until the connection closes, a GOAWAY arrives, or `listenFor` passes once something came back; the
    /// hang guard bounds it all.
    static func exchange(
        _ port: Int, _ bytes: [UInt8], listenFor: Duration = .seconds(1), untilData: Bool = false
    ) -> Outcome {
        guard let connection = try? LoopbackConnection(port: port) else { return .closed }
        let sender = Thread { try? connection.send(bytes) }
        sender.start()
        var received: [UInt8] = []
        var resets: [UInt32] = []
        var sawHeaders = false
        var quietSince: ContinuousClock.Instant?
        let guardDeadline = ContinuousClock.now + HangGuard.event
        while ContinuousClock.now < guardDeadline {
            if let quietSince, ContinuousClock.now - quietSince > listenFor { break }
            switch connection.receive(until: min(guardDeadline, .now + .milliseconds(200))) {
            case .bytes(let more):
                received += more
                quietSince = quietSince ?? .now
            case .timedOut:
                continue
            case .closed:
                return outcome(resets, sawHeaders) ?? .closed
            }
            if received.starts(with: Array("HTTP/1.".utf8)) {
                if let head = RawHTTP.headEnd(in: received), let parsed = try? RawHTTP.parseHead(received[..<head]) {
                    return .http1(parsed.status)
                }
                continue
            }
            // Frames, in order.
            var offset = 0
            while received.count - offset >= 9 {
                let length = Int(received[offset]) << 16 | Int(received[offset + 1]) << 8 | Int(received[offset + 2])
                guard received.count - offset - 9 >= length else { break }
                let type = received[offset + 3]
                let payload = Array(received[(offset + 9)..<(offset + 9 + length)])
                offset += 9 + length
                switch type {
                case 7 where payload.count >= 8:
                    connection.close()
                    return .goAway(word(payload, at: 4))
                case 3 where payload.count >= 4:
                    resets.append(word(payload, at: 0))
                case 1:
                    sawHeaders = true
                case 0 where untilData:
                    connection.close()
                    return .data(payload)
                default:
                    break
                }
            }
            received.removeFirst(offset)
        }
        return outcome(resets, sawHeaders) ?? .silence
    }

    private static func outcome(_ resets: [UInt32], _ sawHeaders: Bool) -> Outcome? {
        if !resets.isEmpty { return .reset(resets) }
        return sawHeaders ? .headers : nil
    }

    private static func word(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }
}
