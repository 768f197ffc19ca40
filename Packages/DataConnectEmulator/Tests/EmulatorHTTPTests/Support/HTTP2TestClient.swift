import CNGHTTP2
import DataConnectTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A blocking HTTP/2 client on nghttp2's client session, for the gRPC tests: starts calls, sends messages and
/// resets, and records what comes back per stream (headers, DATA, trailers, the close) and for the connection
/// (GOAWAY, end of file).
final class HTTP2TestClient {
    /// What one stream received.
    struct Stream {
        var headers: [(name: String, value: String)] = []
        var trailers: [(name: String, value: String)] = []
        var data: [UInt8] = []
        var headerBlocks = 0
        var closed = false
        var closeError: UInt32 = 0
        var resetByServer = false

        /// A field of the trailers, else of the headers.
        func value(_ name: String) -> String? {
            trailers.first { $0.name == name }?.value ?? headers.first { $0.name == name }?.value
        }

        var status: String? { headers.first { $0.name == ":status" }?.value }
        var grpcStatus: Int? { value("grpc-status").flatMap { Int($0) } }
        var grpcMessage: String? { value("grpc-message") }
        /// A single HEADERS block carrying the status, no DATA.
        var isTrailersOnly: Bool { headerBlocks == 1 && data.isEmpty && headers.contains { $0.name == "grpc-status" } }

        /// The length-prefixed messages of the DATA.
        var messages: [[UInt8]] {
            var messages: [[UInt8]] = []
            var offset = 0
            while data.count - offset >= 5 {
                let length =
                    Int(data[offset + 1]) << 24 | Int(data[offset + 2]) << 16 | Int(data[offset + 3]) << 8
                    | Int(data[offset + 4])
                guard data.count - offset - 5 >= length else { break }
                messages.append(Array(data[(offset + 5)..<(offset + 5 + length)]))
                offset += 5 + length
            }
            return messages
        }
    }

    let port: UInt16
    private let connection: LoopbackConnection
    private var session: OpaquePointer?
    private(set) var streams: [Int32: Stream] = [:]
    private var bodies: [Int32: (bytes: [UInt8], end: Bool)] = [:]
    private(set) var goAway: (lastStreamID: Int32, errorCode: UInt32)?
    private(set) var goAwayCount = 0
    private(set) var isClosed = false
    private var splitPreface: Bool

    /// Connects and sends the preface and SETTINGS (the preface in three pieces, apart, with `splitPreface`).
    init(port: UInt16, splitPreface: Bool = false) throws {
        self.port = port
        self.splitPreface = splitPreface
        connection = try LoopbackConnection(port: Int(port))
        var callbacks: OpaquePointer?
        nghttp2_session_callbacks_new(&callbacks)
        defer { nghttp2_session_callbacks_del(callbacks) }
        nghttp2_session_callbacks_set_on_header_callback(callbacks) {
            _, frame, name, nameLength, value, valueLength, _, user in
            guard let frame, let name, let value, let user else { return 0 }
            let client = Unmanaged<HTTP2TestClient>.fromOpaque(user).takeUnretainedValue()
            let field = (
                String(decoding: UnsafeBufferPointer(start: name, count: nameLength), as: UTF8.self),
                String(decoding: UnsafeBufferPointer(start: value, count: valueLength), as: UTF8.self)
            )
            let id = cnh2_frame_stream(frame)
            if cnh2_frame_is_response_headers(frame) != 0 {
                client.streams[id, default: Stream()].headers.append(field)
            } else {
                client.streams[id, default: Stream()].trailers.append(field)
            }
            return 0
        }
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks) { _, frame, user in
            guard let frame, let user else { return 0 }
            let client = Unmanaged<HTTP2TestClient>.fromOpaque(user).takeUnretainedValue()
            let id = cnh2_frame_stream(frame)
            switch UInt32(cnh2_frame_type(frame)) {
            case NGHTTP2_HEADERS.rawValue: client.streams[id, default: Stream()].headerBlocks += 1
            case NGHTTP2_GOAWAY.rawValue:
                client.goAway = (cnh2_frame_goaway_last_stream(frame), cnh2_frame_goaway_error(frame))
                client.goAwayCount += 1
            case NGHTTP2_RST_STREAM.rawValue: client.streams[id, default: Stream()].resetByServer = true
            default: break
            }
            return 0
        }
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks) { _, _, id, data, length, user in
            guard let data, let user else { return 0 }
            let client = Unmanaged<HTTP2TestClient>.fromOpaque(user).takeUnretainedValue()
            client.streams[id, default: Stream()].data.append(
                contentsOf: UnsafeBufferPointer(start: data, count: length))
            return 0
        }
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks) { _, id, error, user in
            guard let user else { return 0 }
            let client = Unmanaged<HTTP2TestClient>.fromOpaque(user).takeUnretainedValue()
            client.streams[id, default: Stream()].closed = true
            client.streams[id, default: Stream()].closeError = error
            return 0
        }
        nghttp2_session_client_new(&session, callbacks, Unmanaged.passUnretained(self).toOpaque())
        nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), nil, 0)
        flush()
    }

    deinit {
        nghttp2_session_del(session)
    }

    /// Starts a call: HEADERS, then `messages` (length-prefixed, with `flag` as their compressed flag), ending the
    /// request when `endStream`; sent at once unless `queued` (then with the next ``flush()``, in the same write).
    @discardableResult
    func call(
        _ path: String, metadata: [(String, String)] = [], messages: [[UInt8]] = [], endStream: Bool = true,
        contentType: String = "application/grpc", method: String = "POST", flag: UInt8 = 0, queued: Bool = false
    ) -> Int32 {
        let fields =
            [
                (":method", method), (":scheme", "http"), (":path", path), (":authority", "127.0.0.1:\(port)"),
                ("content-type", contentType), ("te", "trailers"),
            ] + metadata
        var body: [UInt8] = []
        for message in messages { body += Self.frame(message, flag: flag) }
        let id = submit(fields, body: body, end: endStream)
        if !queued { flush() }
        return id
    }

    /// Sends one more message (or raw bytes when `raw`) on a stream, ending the request when `end`.
    func send(_ bytes: [UInt8], on stream: Int32, raw: Bool = false, end: Bool = false) {
        bodies[stream, default: ([], false)].bytes += raw ? bytes : Self.frame(bytes)
        if end { bodies[stream]?.end = true }
        nghttp2_session_resume_data(session, stream)
        flush()
    }

    /// Resets a stream (CANCEL).
    func reset(_ stream: Int32) {
        nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), stream, NGHTTP2_CANCEL.rawValue)
        flush()
    }

    /// Writes bytes past the session, as they are.
    func sendRaw(_ bytes: [UInt8]) throws {
        try connection.send(bytes)
    }

    /// Reads and answers frames until `condition` holds, the connection closes, or the hang guard passes; returns
    /// whether `condition` held.
    @discardableResult
    func pump(limit: Duration = HangGuard.event, until condition: (HTTP2TestClient) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + limit
        while !condition(self) {
            guard !isClosed, ContinuousClock.now < deadline else { return condition(self) }
            switch connection.receive(until: min(deadline, .now + .milliseconds(20))) {
            case .bytes(let bytes):
                let result = bytes.withUnsafeBufferPointer {
                    nghttp2_session_mem_recv(session, $0.baseAddress, $0.count)
                }
                if result < 0 { isClosed = true }
                flush()
            case .closed:
                isClosed = true
            case .timedOut:
                continue
            }
        }
        return true
    }

    /// Waits for a stream to close and returns what it received.
    func response(_ stream: Int32) -> Stream {
        pump { $0.streams[stream]?.closed == true }
        return streams[stream] ?? Stream()
    }

    /// Sends what the session has queued, in one write (but a preface split on purpose).
    func flush() {
        var data: UnsafePointer<UInt8>?
        var pending: [UInt8] = []
        while true {
            let count = nghttp2_session_mem_send(session, &data)
            guard count > 0, let data else { break }
            let bytes = Array(UnsafeBufferPointer(start: data, count: count))
            if splitPreface && bytes.count >= 24 {
                splitPreface = false
                for piece in [bytes[0..<5], bytes[5..<15], bytes[15...]] {
                    try? connection.send(piece)
                    usleep(30_000)
                }
                continue
            }
            pending += bytes
        }
        guard !pending.isEmpty else { return }
        do { try connection.send(pending) } catch { isClosed = true }
    }

    /// A length-prefixed gRPC message.
    static func frame(_ message: [UInt8], flag: UInt8 = 0) -> [UInt8] {
        let length = message.count
        return [
            flag, UInt8(truncatingIfNeeded: length >> 24), UInt8(truncatingIfNeeded: length >> 16),
            UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length),
        ] + message
    }

    private func submit(_ fields: [(String, String)], body: [UInt8], end: Bool) -> Int32 {
        var storage: [UInt8] = []
        for (name, value) in fields { storage += Array(name.utf8) + Array(value.utf8) }
        return storage.withUnsafeMutableBufferPointer { bytes in
            var position = 0
            var nameValues: [nghttp2_nv] = []
            for (name, value) in fields {
                let base = bytes.baseAddress! + position
                nameValues.append(
                    nghttp2_nv(
                        name: base, value: base + name.utf8.count, namelen: name.utf8.count,
                        valuelen: value.utf8.count, flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue)))
                position += name.utf8.count + value.utf8.count
            }
            if body.isEmpty && end {
                return nghttp2_submit_request(session, nil, nameValues, nameValues.count, nil, nil)
            }
            var provider = cnh2_data_provider { _, id, buffer, length, flags, _, user in
                guard let buffer, let flags, let user else { return 0 }
                let client = Unmanaged<HTTP2TestClient>.fromOpaque(user).takeUnretainedValue()
                return client.read(id, into: buffer, length: length, flags: flags)
            }
            let id = nghttp2_submit_request(session, nil, nameValues, nameValues.count, &provider, nil)
            bodies[id] = (body, end)
            return id
        }
    }

    private func read(
        _ id: Int32, into buffer: UnsafeMutablePointer<UInt8>, length: Int, flags: UnsafeMutablePointer<UInt32>
    ) -> Int {
        guard let body = bodies[id] else { return Int(NGHTTP2_ERR_DEFERRED.rawValue) }
        let count = min(length, body.bytes.count)
        body.bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: count) }
        bodies[id]?.bytes.removeFirst(count)
        if count == body.bytes.count && body.end {
            flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
            bodies[id] = nil
            return count
        }
        return count == 0 ? Int(NGHTTP2_ERR_DEFERRED.rawValue) : count
    }
}

/// Raw HTTP/2 frames, for the tests that must send what a real client never would.
enum RawFrames {
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    /// One frame: a 9-byte header and the payload.
    static func frame(type: UInt8, flags: UInt8 = 0, stream: UInt32 = 0, _ payload: [UInt8] = []) -> [UInt8] {
        let length = payload.count
        return [
            UInt8(truncatingIfNeeded: length >> 16), UInt8(truncatingIfNeeded: length >> 8),
            UInt8(truncatingIfNeeded: length), type, flags,
            UInt8(truncatingIfNeeded: stream >> 24), UInt8(truncatingIfNeeded: stream >> 16),
            UInt8(truncatingIfNeeded: stream >> 8), UInt8(truncatingIfNeeded: stream),
        ] + payload
    }

    /// An HPACK literal header field without indexing, new name, no Huffman coding.
    static func literal(_ name: String, _ value: String) -> [UInt8] {
        [0x00] + integer(name.utf8.count) + Array(name.utf8) + integer(value.utf8.count) + Array(value.utf8)
    }

    /// An HPACK string length (7-bit prefix, Huffman bit clear).
    private static func integer(_ value: Int) -> [UInt8] {
        if value < 127 { return [UInt8(value)] }
        var bytes: [UInt8] = [127]
        var rest = value - 127
        while rest >= 128 {
            bytes.append(UInt8(rest % 128 + 128))
            rest /= 128
        }
        bytes.append(UInt8(rest))
        return bytes
    }

    /// The frame types seen in `bytes` (complete frames only).
    static func types(in bytes: [UInt8]) -> [UInt8] {
        var types: [UInt8] = []
        var offset = 0
        while bytes.count - offset >= 9 {
            let length = Int(bytes[offset]) << 16 | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
            types.append(bytes[offset + 3])
            offset += 9 + length
        }
        return types
    }
}
