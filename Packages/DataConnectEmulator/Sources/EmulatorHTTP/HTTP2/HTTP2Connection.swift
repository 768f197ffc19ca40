import CNGHTTP2

#if canImport(Glibc)
import Glibc
#endif

/// One HTTP/2 connection: a non-blocking socket and an nghttp2 server session, served on its loop's thread.
///
/// nghttp2 does the protocol (framing, HPACK, flow control with automatic WINDOW_UPDATE, PING answers, SETTINGS,
/// stream states, floods); the connection moves bytes between the socket and the session (`mem_recv`, `mem_send`)
/// and turns request streams into gRPC calls (``HTTP2Stream``), or answers them 505 when they are not gRPC. A unary
/// call whose request is complete goes to the loop's list of ready calls, which the loop runs once nghttp2 has
/// returned.
final class HTTP2Connection {
    let socket: Int32
    let token: UInt64
    unowned let context: HTTP2LoopContext
    let remoteAddress: String?
    private(set) var session: OpaquePointer?
    var streams: [Int32: HTTP2Stream] = [:]
    /// Frames produced by the session and not yet taken by the socket.
    private var outbound: [UInt8] = []
    private var outboundOffset = 0
    private var watchesWritable = false
    private var lastRead = ContinuousClock.now
    private var draining = false
    private var finalGoAwaySent = false
    private var closed = false
    /// Whether the connection is on its loop's list of connections to flush.
    var isTouched = false

    /// The stream settings announced: concurrent streams, each stream's receive window.
    static let maximumConcurrentStreams: UInt32 = 256
    static let streamWindow: Int32 = 1 << 20
    /// The connection's receive window, for the sum of its streams.
    static let connectionWindow: Int32 = 16 << 20

    init?(socket: Int32, token: UInt64, context: HTTP2LoopContext, remoteAddress: String?) {
        self.socket = socket
        self.token = token
        self.context = context
        self.remoteAddress = remoteAddress
        var session: OpaquePointer?
        let created = nghttp2_session_server_new2(
            &session, context.callbacks, Unmanaged.passUnretained(self).toOpaque(), context.options)
        guard created == 0, let session else { return nil }
        self.session = session
        cnh2_set_nodelay(socket)
        var settings = [
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue),
                value: Self.maximumConcurrentStreams),
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), value: UInt32(Self.streamWindow)),
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE.rawValue),
                value: UInt32(clamping: context.shared.core.limits.header)),
        ]
        nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &settings, settings.count)
        nghttp2_session_set_local_window_size(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, Self.connectionWindow)
    }

    /// Answers a connection over the limit with SETTINGS and GOAWAY (REFUSED_STREAM), then closes it.
    static func refuse(socket: Int32, context: HTTP2LoopContext) {
        var session: OpaquePointer?
        defer { Glibc.close(socket) }
        guard nghttp2_session_server_new2(&session, context.callbacks, nil, context.options) == 0, let session else {
            return
        }
        defer { nghttp2_session_del(session) }
        nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), nil, 0)
        let reason = Array("too many connections".utf8)
        nghttp2_submit_goaway(
            session, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, NGHTTP2_REFUSED_STREAM.rawValue, reason, reason.count)
        var data: UnsafePointer<UInt8>?
        while true {
            let count = nghttp2_session_mem_send(session, &data)
            guard count > 0, let data, cnh2_write(socket, data, count) == count else { return }
        }
    }

    // MARK: I/O

    /// Reads what the socket holds (up to 1 MiB per round, for fairness) and feeds it to the session, whose answer
    /// is written at the end of the loop's round; closes the connection at end-of-file, on a socket error or a fatal
    /// protocol error.
    func readable() {
        guard let session, !closed else { return }
        lastRead = .now
        var total = 0
        while total < 1 << 20 {
            let count = cnh2_read(socket, context.readBuffer, 65_536)
            if count == -1 { break }
            if count <= 0 {
                close()
                return
            }
            total += count
            let result = nghttp2_session_mem_recv(session, context.readBuffer, count)
            if result < 0 {
                // A bad preface and the like: nghttp2 has not said GOAWAY itself in every case.
                if result == NGHTTP2_ERR_BAD_CLIENT_MAGIC.rawValue {
                    let reason = Array("expected the HTTP/2 client preface".utf8)
                    nghttp2_submit_goaway(
                        session, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, NGHTTP2_PROTOCOL_ERROR.rawValue, reason,
                        reason.count)
                } else {
                    nghttp2_session_terminate_session(session, NGHTTP2_PROTOCOL_ERROR.rawValue)
                }
                flush()
                close()
                return
            }
        }
        // Written at the end of the round, with the answers of the calls the bytes completed.
        context.touch(self)
    }

    /// Writes pending frames until the socket takes no more (then waits for it to be writable) or nothing is left;
    /// closes the connection once the session wants neither to read nor to write.
    func flush() {
        guard let session, !closed else { return }
        while true {
            if outboundOffset < outbound.count {
                let written = outbound.withUnsafeBufferPointer { buffer in
                    cnh2_write(socket, buffer.baseAddress! + outboundOffset, buffer.count - outboundOffset)
                }
                if written == -2 {
                    close()
                    return
                }
                if written == -1 {
                    watchWritable(true)
                    return
                }
                outboundOffset += written
                if outboundOffset == outbound.count {
                    outbound.removeAll(keepingCapacity: outbound.capacity <= 1 << 18)
                    outboundOffset = 0
                }
                continue
            }
            var produced = false
            while outbound.count < 1 << 16 {
                var data: UnsafePointer<UInt8>?
                let count = nghttp2_session_mem_send(session, &data)
                if count < 0 {
                    close()
                    return
                }
                guard count > 0, let data else { break }
                outbound.append(contentsOf: UnsafeBufferPointer(start: data, count: count))
                produced = true
            }
            if !produced { break }
        }
        watchWritable(false)
        if nghttp2_session_want_read(session) == 0 && nghttp2_session_want_write(session) == 0 {
            close()
        }
    }

    private func watchWritable(_ writable: Bool) {
        guard writable != watchesWritable else { return }
        watchesWritable = writable
        _ = context.eventLoop.watch(socket, token: token, writable: writable, add: false)
    }

    /// Cancels the calls still open, frees the session and closes the socket.
    func close() {
        guard !closed else { return }
        closed = true
        let open = streams.values
        streams = [:]
        for stream in open { streamGone(stream) }
        if let session { nghttp2_session_del(session) }
        session = nil
        context.remove(self)
        Glibc.close(socket)
    }

    // MARK: Lifecycle

    /// The first step of a graceful stop: a GOAWAY notice, and open streaming calls finished with UNAVAILABLE.
    func beginDrain() {
        guard let session, !draining else { return }
        draining = true
        nghttp2_submit_shutdown_notice(session)
        for stream in streams.values {
            guard case .streaming(let handler) = stream.kind, stream.outbox.isOpen else { continue }
            handler.cancelled()
            stream.outbox.finishStopping()
            service(stream)
        }
        context.touch(self)
    }

    /// The final GOAWAY, naming the last stream the server will serve.
    func sendFinalGoAway() {
        guard let session, draining, !finalGoAwaySent else { return }
        finalGoAwaySent = true
        nghttp2_submit_goaway(
            session, UInt8(NGHTTP2_FLAG_NONE.rawValue), nghttp2_session_get_last_proc_stream_id(session),
            NGHTTP2_NO_ERROR.rawValue, nil, 0)
        context.touch(self)
    }

    /// Ends an idle connection (no streams, nothing read for `timeout`) with GOAWAY, and unary calls whose request
    /// stayed incomplete that long with CANCELLED.
    func sweep(now: ContinuousClock.Instant, timeout: Duration) {
        guard let session, !closed else { return }
        if streams.isEmpty {
            if now - lastRead >= timeout {
                let reason = Array("idle for longer than the connection timeout".utf8)
                nghttp2_submit_goaway(
                    session, UInt8(NGHTTP2_FLAG_NONE.rawValue), nghttp2_session_get_last_proc_stream_id(session),
                    NGHTTP2_NO_ERROR.rawValue, reason, reason.count)
                flush()
                close()
            }
            return
        }
        for stream in Array(streams.values) where !stream.requestComplete && now - stream.lastActivity >= timeout {
            switch stream.kind {
            case .streaming, .rejected: continue
            case .pending, .unary:
                let message = "the request stayed incomplete for longer than the connection timeout (\(timeout))"
                fail(stream, GRPCStatus(.cancelled, message))
            }
        }
    }

    // MARK: Streams

    /// Starts the response of a stream whose outbox has something, or resumes its deferred DATA.
    func service(streamID: Int32) {
        guard let stream = streams[streamID] else { return }
        service(stream)
    }

    func service(_ stream: HTTP2Stream, startingEmpty: Bool = false) {
        guard let session else { return }
        stream.outbox.clearNotified()
        context.touch(self)
        if stream.responseStarted {
            if stream.isDeferred {
                stream.isDeferred = false
                nghttp2_session_resume_data(session, stream.id)
            }
            return
        }
        let (hasBytes, end) = stream.outbox.peek()
        guard hasBytes || end != nil || startingEmpty else { return }
        stream.responseStarted = true
        if !hasBytes, case .trailers(let status, let extra) = end {
            // Trailers-only: one HEADERS frame with the status, END_STREAM.
            let fields = Self.grpcResponseHeaders + GRPCWire.trailers(status, extra: extra)
            Self.withNameValues(fields) { nameValues, count in
                _ = nghttp2_submit_response(session, stream.id, nameValues, count, nil)
            }
            return
        }
        var provider = cnh2_data_provider { session, streamID, buffer, length, flags, _, user in
            guard let user, let buffer, let flags else { return Int(NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue) }
            return Unmanaged<HTTP2Connection>.fromOpaque(user).takeUnretainedValue().readData(
                streamID: streamID, into: buffer, length: length, flags: flags)
        }
        let fields = stream.plainResponseHeaders ?? Self.grpcResponseHeaders
        Self.withNameValues(fields) { nameValues, count in
            _ = nghttp2_submit_response(session, stream.id, nameValues, count, &provider)
        }
    }

    /// The data source of every response: the stream's outbox, then its end.
    private func readData(
        streamID: Int32, into buffer: UnsafeMutablePointer<UInt8>, length: Int, flags: UnsafeMutablePointer<UInt32>
    ) -> Int {
        guard let session, let stream = streams[streamID] else {
            return Int(NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue)
        }
        let (count, end) = stream.outbox.read(into: buffer, capacity: length)
        switch end {
        case .body?:
            flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
        case .trailers(let status, let extra)?:
            flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue | NGHTTP2_DATA_FLAG_NO_END_STREAM.rawValue
            Self.withNameValues(GRPCWire.trailers(status, extra: extra)) { nameValues, fieldCount in
                _ = nghttp2_submit_trailer(session, streamID, nameValues, fieldCount)
            }
        case nil:
            if count == 0 {
                stream.isDeferred = true
                return Int(NGHTTP2_ERR_DEFERRED.rawValue)
            }
        }
        return count
    }

    /// A stream closed (both sides done, reset by either side): the call ends, cancelled unless the server had ended
    /// it.
    func streamClosed(_ streamID: Int32) {
        guard let stream = streams.removeValue(forKey: streamID) else { return }
        streamGone(stream)
    }

    private func streamGone(_ stream: HTTP2Stream) {
        let endedByServer = stream.outbox.close()
        if stream.isCounted { context.shared.counters.callEnded() }
        guard !endedByServer else { return }
        stream.cancellation?.cancel()
        if case .streaming(let handler) = stream.kind { handler.cancelled() }
    }

    /// Ends a call with `status` on the server's initiative: trailers (or trailers-only), the call's cancellation
    /// fired and a streaming handler told, the rest of the request ignored (and reset once the answer is out).
    func fail(_ stream: HTTP2Stream, _ status: GRPCStatus) {
        let wasOpen = stream.outbox.isOpen
        stream.outbox.finish(.trailers(status, HTTPHeaders()))
        if wasOpen {
            stream.cancellation?.cancel()
            if case .streaming(let handler) = stream.kind { handler.cancelled() }
        }
        stream.kind = .rejected
        service(stream)
    }

    /// The deadline of a call passed: DEADLINE_EXCEEDED, unless it has ended. An answer that is ready but none of
    /// whose bytes has gone out yet (the loop was late to send it) is dropped for the status: the call did not
    /// complete within its deadline.
    func deadlinePassed(streamID: Int32) {
        guard let stream = streams[streamID] else { return }
        let status = GRPCStatus(.deadlineExceeded, Self.deadlineMessage)
        if stream.outbox.isOpen {
            fail(stream, status)
        } else if stream.outbox.replaceUnsentAnswer(with: .trailers(status, HTTPHeaders())) {
            stream.kind = .rejected
            service(stream)
        }
    }

    /// The message of a call whose deadline passed.
    static let deadlineMessage = "the deadline (grpc-timeout) passed before the call completed"

    /// After the frame that ends the server's side of a stream whose request is still open: RST_STREAM (NO_ERROR),
    /// so that the client stops sending what no one will read.
    func endedResponse(streamID: Int32) {
        guard let session, let stream = streams[streamID], !stream.requestComplete else { return }
        nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), streamID, NGHTTP2_NO_ERROR.rawValue)
    }

    // MARK: Header fields

    /// `:status 200`, `content-type: application/grpc`, `grpc-accept-encoding: identity`.
    static let grpcResponseHeaders = [
        (":status", "200"), ("content-type", "application/grpc"), ("grpc-accept-encoding", "identity"),
    ]

    /// Calls `body` with nghttp2's name-value pairs for `fields` (copied by nghttp2 when submitted).
    static func withNameValues<Result>(
        _ fields: [(String, String)], _ body: (UnsafePointer<nghttp2_nv>, Int) -> Result
    ) -> Result {
        var storage: [UInt8] = []
        storage.reserveCapacity(fields.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count })
        for (name, value) in fields {
            storage.append(contentsOf: name.utf8)
            storage.append(contentsOf: value.utf8)
        }
        return storage.withUnsafeMutableBufferPointer { bytes in
            var nameValues: [nghttp2_nv] = []
            nameValues.reserveCapacity(fields.count)
            var position = 0
            for (name, value) in fields {
                let nameLength = name.utf8.count
                let valueLength = value.utf8.count
                let base = bytes.baseAddress! + position
                nameValues.append(
                    nghttp2_nv(
                        name: base, value: base + nameLength, namelen: nameLength, valuelen: valueLength,
                        flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue)))
                position += nameLength + valueLength
            }
            return nameValues.withUnsafeBufferPointer { body($0.baseAddress!, $0.count) }
        }
    }
}
