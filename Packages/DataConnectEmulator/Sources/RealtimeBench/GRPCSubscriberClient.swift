// The `--grpc` side of the `--subscribers` mode: the subscribers on `ConnectorStreamService/Connect` streams, one
// stream on each HTTP/2 connection (plaintext, prior knowledge, as the mobile SDKs speak to an emulator), held by
// nghttp2 client sessions on non-blocking sockets in one epoll set, as the WebSocket client holds its sockets.
//
// Every DATA chunk goes through the session (flow control, WINDOW_UPDATE, PING answers), every message is decoded
// with `StreamResponse(protobuf:)`, and an event counts only when its `request_id` is one the stream subscribed and
// its `data` is present: the client does the work a real one would.
//
// One thread decoding every subscriber's message is slower than the server's fan-out (10,000 results of ~24 kB are
// ~240 MB of protobuf per round), so `--grpc-decode deferred` times each event when its last byte is read and decodes
// the messages held once the round's events are in (each one still decoded and checked, the failures taken back out
// of the count): its latency is the server's and the transport's, without the client's decoding queue.

import CMicroHTTPD
import CNGHTTP2
import DataConnectProtobuf
import DataConnectWire
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The path of the realtime stream's gRPC method.
let connectPath = "/google.firebase.dataconnect.v1.ConnectorStreamService/Connect"

/// The connector every subscription names.
let connectorName = "projects/p/locations/l/services/movies/connectors/movies"

/// One HTTP/2 connection of the client and its one `Connect` stream: the session, what the socket has not taken
/// yet, and the subscriptions' events.
final class GRPCSubscriberStream {
    let fd: Int32
    /// The stream's token in the epoll set: its index in the client's streams, plus one.
    let token: UInt64
    let subscriptions: Int
    /// The nghttp2 client session; its user data is this object.
    fileprivate(set) var session: OpaquePointer?
    /// The `Connect` stream's id.
    fileprivate(set) var streamID: Int32 = -1
    /// Events counted (responses with a known request id and data).
    var events = 0
    /// Events per request id (`"1"` is index 0).
    var eventsPerRequest: [Int]
    /// When the read carrying the latest event came from the socket.
    var lastEvent = ContinuousClock.now
    /// When the bytes being fed to the session were read.
    fileprivate var readAt = ContinuousClock.now
    /// Messages that decoded but named another request or carried no data; messages that did not decode.
    var rejected = 0
    var undecodable = 0
    /// The `grpc-status` and `grpc-message` of the call when it ended, or how the connection ended.
    var ending: String?
    /// The request body (length-prefixed `StreamRequest`s) not yet taken by the session.
    fileprivate var body: [UInt8]
    fileprivate var bodyOffset = 0
    /// DATA bytes of a message not complete yet.
    fileprivate var inbound: [UInt8] = []
    /// Whether messages are decoded when read (else held until ``settle()``).
    let decodeInline: Bool
    /// Messages read and counted, not decoded yet (deferred decoding).
    fileprivate var held: [[UInt8]] = []
    /// Time spent in `StreamResponse(protobuf:)` and the checks.
    var decodeTime = Duration.zero
    /// Messages decoded.
    var decoded = 0
    /// Frames the session produced that the socket has not taken yet.
    fileprivate var outbound: [UInt8] = []
    fileprivate var watchesWritable = false
    fileprivate var closed = false

    init(fd: Int32, token: UInt64, requests: [StreamRequest], decodeInline: Bool) {
        self.fd = fd
        self.token = token
        self.decodeInline = decodeInline
        subscriptions = requests.count
        eventsPerRequest = [Int](repeating: 0, count: requests.count)
        body = []
        for request in requests { body += lengthPrefixed(request.protobufBytes()) }
    }

    /// Whether every subscription has had at least one event.
    var everyRequestAnswered: Bool { !eventsPerRequest.contains(0) }

    /// Decodes the complete messages of `inbound` and counts the events among them.
    fileprivate func takeMessages() {
        var offset = 0
        while inbound.count - offset >= 5 {
            let length =
                Int(inbound[offset + 1]) << 24 | Int(inbound[offset + 2]) << 16 | Int(inbound[offset + 3]) << 8
                | Int(inbound[offset + 4])
            guard inbound.count - offset - 5 >= length else { break }
            let message = Array(inbound[(offset + 5)..<(offset + 5 + length)])
            offset += 5 + length
            if decodeInline {
                if check(message) {
                    events += 1
                    lastEvent = readAt
                }
            } else {
                held.append(message)
                events += 1
                lastEvent = readAt
            }
        }
        if offset > 0 { inbound.removeFirst(offset) }
    }

    /// Decodes the messages held, taking the ones that fail their checks back out of the count.
    func settle() {
        for message in held where !check(message) { events -= 1 }
        held.removeAll()
    }

    /// Decodes one message and counts it for its request: whether it is a `StreamResponse` for a request of this
    /// stream, with `data`.
    private func check(_ message: [UInt8]) -> Bool {
        let start = ContinuousClock.now
        defer {
            decodeTime += ContinuousClock.now - start
            decoded += 1
        }
        guard let response = try? StreamResponse(protobuf: message) else {
            undecodable += 1
            return false
        }
        guard let id = Int(response.requestId), (1...subscriptions).contains(id), response.data != nil else {
            rejected += 1
            return false
        }
        eventsPerRequest[id - 1] += 1
        return true
    }
}

/// A gRPC message: flag 0 (not compressed), the 4-byte big-endian length, the bytes.
func lengthPrefixed(_ message: [UInt8]) -> [UInt8] {
    let length = message.count
    return [
        0, UInt8(truncatingIfNeeded: length >> 24), UInt8(truncatingIfNeeded: length >> 16),
        UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length),
    ] + message
}

/// The gRPC subscriber connections of the client process, read through one epoll set.
struct GRPCSubscriberClient: SubscriberSet {
    /// The receive windows the client announces, per stream and for the connection: grpc-swift's default target
    /// window (8 MiB), so a round's hundred results on one stream never wait for a WINDOW_UPDATE.
    static let receiveWindow: Int32 = 8 << 20

    /// Whether each message is decoded as it is read (else after the round: `--grpc-decode deferred`).
    let decodeInline: Bool
    var streams: [GRPCSubscriberStream] = []
    var bytesReceived = 0
    private let epoll = cmhd_reactor_create()
    private var readBuffer = [UInt8](repeating: 0, count: 65_536)
    private let callbacks: OpaquePointer?

    init(decodeInline: Bool) {
        self.decodeInline = decodeInline
        var callbacks: OpaquePointer?
        nghttp2_session_callbacks_new(&callbacks)
        nghttp2_session_callbacks_set_on_header_callback(callbacks) {
            _, frame, name, nameLength, value, valueLength, _, user in
            guard let frame, let name, let value, let user else { return 0 }
            let stream = Unmanaged<GRPCSubscriberStream>.fromOpaque(user).takeUnretainedValue()
            let field = String(decoding: UnsafeBufferPointer(start: name, count: nameLength), as: UTF8.self)
            guard cnh2_frame_is_response_headers(frame) == 0, field.hasPrefix("grpc-") else { return 0 }
            let text = String(decoding: UnsafeBufferPointer(start: value, count: valueLength), as: UTF8.self)
            stream.ending = (stream.ending.map { $0 + " " } ?? "") + "\(field): \(text)"
            return 0
        }
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks) { _, _, _, data, length, user in
            guard let data, let user else { return 0 }
            let stream = Unmanaged<GRPCSubscriberStream>.fromOpaque(user).takeUnretainedValue()
            stream.inbound.append(contentsOf: UnsafeBufferPointer(start: data, count: length))
            stream.takeMessages()
            return 0
        }
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks) { _, frame, user in
            guard let frame, let user else { return 0 }
            let stream = Unmanaged<GRPCSubscriberStream>.fromOpaque(user).takeUnretainedValue()
            switch UInt32(cnh2_frame_type(frame)) {
            case NGHTTP2_GOAWAY.rawValue:
                stream.ending = (stream.ending.map { $0 + " " } ?? "") + "GOAWAY \(cnh2_frame_goaway_error(frame))"
            case NGHTTP2_RST_STREAM.rawValue:
                stream.ending = (stream.ending.map { $0 + " " } ?? "") + "RST_STREAM \(cnh2_frame_rst_error(frame))"
            default:
                break
            }
            return 0
        }
        self.callbacks = callbacks
    }

    // MARK: SubscriberSet

    var connectionCount: Int { streams.count }

    func tally(_ index: Int) -> SubscriberTally {
        let stream = streams[index]
        return SubscriberTally(subscriptions: stream.subscriptions, events: stream.events, lastEvent: stream.lastEvent)
    }

    func settle() { for stream in streams { stream.settle() } }

    func connectionsWithoutFirstEvent() -> Int { streams.filter { !$0.everyRequestAnswered }.count }

    func extraRows() -> [String] {
        let ended = streams.compactMap(\.ending)
        let decodeTime = streams.reduce(Duration.zero) { $0 + $1.decodeTime }.milliseconds
        let decoded = streams.reduce(0) { $0 + $1.decoded }
        return [
            "| client decoding (\(decodeInline ? "inline, in the latency" : "deferred, after each round")) | "
                + "\(decoded) StreamResponse messages in \(String(format: "%.0f", decodeTime)) ms, "
                + "\(String(format: "%.1f", decodeTime * 1_000 / Double(max(1, decoded)))) µs each |",
            "| gRPC messages decoded, not counted (other request id or no data) / undecodable | "
                + "\(streams.reduce(0) { $0 + $1.rejected }) / \(streams.reduce(0) { $0 + $1.undecodable }) |",
            "| gRPC calls ended early | \(ended.count)\(ended.first.map { " (first: \($0))" } ?? "") |",
        ]
    }

    /// Reads and writes what is ready until every stream has `target` events (when given) or the deadline passes.
    mutating func pump(until deadline: ContinuousClock.Instant, reaching target: [Int]?) {
        var tokens = [UInt64](repeating: 0, count: 64)
        var readiness = [UInt32](repeating: 0, count: 64)
        while ContinuousClock.now < deadline {
            if let target, streams.indices.allSatisfy({ streams[$0].events >= target[$0] }) { return }
            let ready = Int(
                tokens.withUnsafeMutableBufferPointer { tokenBuffer in
                    readiness.withUnsafeMutableBufferPointer { readyBuffer in
                        cmhd_reactor_wait(epoll, tokenBuffer.baseAddress, readyBuffer.baseAddress, 64, 20)
                    }
                })
            for index in 0..<max(0, ready) {
                let stream = streams[Int(tokens[index]) - 1]
                if readiness[index] & 1 != 0 { readAvailable(stream) }
                flush(stream)
            }
        }
    }

    /// Closes every socket with a reset, so no TIME_WAIT state holds the client's ports for the next run.
    func closeAll() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        for stream in streams {
            setsockopt(stream.fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            close(stream.fd)
            nghttp2_session_del(stream.session)
        }
    }

    // MARK: Opening

    /// Connects, sends the preface and SETTINGS, and opens one `Connect` stream left open, carrying one `subscribe`
    /// to `searchMovies` per variable set (request ids `"1"`, `"2"`, …).
    mutating func open(port: UInt16, subscriptions variables: [JSONObject]) {
        let requests = variables.enumerated().map { index, variables in
            StreamRequest(
                requestId: String(index + 1),
                kind: .subscribe(StreamRequest.Operation(operationName: "searchMovies", variables: variables)),
                name: connectorName)
        }
        let fd = connectTo(port: port)
        cnh2_set_nodelay(fd)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let stream = GRPCSubscriberStream(
            fd: fd, token: UInt64(streams.count + 1), requests: requests, decodeInline: decodeInline)
        streams.append(stream)
        guard cmhd_reactor_watch(epoll, fd, stream.token, 0, 1) == 0 else {
            say("error: epoll_ctl failed (errno \(errno))")
            exit(1)
        }
        var session: OpaquePointer?
        guard nghttp2_session_client_new(&session, callbacks, Unmanaged.passUnretained(stream).toOpaque()) == 0
        else {
            say("error: nghttp2_session_client_new failed")
            exit(1)
        }
        stream.session = session
        var settings = [
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_ENABLE_PUSH.rawValue), value: 0),
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), value: UInt32(Self.receiveWindow)),
        ]
        nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &settings, settings.count)
        nghttp2_session_set_local_window_size(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, Self.receiveWindow)
        let fields = [
            (":method", "POST"), (":scheme", "http"), (":path", connectPath), (":authority", "127.0.0.1:\(port)"),
            ("content-type", "application/grpc"), ("te", "trailers"),
            ("x-goog-request-params", "location=l&frontend=data"),
        ]
        stream.streamID = submitRequest(session, fields)
        guard stream.streamID > 0 else {
            say("error: nghttp2_submit_request failed (\(stream.streamID))")
            exit(1)
        }
        flush(stream)
    }

    /// Submits the request headers with a body read from the stream's `body`; the request is never ended.
    private func submitRequest(_ session: OpaquePointer?, _ fields: [(String, String)]) -> Int32 {
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
            var provider = cnh2_data_provider { _, _, buffer, length, _, _, user in
                guard let buffer, let user else { return 0 }
                let stream = Unmanaged<GRPCSubscriberStream>.fromOpaque(user).takeUnretainedValue()
                let count = min(length, stream.body.count - stream.bodyOffset)
                guard count > 0 else { return Int(NGHTTP2_ERR_DEFERRED.rawValue) }
                stream.body.withUnsafeBufferPointer {
                    buffer.update(from: $0.baseAddress! + stream.bodyOffset, count: count)
                }
                stream.bodyOffset += count
                return count
            }
            return nghttp2_submit_request(session, nil, nameValues, nameValues.count, &provider, nil)
        }
    }

    // MARK: I/O

    /// Feeds what the socket holds to the session.
    private mutating func readAvailable(_ stream: GRPCSubscriberStream) {
        guard !stream.closed else { return }
        while true {
            let read = readBuffer.withUnsafeMutableBufferPointer { cnh2_read(stream.fd, $0.baseAddress, $0.count) }
            if read == -1 { return }
            if read <= 0 {
                end(stream, read == 0 ? "end of file" : "socket error")
                return
            }
            bytesReceived += read
            stream.readAt = .now
            let fed = readBuffer.withUnsafeBufferPointer {
                nghttp2_session_mem_recv(stream.session, $0.baseAddress, read)
            }
            if fed < 0 {
                end(stream, "nghttp2 error \(fed)")
                return
            }
        }
    }

    /// Writes what the session has to send (SETTINGS ACK, WINDOW_UPDATE, PING answers, the requests) until the socket
    /// takes no more, then waits for it to be writable.
    private func flush(_ stream: GRPCSubscriberStream) {
        guard !stream.closed else { return }
        while true {
            if stream.outbound.isEmpty {
                var data: UnsafePointer<UInt8>?
                let count = nghttp2_session_mem_send(stream.session, &data)
                guard count > 0, let data else { break }
                stream.outbound.append(contentsOf: UnsafeBufferPointer(start: data, count: count))
            }
            let written = stream.outbound.withUnsafeBufferPointer { cnh2_write(stream.fd, $0.baseAddress, $0.count) }
            if written == -2 {
                end(stream, "socket error on write")
                return
            }
            if written == -1 { break }
            stream.outbound.removeFirst(written)
        }
        let writable = !stream.outbound.isEmpty
        if writable != stream.watchesWritable {
            stream.watchesWritable = writable
            _ = cmhd_reactor_watch(epoll, stream.fd, stream.token, writable ? 1 : 0, 0)
        }
    }

    private func end(_ stream: GRPCSubscriberStream, _ reason: String) {
        stream.closed = true
        stream.ending = (stream.ending.map { $0 + " " } ?? "") + reason
        _ = cmhd_reactor_remove(epoll, stream.fd)
    }
}
