import CMicroHTTPD
import Synchronization

/// A response body written incrementally, for server-sent events and other long-lived replies.
///
/// A responder creates a stream, hands it to whatever produces the data (a subscription hub, a task),
/// and returns it in ``HTTPResponse/init(status:headers:stream:)``. The server sends the status and
/// headers at once, then what is written as soon as the connection can take it (as HTTP/1.1 chunks; writes
/// that arrive together may share a chunk), and ends the response after ``finish()``. While nothing is
/// buffered the connection is parked (libmicrohttpd suspend/resume), so an idle stream costs no thread.
/// Writes may come from any thread, before or after the responder returns; they are buffered in memory
/// until the client reads them, without a limit, so a producer facing a slow client should watch
/// ``bufferedByteCount``.
///
/// The stream ends, and ``onTermination(_:)`` handlers run once, when the body has been sent after
/// ``finish()``, when the client disconnects, or when the server stops. A client closing the connection is
/// noticed at once, even while the stream is parked (the server watches the sockets of streamed responses
/// for hang-ups); a peer that vanishes without closing is noticed on the next write, so producers that can
/// stay silent for long should still write a heartbeat (for server-sent events, a comment line `:\n\n`).
///
/// ```swift
/// func respond(to request: HTTPRequest) -> HTTPResponse {
///     let stream = HTTPBodyStream()
///     Task {
///         for event in ["a", "b", "c"] { stream.write("data: \(event)\n\n") }
///         stream.finish()
///     }
///     return HTTPResponse(headers: ["Content-Type": "text/event-stream"], stream: stream)
/// }
/// ```
public final class HTTPBodyStream: Sendable {
    private struct State {
        var pending: [UInt8] = []
        var readOffset = 0
        var finished = false
        var terminated = false
        var attached = false
        var connection: ConnectionHandle?
        var suspended = false
        var terminationHandlers: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())

    /// Creates an open stream with nothing buffered.
    public init() {}

    /// Queues bytes to be sent.
    ///
    /// - Parameter bytes: The bytes; an empty array is ignored.
    /// - Returns: `false` if the stream was finished or has ended (the bytes are dropped), else `true`.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        state.withLock { state in
            guard !state.finished, !state.terminated else { return false }
            guard !bytes.isEmpty else { return true }
            state.pending.append(contentsOf: bytes)
            Self.resumeIfSuspended(&state)
            return true
        }
    }

    /// Queues the UTF-8 bytes of `text` to be sent.
    ///
    /// - Returns: `false` if the stream was finished or has ended, else `true`.
    @discardableResult
    public func write(_ text: String) -> Bool {
        write(Array(text.utf8))
    }

    /// Ends the body once the bytes already written have been sent. Later writes are dropped.
    public func finish() {
        state.withLock { state in
            guard !state.finished else { return }
            state.finished = true
            Self.resumeIfSuspended(&state)
        }
    }

    /// Whether the stream has ended: sent in full after ``finish()``, client gone, or server stopped.
    public var isTerminated: Bool {
        state.withLock { $0.terminated }
    }

    /// The number of bytes written but not yet handed to the connection.
    public var bufferedByteCount: Int {
        state.withLock { $0.pending.count - $0.readOffset }
    }

    /// Registers a handler that runs once when the stream ends; at once if it already has.
    ///
    /// Handlers run on a server thread or on the caller's thread; they must not block.
    public func onTermination(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.terminated { return true }
            state.terminationHandlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    // MARK: Server side

    /// Binds the stream to the connection that will send it; `false` if it is already bound or ended.
    func attach(to connection: OpaquePointer) -> Bool {
        state.withLock { state in
            guard !state.attached, !state.terminated else { return false }
            state.attached = true
            state.connection = ConnectionHandle(pointer: connection)
            return true
        }
    }

    /// Copies buffered bytes into `buffer` for libmicrohttpd's content reader.
    ///
    /// Returns the count copied, `MHD_CONTENT_READER_END_OF_STREAM` (-1) after ``finish()``,
    /// `MHD_CONTENT_READER_END_WITH_ERROR` (-2) once ended otherwise, or 0 after suspending the connection
    /// until the next write.
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int {
        state.withLock { state in
            let available = state.pending.count - state.readOffset
            if available > 0, capacity > 0 {
                let count = min(available, capacity)
                let offset = state.readOffset
                state.pending.withUnsafeBytes { bytes in
                    buffer.copyMemory(from: bytes.baseAddress! + offset, byteCount: count)
                }
                state.readOffset += count
                if state.readOffset == state.pending.count {
                    state.pending.removeAll(keepingCapacity: state.pending.capacity <= 65_536)
                    state.readOffset = 0
                } else if state.readOffset >= 65_536 {
                    state.pending.removeFirst(state.readOffset)
                    state.readOffset = 0
                }
                return count
            }
            if state.terminated { return -2 }
            if state.finished { return -1 }
            guard let connection = state.connection else { return -2 }
            state.suspended = true
            MHD_suspend_connection(connection.pointer)
            return 0
        }
    }

    /// Ends the stream because the server stops: wakes a parked connection so it can be closed.
    func cancel() {
        state.withLock { state in
            state.terminated = true
            Self.resumeIfSuspended(&state)
        }
    }

    /// Marks the stream ended once libmicrohttpd has released it, and runs the termination handlers.
    func didEnd() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            state.terminated = true
            state.connection = nil
            state.suspended = false
            state.pending = []
            state.readOffset = 0
            let handlers = state.terminationHandlers
            state.terminationHandlers = []
            return handlers
        }
        for handler in handlers {
            handler()
        }
    }

    private static func resumeIfSuspended(_ state: inout State) {
        if state.suspended, let connection = state.connection {
            state.suspended = false
            MHD_resume_connection(connection.pointer)
        }
    }
}

/// A libmicrohttpd connection pointer, which the library allows to resume from any thread.
///
/// Used only under the stream's lock, while the connection is known to be open.
private struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
