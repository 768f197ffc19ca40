import CNGHTTP2

/// nghttp2's callbacks, and what the connection makes of the requests they report.
extension HTTP2Connection {
    /// The callbacks every session of a loop uses; the user data is the ``HTTP2Connection``.
    static func makeCallbacks() -> OpaquePointer {
        var made: OpaquePointer?
        nghttp2_session_callbacks_new(&made)
        let callbacks = made!
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks) { _, frame, user in
            guard let frame, let user, cnh2_frame_is_request_headers(frame) != 0 else { return 0 }
            HTTP2Connection.connection(user).beginRequest(streamID: cnh2_frame_stream(frame))
            return 0
        }
        nghttp2_session_callbacks_set_on_header_callback(callbacks) {
            _, frame, name, nameLength, value, valueLength, _, user in
            guard let frame, let name, let value, let user else { return 0 }
            return HTTP2Connection.connection(user).header(
                streamID: cnh2_frame_stream(frame), isRequest: cnh2_frame_is_request_headers(frame) != 0,
                name: UnsafeRawBufferPointer(start: name, count: nameLength),
                value: UnsafeRawBufferPointer(start: value, count: valueLength))
        }
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks) { _, frame, user in
            guard let frame, let user else { return 0 }
            HTTP2Connection.connection(user).frameReceived(frame)
            return 0
        }
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks) { _, _, streamID, data, length, user in
            guard let data, let user else { return 0 }
            HTTP2Connection.connection(user).dataReceived(
                streamID: streamID, UnsafeRawBufferPointer(start: data, count: length))
            return 0
        }
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks) { _, streamID, _, user in
            guard let user else { return 0 }
            HTTP2Connection.connection(user).streamClosed(streamID)
            return 0
        }
        nghttp2_session_callbacks_set_on_frame_send_callback(callbacks) { _, frame, user in
            guard let frame, let user else { return 0 }
            let type = cnh2_frame_type(frame)
            let endsStream = cnh2_frame_flags(frame) & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
            if endsStream && (type == UInt8(NGHTTP2_HEADERS.rawValue) || type == UInt8(NGHTTP2_DATA.rawValue)) {
                HTTP2Connection.connection(user).endedResponse(streamID: cnh2_frame_stream(frame))
            }
            return 0
        }
        return callbacks
    }

    private static func connection(_ user: UnsafeMutableRawPointer) -> HTTP2Connection {
        Unmanaged<HTTP2Connection>.fromOpaque(user).takeUnretainedValue()
    }

    // MARK: Requests

    private func beginRequest(streamID: Int32) {
        let loop = context.loop
        let token = token
        let outbox = StreamOutbox { loop.post(.wake(connection: token, stream: streamID)) }
        streams[streamID] = HTTP2Stream(id: streamID, outbox: outbox)
    }

    /// One header field; past the limit the fields are dropped and the request is refused once the block is in.
    private func header(
        streamID: Int32, isRequest: Bool, name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer
    ) -> Int32 {
        guard isRequest, let stream = streams[streamID], !stream.headersTooLarge else { return 0 }
        stream.headerListSize += name.count + value.count + 32
        if stream.headerListSize > context.shared.core.limits.header {
            stream.headersTooLarge = true
            stream.metadata = []
            return 0
        }
        let name = String(decoding: name, as: UTF8.self)
        let value = String(decoding: value, as: UTF8.self)
        switch name {
        case ":method": stream.method = value
        case ":path": stream.path = value
        case ":authority": stream.authority = value
        case ":scheme": break
        default: stream.metadata.append(HTTPHeaders.Field(name: name, value: value))
        }
        return 0
    }

    private func frameReceived(_ frame: UnsafePointer<nghttp2_frame>) {
        let type = cnh2_frame_type(frame)
        guard type == UInt8(NGHTTP2_HEADERS.rawValue) || type == UInt8(NGHTTP2_DATA.rawValue),
            let stream = streams[cnh2_frame_stream(frame)]
        else { return }
        stream.lastActivity = .now
        if cnh2_frame_is_request_headers(frame) != 0 { headersComplete(stream) }
        if cnh2_frame_flags(frame) & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0 { requestEnded(stream) }
    }

    private func dataReceived(streamID: Int32, _ bytes: UnsafeRawBufferPointer) {
        guard let stream = streams[streamID] else { return }
        stream.lastActivity = .now
        switch stream.kind {
        case .pending, .rejected:
            return
        case .unary:
            let failure = stream.reader.receive(bytes, limit: context.shared.core.limits.body) { message in
                if stream.message == nil {
                    stream.message = message
                } else {
                    stream.message = []
                    stream.kind = .rejected
                }
            }
            if let failure {
                fail(stream, failure)
            } else if case .rejected = stream.kind {
                fail(stream, GRPCStatus(.internal, "a unary method takes one request message; more than one was sent"))
            }
        case .streaming(let handler):
            let failure = stream.reader.receive(bytes, limit: context.shared.core.limits.body) { message in
                if stream.outbox.isOpen { handler.received(message) }
            }
            if let failure { fail(stream, failure) }
        }
    }

    /// The request's HEADERS are complete: a gRPC call starts, or the stream is answered at once.
    private func headersComplete(_ stream: HTTP2Stream) {
        let limits = context.shared.core.limits
        let contentType = stream.header("content-type")
        guard stream.method == "POST", GRPCWire.isGRPC(contentType: contentType) || stream.headersTooLarge else {
            respondPlain(
                stream, status: HTTPStatus(code: 505),
                message: "this port serves gRPC over HTTP/2 (POST with content-type application/grpc); "
                    + "send REST, WebSocket and console requests over HTTP/1.1",
                code: "UNIMPLEMENTED")
            return
        }
        stream.isCounted = true
        context.shared.counters.callStarted()
        if stream.headersTooLarge {
            fail(stream, GRPCStatus(.resourceExhausted, "request header fields exceed \(limits.header) bytes"))
            return
        }
        guard let contentType, GRPCWire.isProtobuf(contentType: contentType) else {
            let message = "content-type \(contentType ?? "") is not supported: use application/grpc (protobuf)"
            fail(stream, GRPCStatus(.unimplemented, message))
            return
        }
        var deadline: ContinuousClock.Instant?
        if let timeout = stream.header("grpc-timeout") {
            guard let duration = GRPCWire.timeout(timeout) else {
                fail(stream, GRPCStatus(.internal, "malformed grpc-timeout '\(timeout)'"))
                return
            }
            deadline = .now + duration
        }
        let path = stream.path ?? ""
        guard let method = context.shared.service?.method(for: path) else {
            fail(stream, GRPCStatus(.unimplemented, "unknown method \(path)"))
            return
        }
        let head = GRPCCallHead(
            path: path, metadata: HTTPHeaders(stream.metadata), deadline: deadline, remoteAddress: remoteAddress,
            authority: stream.authority)
        stream.metadata = []
        stream.head = head
        let core = context.shared.core
        let call = GRPCServerStream(head: head, outbox: stream.outbox) { run, abandon in
            core.submitToLanes(run: run, abandon: abandon)
        }
        stream.call = call
        if let deadline { context.addDeadline(deadline, connection: token, stream: stream.id) }
        switch method {
        case .unary(let respond):
            stream.cancellation = GRPCCancellation()
            stream.kind = .unary(respond)
        case .bidirectionalStreaming(let open):
            let handler = open(head, call)
            stream.kind = .streaming(handler)
            // The response's HEADERS go out at once: the call is accepted.
            service(stream, startingEmpty: true)
        }
    }

    /// The client half-closed: a unary call is ready to run; a streaming handler is told.
    private func requestEnded(_ stream: HTTP2Stream) {
        stream.requestComplete = true
        switch stream.kind {
        case .pending, .rejected:
            return
        case .unary(let respond):
            guard let message = stream.message, !stream.reader.hasPartialMessage, let head = stream.head,
                let call = stream.call, let cancellation = stream.cancellation
            else {
                fail(
                    stream,
                    GRPCStatus(.internal, "a unary method takes one request message; the request ended without one"))
                return
            }
            stream.message = nil
            let unary = GRPCUnaryCall(head: head, message: message, cancellation: cancellation)
            // Run by the loop once nghttp2 has returned, on the loop's thread.
            context.callReady(
                HTTP2LoopContext.ReadyCall(connection: self, stream: stream) {
                    let result = respond(unary)
                    // An answer made after the deadline is not sent: the call ends as its deadline says.
                    if let deadline = head.deadline, ContinuousClock.now >= deadline {
                        call.finish(GRPCStatus(.deadlineExceeded, HTTP2Connection.deadlineMessage))
                        return
                    }
                    if let message = result.message { call.send(message) }
                    call.finish(result.status, trailers: result.trailers)
                })
        case .streaming(let handler):
            if stream.reader.hasPartialMessage {
                fail(stream, GRPCStatus(.internal, "the request ended in the middle of a message"))
            } else if stream.outbox.isOpen {
                handler.clientFinished()
            }
        }
    }

    /// A plain HTTP answer with the JSON error body the REST side uses, END_STREAM on its DATA.
    private func respondPlain(_ stream: HTTP2Stream, status: HTTPStatus, message: String, code: String) {
        stream.kind = .rejected
        let response = ServerCore.errorResponse(status, message, code)
        stream.plainResponseHeaders = [(":status", String(status.code)), ("content-type", "application/json")]
        if case .bytes(let body) = response.body { stream.outbox.append(body) }
        stream.outbox.finish(.body)
        service(stream)
    }
}
