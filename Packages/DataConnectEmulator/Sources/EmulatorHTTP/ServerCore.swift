import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// What both HTTP/1.1 sides share: the responder, the limits, the run's WebSocket reactor, lingering close and
/// lanes, the count of requests in progress, the log; and the libmicrohttpd side's callbacks, which reach it through
/// their `void *` argument.
///
/// Immutable apart from the lock-guarded run state and last log message, because the callbacks
/// run concurrently on the daemon's worker threads.
final class ServerCore: Sendable {
    /// The sizes over which the server answers a request itself, in bytes.
    struct Limits: Sendable {
        /// The request body (413).
        var body: Int
        /// The request target as sent (414).
        var uri: Int
        /// The request line and header fields (431).
        var header: Int
        /// A WebSocket message, fragments included (close 1009).
        var webSocketMessage: Int
        /// Open WebSockets (503 for one more upgrade); 0 for no limit.
        var webSockets: Int
    }

    let responder: any HTTPResponder
    let limits: Limits
    private let logHandler: (@Sendable (String) -> Void)?
    private let lastLogMessage = Mutex<String?>(nil)
    /// Requests the access handler has seen and libmicrohttpd has not yet reported complete (answered, or their
    /// connection closed).
    let requestsInProgress = Atomic<Int>(0)
    /// Serves upgraded (WebSocket) connections; one per run of the server.
    let webSocketReactor = Mutex<WebSocketReactor?>(nil)
    /// Drains the connections of requests refused before their body; started for a run's first refusal.
    let lingeringClose = Mutex<LingeringClose?>(nil)
    /// Runs the requests the responder marks as heavy, off the connections' threads; one per run of the server.
    let lanes = Mutex<RequestLanes?>(nil)

    init(responder: any HTTPResponder, limits: Limits, logHandler: (@Sendable (String) -> Void)?) {
        self.responder = responder
        self.limits = limits
        self.logHandler = logHandler
    }

    // MARK: Requests

    /// The access handler: called after the headers, for each piece of body, and once the body is complete.
    func handle(
        connection: OpaquePointer,
        url: UnsafePointer<CChar>?,
        method: UnsafePointer<CChar>?,
        version: UnsafePointer<CChar>?,
        uploadData: UnsafePointer<CChar>?,
        uploadDataSize: UnsafeMutablePointer<Int>,
        context: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        if let raw = context.pointee, raw != Self.targetTooLongMarker {
            if raw == Self.answeredMarker {
                uploadDataSize.pointee = 0
                return .YES
            }
            if raw == Self.noBodyMarker {
                if uploadDataSize.pointee > 0 {
                    uploadDataSize.pointee = 0
                    return .YES
                }
                return answer(
                    connection: connection, url: url, method: method, version: version, body: [], context: context)
            }
            let requestContext = Unmanaged<RequestContext>.fromOpaque(raw).takeUnretainedValue()
            if let deferred = requestContext.deferred {
                // Called again once the lane that ran the request resumed the connection.
                uploadDataSize.pointee = 0
                guard let response = deferred.take() else { return .YES }
                return queue(response, on: connection)
            }
            let size = uploadDataSize.pointee
            if size > 0 {
                requestContext.receive(uploadData, count: size, limit: limits.body)
                uploadDataSize.pointee = 0
                return .YES
            }
            if requestContext.exceedsLimit {
                return queue(bodyTooLarge(), on: connection)
            }
            let body = requestContext.takeBody()
            return answer(
                connection: connection, url: url, method: method, version: version, body: body, context: context)
        }

        // First call: the headers are in, the body (if any) is not. From now on libmicrohttpd reports the
        // request's completion.
        requestsInProgress.add(1, ordering: .relaxed)
        // The headers are in, the body (if any) is not. A response queued now, before the request
        // is complete, makes libmicrohttpd close the connection once it is sent: right for refusals, which
        // leave the rest of the request unread.
        if let refusal = refusal(of: connection, targetTooLong: context.pointee == Self.targetTooLongMarker) {
            context.pointee = Self.answeredMarker
            return refuse(refusal, on: connection)
        }
        if MHD_lookup_connection_value(connection, .HEADER_KIND, "Transfer-Encoding") != nil {
            context.pointee = Unmanaged.passRetained(RequestContext(expectedLength: 0)).toOpaque()
            return .YES
        }
        if let header = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length") {
            let length = Self.parseContentLength(header)
            if length > limits.body {
                context.pointee = Self.answeredMarker
                return refuse(bodyTooLarge(), on: connection)
            }
            if length > 0 {
                context.pointee = Unmanaged.passRetained(RequestContext(expectedLength: length)).toOpaque()
                return .YES
            }
        }
        // Answering now would make libmicrohttpd close the connection afterwards; the next call, once the
        // request is complete, answers instead.
        context.pointee = Self.noBodyMarker
        return .YES
    }

    /// Queues the answer to a request refused before its body. libmicrohttpd closes the connection once the answer
    /// is sent, with the rest of the request unread; the connection lingers (``LingeringClose``) so that a client
    /// still sending reads the answer rather than a reset.
    private func refuse(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        // libmicrohttpd closes after an answer queued this early; saying so makes it certain, whatever the method,
        // so that no later request on the connection can be mistaken for the rest of this one and drained.
        var response = response
        response.headers.add(name: "Connection", value: "close")
        let socket = cmhd_connection_fd(connection)
        if socket >= 0 {
            let closer = lingeringClose.withLock { closer in
                if closer == nil { closer = LingeringClose(log: log) }
                return closer
            }
            closer?.adopt(socket: socket)
        }
        return queue(response, on: connection)
    }

    /// The URI logger: called with the request target as sent, once the request line is parsed; what it returns
    /// becomes the request's first per-request context.
    func requestTargetReceived(_ target: UnsafePointer<CChar>) -> UnsafeMutableRawPointer? {
        strnlen(target, limits.uri + 1) > limits.uri ? Self.targetTooLongMarker : nil
    }

    /// The error answer for a request the server refuses before reading its body, or `nil` to go on.
    ///
    /// The checks, in order: the request target's length (414), the header section's size (431), and framing
    /// headers that contradict each other or name a transfer coding libmicrohttpd does not decode (400, 501).
    private func refusal(of connection: OpaquePointer, targetTooLong: Bool) -> HTTPResponse? {
        if targetTooLong {
            let message = "request target (path and query) exceeds \(limits.uri) bytes"
            return Self.errorResponse(.uriTooLong, message, "RESOURCE_EXHAUSTED")
        }
        let headerSize = cmhd_connection_header_size(connection)
        if headerSize > limits.header {
            let message = "request header fields exceed \(limits.header) bytes (\(headerSize) received)"
            return Self.errorResponse(.requestHeaderFieldsTooLarge, message, "RESOURCE_EXHAUSTED")
        }
        let framing = Self.framingHeaders(of: connection)
        if !framing.transferEncodings.isEmpty {
            if !framing.contentLengths.isEmpty {
                let message = "a request may not carry both Transfer-Encoding and Content-Length"
                return Self.errorResponse(.badRequest, message, "INVALID_ARGUMENT")
            }
            for coding in framing.transferEncodings where !Self.isChunked(coding) {
                let message = "Transfer-Encoding \"\(coding)\" is not supported; send Content-Length or chunked"
                return Self.errorResponse(.notImplemented, message, "UNIMPLEMENTED")
            }
        }
        if let first = framing.contentLengths.first, framing.contentLengths.contains(where: { $0 != first }) {
            let values = framing.contentLengths.joined(separator: ", ")
            return Self.errorResponse(.badRequest, "conflicting Content-Length values: \(values)", "INVALID_ARGUMENT")
        }
        return nil
    }

    /// The `Content-Length` and `Transfer-Encoding` values of a request, every occurrence.
    private struct FramingHeaders {
        var contentLengths: [String] = []
        var transferEncodings: [String] = []
    }

    private static func framingHeaders(of connection: OpaquePointer) -> FramingHeaders {
        var found = FramingHeaders()
        withUnsafeMutablePointer(to: &found) { pointer in
            _ = MHD_get_connection_values_n(
                connection, .HEADER_KIND,
                { cls, _, key, keySize, value, valueSize in
                    guard let cls, let key else { return .YES }
                    let found = cls.assumingMemoryBound(to: FramingHeaders.self)
                    if keySize == 14 && strncasecmp(key, "Content-Length", 14) == 0 {
                        found.pointee.contentLengths.append(ServerCore.string(value, count: valueSize))
                    } else if keySize == 17 && strncasecmp(key, "Transfer-Encoding", 17) == 0 {
                        found.pointee.transferEncodings.append(ServerCore.string(value, count: valueSize))
                    }
                    return .YES
                }, pointer)
        }
        return found
    }

    /// Whether a `Transfer-Encoding` value is `chunked` alone: the only value libmicrohttpd decodes (compared as
    /// it does, ignoring case); with any other it would read the body until the connection closes.
    private static func isChunked(_ coding: String) -> Bool {
        coding.lowercased() == "chunked"
    }

    /// The per-request context of a request without a body; not a real object, never dereferenced.
    private static var noBodyMarker: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: 1)! }
    /// The per-request context the URI logger sets for a request target over the limit.
    private static var targetTooLongMarker: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: 2)! }
    /// The per-request context of a request answered before its body: what is left of it is discarded.
    private static var answeredMarker: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: 3)! }

    /// Frees the per-request context once libmicrohttpd is done with the request.
    func requestCompleted(context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        requestsInProgress.subtract(1, ordering: .relaxed)
        Self.releaseContext(context)
    }

    /// The number of requests begun and not yet complete.
    var inProgressCount: Int { requestsInProgress.load(ordering: .relaxed) }

    private static func releaseContext(_ context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        guard let raw = context.pointee, UInt(bitPattern: raw) > 3 else { return }
        Unmanaged<RequestContext>.fromOpaque(raw).release()
        context.pointee = nil
    }

    private func answer(
        connection: OpaquePointer,
        url: UnsafePointer<CChar>?,
        method: UnsafePointer<CChar>?,
        version: UnsafePointer<CChar>?,
        body: [UInt8],
        context: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        let request = HTTPRequest(
            method: HTTPMethod(rawValue: method.map { String(cString: $0) } ?? "GET"),
            path: url.map { String(cString: $0) } ?? "/",
            query: Self.queryItems(of: connection),
            headers: HTTPHeaders(Self.headerFields(of: connection)),
            body: body,
            version: version.map { String(cString: $0) } ?? "HTTP/1.1",
            remoteAddress: Self.clientAddress(of: connection)
        )
        if responder.runsInLanes(request), let lanes = lanes.withLock({ $0 }) {
            return runInLanes(request, on: lanes, connection: connection, context: context)
        }
        let response = responder.respond(to: request)
        return queue(response, on: connection)
    }

    /// Suspends the connection and runs the request on `lanes`; the lane resumes the connection with the answer,
    /// which the next call of the access handler queues.
    private func runInLanes(
        _ request: HTTPRequest, on lanes: RequestLanes, connection: OpaquePointer,
        context: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        let requestContext: RequestContext
        if let raw = context.pointee, UInt(bitPattern: raw) > 3 {
            requestContext = Unmanaged<RequestContext>.fromOpaque(raw).takeUnretainedValue()
        } else {
            requestContext = RequestContext(expectedLength: 0)
            context.pointee = Unmanaged.passRetained(requestContext).toOpaque()
        }
        let deferred = DeferredAnswer()
        requestContext.deferred = deferred
        let suspended = SuspendedConnection(connection)
        MHD_suspend_connection(connection)
        let responder = responder
        let submitted = lanes.submit(
            run: {
                deferred.store(responder.respond(to: request))
                suspended.resume()
            },
            abandon: {
                deferred.store(Self.errorResponse(.serviceUnavailable, "server is stopping", "UNAVAILABLE"))
                suspended.resume()
            })
        if !submitted {
            deferred.store(Self.errorResponse(.serviceUnavailable, "server is stopping", "UNAVAILABLE"))
            suspended.resume()
        }
        return .YES
    }

    private static func clientAddress(of connection: OpaquePointer) -> String? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            guard cmhd_connection_client_address(connection, buffer.baseAddress, 64) == 0 else { return nil }
            return String(cString: buffer.baseAddress!)
        }
    }

    private static func headerFields(of connection: OpaquePointer) -> [HTTPHeaders.Field] {
        var fields: [HTTPHeaders.Field] = []
        fields.reserveCapacity(12)
        withUnsafeMutablePointer(to: &fields) { pointer in
            _ = MHD_get_connection_values_n(
                connection, .HEADER_KIND,
                { cls, _, key, keySize, value, valueSize in
                    guard let cls else { return .NO }
                    let fields = cls.assumingMemoryBound(to: [HTTPHeaders.Field].self)
                    fields.pointee.append(
                        HTTPHeaders.Field(
                            name: ServerCore.string(key, count: keySize),
                            value: ServerCore.string(value, count: valueSize)))
                    return .YES
                }, pointer)
        }
        return fields
    }

    private static func queryItems(of connection: OpaquePointer) -> [HTTPRequest.QueryItem] {
        var items: [HTTPRequest.QueryItem] = []
        withUnsafeMutablePointer(to: &items) { pointer in
            _ = MHD_get_connection_values_n(
                connection, .GET_ARGUMENT_KIND,
                { cls, _, key, keySize, value, valueSize in
                    guard let cls else { return .NO }
                    let items = cls.assumingMemoryBound(to: [HTTPRequest.QueryItem].self)
                    items.pointee.append(
                        HTTPRequest.QueryItem(
                            name: ServerCore.string(key, count: keySize),
                            value: value.map { ServerCore.string($0, count: valueSize) }))
                    return .YES
                }, pointer)
        }
        return items
    }

    private static func string(_ pointer: UnsafePointer<CChar>?, count: Int) -> String {
        guard let pointer, count > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// Parses a Content-Length value; anything unparsable or too large counts as `Int.max`.
    static func parseContentLength(_ text: UnsafePointer<CChar>) -> Int {
        var value = 0
        var pointer = text
        var sawDigit = false
        while pointer.pointee == 0x20 || pointer.pointee == 0x09 { pointer += 1 }
        while pointer.pointee >= 0x30, pointer.pointee <= 0x39 {
            let digit = Int(pointer.pointee - 0x30)
            if value > (Int.max - digit) / 10 { return Int.max }
            value = value * 10 + digit
            sawDigit = true
            pointer += 1
        }
        return sawDigit ? value : Int.max
    }

    // MARK: Responses

    private func bodyTooLarge() -> HTTPResponse {
        Self.errorResponse(.contentTooLarge, "request body exceeds \(limits.body) bytes", "RESOURCE_EXHAUSTED")
    }

    /// A Google-API-style JSON error, the shape clients of the emulator expect from every endpoint.
    static func errorResponse(_ status: HTTPStatus, _ message: String, _ code: String) -> HTTPResponse {
        var body = #"{"error":{"code":\#(status.code),"message":""#
        for scalar in message.unicodeScalars {
            switch scalar {
            case "\"": body += "\\\""
            case "\\": body += "\\\\"
            case "\u{0}"..."\u{1F}": body += "\\u00" + (scalar.value < 16 ? "0" : "") + String(scalar.value, radix: 16)
            default: body.unicodeScalars.append(scalar)
            }
        }
        body += #"","status":"\#(code)"}}"#
        return .json(body, status: status)
    }

    private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        var status = response.status.code
        if case .webSocket(let handler) = response.body, status == 101 {
            return queueUpgrade(response, handler: handler, on: connection)
        }
        if status < 200 || status > 999 {
            log("responder returned status \(status); sending 500 instead")
            status = 500
        }
        let created: OpaquePointer?
        switch response.body {
        case .bytes(let bytes):
            created = bytes.withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(
                    buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
            }
        case .webSocket:
            log("a WebSocket response must have status 101; sending 500 instead")
            let message = "WebSocket response without status 101"
            return queue(Self.errorResponse(.internalServerError, message, "INTERNAL"), on: connection)
        }
        guard let created else {
            log("libmicrohttpd could not create a response")
            return .NO
        }
        addHeaders(response.headers, to: created)
        let result = MHD_queue_response(connection, UInt32(status), created)
        MHD_destroy_response(created)
        return result
    }

    /// Adds the response's header fields to a libmicrohttpd response, logging any it refuses.
    private func addHeaders(_ headers: HTTPHeaders, to created: OpaquePointer) {
        for field in headers {
            let added = field.name.withCString { name in
                field.value.withCString { value in MHD_add_response_header(created, name, value) }
            }
            if added != .YES {
                log("response header '\(field.name)' rejected by libmicrohttpd; not sent")
            }
        }
    }

    /// Queues a 101 response whose connection libmicrohttpd hands over to the WebSocket reactor once it is sent.
    private func queueUpgrade(
        _ response: HTTPResponse, handler: any WebSocketHandler, on connection: OpaquePointer
    ) -> MHD_Result {
        guard let reactor = webSocketReactor.withLock({ $0 }) else {
            let message = "server is stopping"
            return queue(Self.errorResponse(.serviceUnavailable, message, "UNAVAILABLE"), on: connection)
        }
        // Upgraded connections are the reactor's, no longer libmicrohttpd's: the connection limit counts them here.
        if limits.webSockets > 0 && reactor.count >= limits.webSockets {
            let message = "too many open WebSockets: the limit is \(limits.webSockets) (connectionLimit)"
            return queue(Self.errorResponse(.serviceUnavailable, message, "UNAVAILABLE"), on: connection)
        }
        // libmicrohttpd has no release callback for upgrade responses: the binding is released by the upgrade
        // handler, and leaks (a few hundred bytes) only when the client vanishes before the 101 is sent.
        let binding = Unmanaged.passRetained(UpgradeBinding(core: self, handler: handler))
        let created = MHD_create_response_for_upgrade(
            { cls, _, _, extraIn, extraInSize, socket, upgrade in
                guard let cls else { return }
                let binding = Unmanaged<UpgradeBinding>.fromOpaque(cls).takeRetainedValue()
                guard let upgrade else { return }
                let extra = extraIn.map { Array(UnsafeRawBufferPointer(start: $0, count: extraInSize)) } ?? []
                binding.core.adopt(socket: socket, upgrade: upgrade, extra: extra, handler: binding.handler)
            }, binding.toOpaque())
        guard let created else {
            binding.release()
            log("libmicrohttpd could not create an upgrade response")
            return .NO
        }
        addHeaders(response.headers, to: created)
        let result = MHD_queue_response(connection, 101, created)
        MHD_destroy_response(created)
        return result
    }

    /// Hands an upgraded socket to the reactor, or back to libmicrohttpd when the server is stopping.
    private func adopt(socket: Int32, upgrade: OpaquePointer, extra: [UInt8], handler: any WebSocketHandler) {
        guard let reactor = webSocketReactor.withLock({ $0 }) else {
            _ = cmhd_upgrade_close(upgrade)
            return
        }
        reactor.adopt(
            descriptor: socket, upgrade: upgrade, extra: extra, handler: handler,
            maximumMessageSize: limits.webSocketMessage)
    }

    // MARK: Runs

    /// Gets ready to serve WebSockets (before a start).
    func acceptWebSockets() {
        webSocketReactor.withLock { reactor in
            if reactor == nil { reactor = WebSocketReactor(log: { [weak self] in self?.log($0) }) }
        }
    }

    /// Closes every WebSocket with 1001 (going away), waits up to `grace` for the close handshakes, then hands every
    /// upgraded socket back to libmicrohttpd, which must not stop while one is open. New upgrades are refused.
    func closeWebSockets(grace: Duration) {
        let reactor = webSocketReactor.withLock { reactor in
            defer { reactor = nil }
            return reactor
        }
        reactor?.stop(grace: grace)
    }

    /// Starts the request lanes of a run (before a start).
    func startLanes(_ configuration: RequestLanes.Configuration, threadStarted: (@Sendable (LaneWorker) -> Void)?) {
        lanes.withLock { $0 = RequestLanes(configuration: configuration, threadStarted: threadStarted) }
    }

    /// Stops the request lanes: requests not started are answered 503, running ones get up to `grace` to end.
    func stopLanes(grace: Duration) {
        let stopping = lanes.withLock { lanes in
            defer { lanes = nil }
            return lanes
        }
        if let stopping, !stopping.stop(grace: grace) {
            log("requests still running after \(grace); stopping anyway")
        }
    }

    /// Runs `run` on the request lanes (`abandon` instead if they stop first); `false` when there are none (the
    /// server is stopping), and neither closure runs.
    func submitToLanes(run: @escaping @Sendable () -> Void, abandon: @escaping @Sendable () -> Void) -> Bool {
        guard let lanes = lanes.withLock({ $0 }) else { return false }
        return lanes.submit(run: run, abandon: abandon)
    }

    /// The lanes' state, while the server runs.
    var laneSnapshot: RequestLanes.Snapshot? {
        lanes.withLock { $0?.snapshot }
    }

    /// Closes the connections still lingering after refusals (once libmicrohttpd has stopped).
    func closeLingeringConnections() {
        let closer = lingeringClose.withLock { closer in
            defer { closer = nil }
            return closer
        }
        closer?.stop()
    }

    // MARK: Logging

    /// Records a libmicrohttpd or server message and passes it to the configured handler.
    func log(_ message: String) {
        lastLogMessage.withLock { $0 = message }
        logHandler?(message)
    }

    /// Returns and clears the last logged message.
    func takeLastLogMessage() -> String? {
        lastLogMessage.withLock { message in
            defer { message = nil }
            return message
        }
    }
}

/// The body of one request as it arrives; lives in libmicrohttpd's per-request `con_cls` slot.
///
/// Only the worker thread serving the connection touches it (a request run on the lanes hands its answer over
/// through ``deferred``).
final class RequestContext {
    private(set) var body: [UInt8] = []
    private(set) var exceedsLimit = false
    /// Set when the request runs on the lanes: where the answer waits for the connection's thread.
    var deferred: DeferredAnswer?

    init(expectedLength: Int) {
        if expectedLength > 0 {
            body.reserveCapacity(expectedLength)
        }
    }

    /// Appends a piece of the body, or drops it (and what was received) once the limit is crossed.
    func receive(_ data: UnsafePointer<CChar>?, count: Int, limit: Int) {
        guard !exceedsLimit, let data else { return }
        if count > limit - body.count {
            exceedsLimit = true
            body = []
            return
        }
        body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: count))
    }

    /// Moves the body out.
    func takeBody() -> [UInt8] {
        defer { body = [] }
        return body
    }
}

/// What the upgrade handler of a WebSocket response needs: the core that adopts the socket, and the handler.
private final class UpgradeBinding: Sendable {
    let core: ServerCore
    let handler: any WebSocketHandler

    init(core: ServerCore, handler: any WebSocketHandler) {
        self.core = core
        self.handler = handler
    }
}

/// The answer of a request run on the lanes, handed from the lane's thread to the connection's.
final class DeferredAnswer: Sendable {
    private let response = Mutex<HTTPResponse?>(nil)

    func store(_ answer: HTTPResponse) {
        response.withLock { $0 = answer }
    }

    /// The answer, once; `nil` before it is stored.
    func take() -> HTTPResponse? {
        response.withLock { answer in
            defer { answer = nil }
            return answer
        }
    }
}

/// A suspended libmicrohttpd connection, resumed from a lane's thread (libmicrohttpd allows that from any thread).
private struct SuspendedConnection: @unchecked Sendable {
    let connection: OpaquePointer

    init(_ connection: OpaquePointer) {
        self.connection = connection
    }

    func resume() {
        MHD_resume_connection(connection)
    }
}
