#if canImport(Glibc)
import Glibc
#endif

/// One HTTP/1.1 connection of an ``HTTP1Loop``: reads requests, hands each complete one to the responder, and
/// writes the answers in order.
///
/// Bytes are read into the loop's buffer and parsed there; only what a request has not completed (a partial head,
/// a pipelined next request) is copied into the connection's own ``pending`` bytes, which grow as a request needs
/// and no further than the header limit. A body is copied once, into the array the responder receives. Answers go
/// out with one `sendmsg` for head and body; what the socket does not take waits in ``outbound`` for `EPOLLOUT`,
/// and the connection reads nothing more until it is written, so a client that does not read its answers cannot
/// make the server buffer more.
///
/// Everything here runs on the thread that owns the loop at the time (see ``HTTP1Loop``).
final class HTTP1Connection {
    /// What the connection is doing.
    enum Phase {
        /// Reading a request head (or waiting for one).
        case head
        /// Counting the rest of a head over the header limit, to refuse it with its size.
        case oversizedHead
        /// Reading a request body.
        case body
        /// The responder has the request, on this thread or on one the loop was taken from.
        case running
        /// Writing an answer after which the connection ends (a refusal, `Connection: close`, an upgrade).
        case finishing
    }

    /// What the loop must do with the connection after an event.
    enum Outcome {
        case keep
        /// Close the socket and forget the connection.
        case close
        /// The connection has left the loop already (its socket went to the WebSocket reactor or to the lingering
        /// close).
        case gone
        /// The responder ran past its time on this thread, and another thread owns the loop now: return at once,
        /// touching nothing.
        case handedOver
    }

    /// What happens once ``outbound`` has been written.
    private enum AfterFlush {
        /// Go on reading (after a `100 Continue`).
        case resumeReading
        /// The answer is out: the next request, if the connection stays open.
        case nextRequest(close: Bool)
        /// A refusal is out: the client may still be sending, so the socket lingers.
        case linger
        /// A `101` is out: the socket goes to the WebSocket reactor.
        case upgrade(any WebSocketHandler)
    }

    /// What epoll watches for.
    enum Interest {
        case read
        case write
        /// Nothing: the connection's request runs on a thread that no longer owns the loop.
        case none
    }

    let socket: Int32
    let token: UInt64
    let remoteAddress: String?
    unowned let context: HTTP1LoopContext
    var lastActivity: ContinuousClock.Instant
    private(set) var phase = Phase.head
    private(set) var interest = Interest.none
    private var registered = false

    /// Bytes read and not yet consumed: a partial head, or what follows the request being answered.
    private(set) var pending: [UInt8] = []
    private var scanner = HTTP1HeadScanner()
    private var targetChecked = false
    private var oversized = (counted: 0, lineEmpty: false)

    private var head: HTTP1Head?
    private var body: [UInt8] = []
    private var remainingBody = 0
    private var chunked: HTTP1ChunkedDecoder?

    private var outbound: [UInt8] = []
    private var outboundOffset = 0
    private var afterFlush = AfterFlush.resumeReading
    /// Whether a request of this connection counts in the server's requests in progress.
    private var countsInProgress = false
    /// Whether the client shut its side down while a request was being answered.
    private var peerFinished = false

    init(socket: Int32, token: UInt64, remoteAddress: String?, context: HTTP1LoopContext) {
        self.socket = socket
        self.token = token
        self.remoteAddress = remoteAddress
        self.context = context
        self.lastActivity = .now
    }

    /// Whether the connection waits for a request, with nothing half-read or unwritten.
    var isIdle: Bool { phase == .head && pending.isEmpty && outbound.isEmpty }

    /// Whether the idle timeout applies: not while the responder has the request.
    var canTimeOut: Bool { phase != .running || !outbound.isEmpty }

    // MARK: Events

    /// Reads what the socket holds and acts on it.
    func readable() -> Outcome {
        if interest == .write { return writable() }
        guard interest == .read else { return .keep }
        let buffer = context.readBuffer
        while true {
            let count = recv(socket, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
            if count > 0 {
                lastActivity = .now
                let outcome = receive(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                guard case .keep = outcome, count == buffer.count, interest == .read else { return outcome }
                continue
            }
            if count == 0 {
                // The client finished sending while its request is answered later: the answer still goes out, then
                // the connection closes.
                guard phase == .running else { return .close }
                peerFinished = true
                return setInterest(.none) ? .keep : .close
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .keep
            default: return .close
            }
        }
    }

    /// Writes what waits in ``outbound`` (the socket became writable).
    func writable() -> Outcome {
        while outboundOffset < outbound.count {
            let sent = outbound.withUnsafeBytes { bytes in
                send(
                    socket, bytes.baseAddress! + outboundOffset, bytes.count - outboundOffset,
                    Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if sent > 0 {
                outboundOffset += sent
                lastActivity = .now
                continue
            }
            if sent < 0 && errno == EINTR { continue }
            if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return setInterest(.write) ? .keep : .close }
            return .close
        }
        outbound.removeAll(keepingCapacity: outbound.capacity <= 4_096)
        outboundOffset = 0
        return flushed()
    }

    /// The answer of a request whose thread lost the loop while it ran, posted back to the loop.
    func answerArrived(_ response: HTTPResponse) -> Outcome {
        guard phase == .running else { return .keep }
        return outcome(of: answer(response))
    }

    /// The loop was taken from the thread running this connection's request: the new owner stops watching the
    /// socket until the answer comes back.
    func awaitAnswerElsewhere() {
        _ = setInterest(.none)
    }

    /// The loop is stopping gracefully: an idle connection closes now, one with a request closes after its answer.
    func drain() -> Outcome {
        phase == .head || phase == .oversizedHead ? .close : .keep
    }

    /// Takes the socket out of the loop's epoll set; the loop then closes it (or someone else owns it now).
    func unregister() {
        if registered { context.eventLoop.remove(socket) }
        registered = false
        interest = .none
        finishRequest()
    }

    // MARK: Input

    /// A step of the request state machine.
    private enum Step {
        case needMore
        case head(HTTP1Head)
        case request
        case refuse(HTTP1Refusal)
    }

    /// Acts on bytes just read: parsed in place when nothing is pending, else appended to what is.
    private func receive(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        if phase == .running {
            // A request is answered later, and the client sends on (pipelining): kept up to a bound, then the socket
            // is left unread until the answer is out.
            pending.append(contentsOf: bytes)
            if pending.count >= context.readBuffer.count { _ = setInterest(.none) }
            return .keep
        }
        guard pending.isEmpty else {
            pending.append(contentsOf: bytes)
            return processPending()
        }
        let (consumed, step) = advance(bytes)
        // What this step leaves is kept before acting on it: the responder may run on this thread, which may lose the
        // loop meanwhile, and the loop's buffer with it.
        if consumed < bytes.count { pending.append(contentsOf: bytes[consumed...]) }
        return outcome(of: act(step))
    }

    /// Parses what is pending for as long as it completes requests the connection can answer at once.
    private func processPending() -> Outcome {
        while phase == .head || phase == .oversizedHead || phase == .body {
            let (consumed, step) = pending.withUnsafeBytes { advance($0) }
            if consumed == pending.count {
                pending.removeAll(keepingCapacity: pending.capacity <= 4_096)
            } else if consumed > 0 {
                pending.removeFirst(consumed)
            }
            if case .needMore = step { return .keep }
            switch act(step) {
            case .continueParsing: continue
            case .stop(let outcome): return outcome
            }
        }
        return .keep
    }

    /// Runs the state machine over `bytes` until it needs more or has something to act on; returns how many bytes it
    /// consumed (bytes of a head still incomplete stay unconsumed, for the next call).
    private func advance(_ bytes: UnsafeRawBufferPointer) -> (Int, Step) {
        switch phase {
        case .head: return advanceHead(bytes)
        case .oversizedHead: return advanceOversizedHead(bytes)
        case .body: return advanceBody(bytes)
        case .running, .finishing: return (0, .needMore)
        }
    }

    private func advanceHead(_ bytes: UnsafeRawBufferPointer) -> (Int, Step) {
        let limits = context.limits
        if let end = scanner.scan(bytes) {
            defer {
                scanner = HTTP1HeadScanner()
                targetChecked = false
            }
            do throws(HTTP1Refusal) {
                return (end, .head(try HTTP1Head.parse(bytes, scanner: scanner, end: end, limits: limits)))
            } catch {
                return (end, .refuse(error))
            }
        }
        let received = bytes.count - scanner.requestLineStart
        if scanner.requestLineEnd == nil {
            if received > limits.target && scanner.partialTargetLength(bytes) > limits.target {
                return (bytes.count, .refuse(.targetTooLong(limit: limits.target)))
            }
            if received > limits.header {
                return (bytes.count, .refuse(.headerTooLarge(limit: limits.header, received: received)))
            }
        } else if !targetChecked {
            targetChecked = true
            if scanner.partialTargetLength(bytes) > limits.target {
                return (bytes.count, .refuse(.targetTooLong(limit: limits.target)))
            }
        }
        if received > limits.header {
            // Over the limit: the rest of the head is counted, not kept, so that the refusal can say its size.
            phase = .oversizedHead
            oversized = (received, scanner.isAtEmptyLine(bytes))
            scanner = HTTP1HeadScanner()
            targetChecked = false
            return (bytes.count, .needMore)
        }
        return (0, .needMore)
    }

    /// Counts the bytes of a head over the limit up to its end (or up to twice the limit), then refuses it.
    private func advanceOversizedHead(_ bytes: UnsafeRawBufferPointer) -> (Int, Step) {
        let limit = context.limits.header
        for index in 0..<bytes.count {
            switch bytes[index] {
            case 0x0A:
                if oversized.lineEmpty {
                    return (index + 1, .refuse(.headerTooLarge(limit: limit, received: oversized.counted + index + 1)))
                }
                oversized.lineEmpty = true
            case 0x0D:
                break
            default:
                oversized.lineEmpty = false
            }
        }
        oversized.counted += bytes.count
        if oversized.counted > 2 * limit {
            return (bytes.count, .refuse(.headerTooLarge(limit: limit, received: oversized.counted)))
        }
        return (bytes.count, .needMore)
    }

    private func advanceBody(_ bytes: UnsafeRawBufferPointer) -> (Int, Step) {
        let limits = context.limits
        if chunked != nil {
            do throws(HTTP1Refusal) {
                let consumed = try chunked!.consume(
                    bytes, into: &body, bodyLimit: limits.body, trailerLimit: limits.header)
                return (consumed, chunked!.isDone ? .request : .needMore)
            } catch {
                return (bytes.count, .refuse(error))
            }
        }
        let count = min(remainingBody, bytes.count)
        body.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[0..<count]))
        remainingBody -= count
        return (count, remainingBody == 0 ? .request : .needMore)
    }

    /// What to do after acting on a step.
    private enum Next {
        case continueParsing
        case stop(Outcome)
    }

    private func act(_ step: Step) -> Next {
        switch step {
        case .needMore:
            return .stop(.keep)
        case .refuse(let refusal):
            return .stop(refuse(refusal))
        case .head(let parsed):
            if !countsInProgress {
                countsInProgress = true
                context.core.requestBegan()
            }
            switch parsed.framing {
            case .none:
                return run(parsed, body: [])
            case .length(let length):
                body.reserveCapacity(length)
                remainingBody = length
            case .chunked:
                chunked = HTTP1ChunkedDecoder()
            }
            head = parsed
            phase = .body
            if parsed.expectsContinue {
                return sendContinue()
            }
            return .continueParsing
        case .request:
            guard let parsed = head else { return .stop(.close) }
            let received = body
            head = nil
            body = []
            chunked = nil
            return run(parsed, body: received)
        }
    }

    /// Goes on with what is pending when a step says so.
    private func outcome(of next: Next) -> Outcome {
        switch next {
        case .continueParsing: processPending()
        case .stop(let outcome): outcome
        }
    }

    private func sendContinue() -> Next {
        let continuation = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
        afterFlush = .resumeReading
        switch write(head: continuation, body: []) {
        case .written: return .continueParsing
        case .waiting: return .stop(.keep)
        case .failed: return .stop(.close)
        }
    }

    // MARK: Answers

    /// Hands a complete request to the responder (on this thread) and writes its answer.
    private func run(_ parsed: HTTP1Head, body: [UInt8]) -> Next {
        let request = HTTPRequest(
            method: HTTPMethod(rawValue: parsed.method), path: parsed.path, query: parsed.query,
            headers: HTTPHeaders(parsed.fields), body: body, version: parsed.version, remoteAddress: remoteAddress)
        head = parsed
        phase = .running
        switch context.runInline(request, for: self) {
        case .answered(let response): return answer(response)
        case .handedOver: return .stop(.handedOver)
        case .deferred: return .stop(.keep)
        }
    }

    /// Writes the answer to the request in ``head``.
    private func answer(_ response: HTTPResponse) -> Next {
        guard let parsed = head else { return .stop(.close) }
        head = nil
        var response = response
        if case .webSocket(let handler) = response.body {
            if response.status.code == 101 { return upgrade(response, handler: handler, request: parsed) }
            context.core.log("a WebSocket response must have status 101; sending 500 instead")
            response = ServerCore.errorResponse(
                .internalServerError, "WebSocket response without status 101", "INTERNAL")
        }
        var status = response.status.code
        if status < 200 || status > 999 {
            context.core.log("responder returned status \(status); sending 500 instead")
            status = 500
        }
        let closes =
            !parsed.keepAlive || context.isDraining
            || response.headers.values(for: "Connection").contains { HTTP1ResponseHead.closes($0) }
        let field: HTTP1ResponseHead.ConnectionField =
            closes ? .close : parsed.confirmsKeepAlive ? .keepAlive : .none
        let bytes = response.bodyBytes ?? []
        let hasBody = status != 204 && status != 304
        context.composeHead(
            status: status, headers: response.headers, contentLength: status == 204 ? nil : bytes.count,
            connection: field)
        afterFlush = .nextRequest(close: closes)
        phase = closes ? .finishing : .running
        switch write(head: context.headBuffer, body: hasBody && !parsed.isHead ? bytes : []) {
        case .written: return flushedNext()
        case .waiting: return .stop(.keep)
        case .failed: return .stop(.close)
        }
    }

    /// Answers a request the server refuses itself, then lets the connection linger.
    private func refuse(_ refusal: HTTP1Refusal) -> Outcome {
        var response = refusal.response
        response.headers.add(name: "Connection", value: "close")
        head = nil
        body = []
        chunked = nil
        pending = []
        phase = .finishing
        context.composeHead(
            status: refusal.status.code, headers: response.headers, contentLength: response.bodyBytes?.count ?? 0,
            connection: .close)
        afterFlush = .linger
        switch write(head: context.headBuffer, body: response.bodyBytes ?? []) {
        case .written: return flushed()
        case .waiting: return .keep
        case .failed: return .close
        }
    }

    /// Writes a `101` and hands the socket to the WebSocket reactor once it is out.
    private func upgrade(_ response: HTTPResponse, handler: any WebSocketHandler, request: HTTP1Head) -> Next {
        if let refusal = context.core.webSocketRefusal() {
            head = request
            return answer(refusal)
        }
        context.composeHead(status: 101, headers: response.headers, contentLength: nil, connection: .none)
        phase = .finishing
        afterFlush = .upgrade(handler)
        switch write(head: context.headBuffer, body: []) {
        case .written: return .stop(flushed())
        case .waiting: return .stop(.keep)
        case .failed: return .stop(.close)
        }
    }

    // MARK: Output

    private enum Written {
        case written
        case waiting
        case failed
    }

    /// Sends head and body with one `sendmsg`; what the socket does not take waits in ``outbound``.
    private func write(head: [UInt8], body: [UInt8]) -> Written {
        var sent = 0
        let total = head.count + body.count
        while true {
            sent = head.withUnsafeBytes { head in
                body.withUnsafeBytes { body in Self.sendVectors(socket, head, body) }
            }
            if sent >= 0 || errno != EINTR { break }
        }
        if sent == total {
            lastActivity = .now
            return .written
        }
        if sent < 0 && errno != EAGAIN && errno != EWOULDBLOCK { return .failed }
        let done = max(0, sent)
        outbound.reserveCapacity(total - done)
        if done < head.count {
            outbound.append(contentsOf: head[done...])
            outbound.append(contentsOf: body)
        } else {
            outbound.append(contentsOf: body[(done - head.count)...])
        }
        outboundOffset = 0
        return setInterest(.write) ? .waiting : .failed
    }

    private static func sendVectors(
        _ socket: Int32, _ head: UnsafeRawBufferPointer, _ body: UnsafeRawBufferPointer
    ) -> Int {
        var vectors = (
            iovec(iov_base: UnsafeMutableRawPointer(mutating: head.baseAddress), iov_len: head.count),
            iovec(iov_base: UnsafeMutableRawPointer(mutating: body.baseAddress), iov_len: body.count)
        )
        return withUnsafeMutableBytes(of: &vectors) { raw in
            var message = msghdr()
            message.msg_iov = raw.baseAddress!.assumingMemoryBound(to: iovec.self)
            message.msg_iovlen = body.isEmpty ? 1 : 2
            return sendmsg(socket, &message, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        }
    }

    /// Everything is written: what comes next.
    private func flushed() -> Outcome {
        outcome(of: flushedNext())
    }

    private func flushedNext() -> Next {
        switch afterFlush {
        case .resumeReading:
            return setInterest(.read) ? .continueParsing : .stop(.close)
        case .nextRequest(let close):
            finishRequest()
            if close || peerFinished || context.isDraining { return .stop(.close) }
            phase = .head
            guard setInterest(.read) else { return .stop(.close) }
            return pending.isEmpty ? .stop(.keep) : .continueParsing
        case .linger:
            finishRequest()
            shutdown(socket, Int32(SHUT_WR))
            context.detach(self)
            context.core.linger(socket: socket)
            return .stop(.gone)
        case .upgrade(let handler):
            let extra = pending
            pending = []
            context.detach(self)
            context.core.adoptWebSocket(socket: socket, extra: extra, handler: handler)
            return .stop(.gone)
        }
    }

    /// Ends the count of the connection's request in progress.
    private func finishRequest() {
        if countsInProgress {
            countsInProgress = false
            context.core.requestEnded()
        }
    }

    /// Changes what epoll watches; `false` when the system refuses.
    @discardableResult
    func setInterest(_ wanted: Interest) -> Bool {
        guard wanted != interest || !registered else { return true }
        defer { interest = wanted }
        switch wanted {
        case .none:
            if registered { context.eventLoop.remove(socket) }
            registered = false
            return true
        case .read, .write:
            let added = context.eventLoop.setInterest(
                socket, token: token, reading: wanted == .read, writing: wanted == .write, add: !registered)
            registered = registered || added
            return added
        }
    }
}

extension HTTP1HeadScanner {
    /// Whether the bytes scanned so far end at the start of a line (or after a line's lone CR).
    func isAtEmptyLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard scanned > 0 else { return true }
        if bytes[scanned - 1] == 0x0A { return true }
        return bytes[scanned - 1] == 0x0D && (scanned < 2 || bytes[scanned - 2] == 0x0A)
    }
}
