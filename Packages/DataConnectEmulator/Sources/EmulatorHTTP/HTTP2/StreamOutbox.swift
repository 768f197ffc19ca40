import Synchronization

/// What the server sends on one HTTP/2 stream, queued from any thread and read by the connection's loop as flow
/// control allows: gRPC messages (or a plain body), then the end (trailers, or END_STREAM on the body).
///
/// A queue that grows past ``queueLimit`` (a client reading too slowly) is dropped and the stream is ended with
/// RESOURCE_EXHAUSTED; a single message larger than the limit is still accepted into an empty queue.
final class StreamOutbox: Sendable {
    /// How a stream ends.
    enum End: Sendable {
        /// gRPC trailers: the status and extra fields.
        case trailers(GRPCStatus, HTTPHeaders)
        /// A plain response: END_STREAM on the last DATA frame.
        case body
    }

    /// The bytes one stream may hold queued before it is ended with RESOURCE_EXHAUSTED.
    static let queueLimit = 8 << 20

    private struct State {
        var chunks: [[UInt8]] = []
        var head = 0
        var offset = 0
        var queued = 0
        var end: End?
        /// The stream is gone (closed, reset, or its connection lost): nothing more is queued.
        var closed = false
        /// A wake-up of the loop is pending for this stream.
        var notified = false
        /// Whether the loop has read any byte of the answer.
        var readAny = false
    }

    private let state = Mutex(State())
    private let wake: @Sendable () -> Void

    /// Creates an empty outbox; `wake` asks the stream's loop to look at it (once per batch of changes).
    init(wake: @escaping @Sendable () -> Void) {
        self.wake = wake
    }

    /// Queues one length-prefixed gRPC message (uncompressed) made of `parts`.
    ///
    /// The parts are queued as they are, not copied: a result the hub sends to thousands of subscribers stays one
    /// buffer, shared by their queues, until each loop has written it out.
    func appendMessage(parts: some Collection<[UInt8]>) {
        let length = parts.reduce(0) { $0 + $1.count }
        let prefix: [UInt8] = [
            0, UInt8(truncatingIfNeeded: length >> 24), UInt8(truncatingIfNeeded: length >> 16),
            UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length),
        ]
        append([prefix] + parts.filter { !$0.isEmpty }, count: 5 + length)
    }

    /// Queues raw bytes (a plain response's body).
    func append(_ bytes: [UInt8]) {
        append([bytes], count: bytes.count)
    }

    /// Queues `chunks` (`count` bytes in all) together, or ends the stream when the queue would pass its limit.
    private func append(_ chunks: [[UInt8]], count: Int) {
        let notify = state.withLock { state -> Bool in
            guard !state.closed, state.end == nil else { return false }
            if state.queued > 0 && state.queued + count > Self.queueLimit {
                state.chunks = []
                state.head = 0
                state.offset = 0
                state.queued = 0
                let message = "the client reads too slowly: more than \(Self.queueLimit) bytes queued on the stream"
                state.end = .trailers(GRPCStatus(.resourceExhausted, message), HTTPHeaders())
            } else {
                state.chunks.append(contentsOf: chunks)
                state.queued += count
            }
            return Self.markNotified(&state)
        }
        if notify { wake() }
    }

    /// Ends the stream after what is queued; later appends and ends are dropped.
    func finish(_ end: End) {
        let notify = state.withLock { state -> Bool in
            guard !state.closed, state.end == nil else { return false }
            state.end = end
            return Self.markNotified(&state)
        }
        if notify { wake() }
    }

    /// Ends a gRPC call the server will not run because it is stopping: UNAVAILABLE.
    func finishStopping() {
        finish(.trailers(GRPCStatus(.unavailable, "the server is stopping"), HTTPHeaders()))
    }

    private static func markNotified(_ state: inout State) -> Bool {
        guard !state.notified else { return false }
        state.notified = true
        return true
    }

    /// Whether messages may still be queued: not ended, not closed.
    var isOpen: Bool {
        state.withLock { !$0.closed && $0.end == nil }
    }

    /// Whether the server ended the stream (``finish(_:)``).
    var isEnded: Bool {
        state.withLock { $0.end != nil }
    }

    // MARK: The loop's side

    /// Replaces an answer none of whose bytes has been read by the loop yet with `end` alone; returns whether it did
    /// (nothing was read and the stream is not closed).
    func replaceUnsentAnswer(with end: End) -> Bool {
        let notify = state.withLock { state -> Bool? in
            guard !state.closed, !state.readAny else { return nil }
            state.chunks = []
            state.head = 0
            state.offset = 0
            state.queued = 0
            state.end = end
            return Self.markNotified(&state)
        }
        guard let notify else { return false }
        if notify { wake() }
        return true
    }

    /// Closes the outbox for good (the stream is gone); returns whether the server had ended it.
    @discardableResult
    func close() -> Bool {
        state.withLock { state in
            state.closed = true
            state.chunks = []
            state.queued = 0
            return state.end != nil
        }
    }

    /// Suppresses wake-ups until ``clearNotified()``: the loop will look at the stream itself (after running the
    /// stream's call on its own thread).
    func holdWakes() {
        state.withLock { $0.notified = true }
    }

    /// Clears the pending wake-up, before the loop looks at the stream.
    func clearNotified() {
        state.withLock { $0.notified = false }
    }

    /// Whether bytes are queued, and how the stream ends if it does.
    func peek() -> (hasBytes: Bool, end: End?) {
        state.withLock { ($0.queued > 0, $0.end) }
    }

    /// Moves up to `capacity` queued bytes into `buffer`; returns how many, and the end once everything queued has
    /// been read.
    func read(into buffer: UnsafeMutablePointer<UInt8>, capacity: Int) -> (count: Int, end: End?) {
        state.withLock { state in
            var copied = 0
            while copied < capacity && state.head < state.chunks.count {
                let chunk = state.chunks[state.head]
                let take = min(capacity - copied, chunk.count - state.offset)
                chunk.withUnsafeBufferPointer { source in
                    (buffer + copied).update(from: source.baseAddress! + state.offset, count: take)
                }
                copied += take
                state.offset += take
                if state.offset == chunk.count {
                    state.chunks[state.head] = []
                    state.head += 1
                    state.offset = 0
                }
            }
            state.queued -= copied
            if copied > 0 { state.readAny = true }
            if state.head == state.chunks.count {
                state.chunks.removeAll(keepingCapacity: true)
                state.head = 0
            } else if state.head > 32 && state.head * 2 > state.chunks.count {
                state.chunks.removeFirst(state.head)
                state.head = 0
            }
            return (copied, state.queued == 0 ? state.end : nil)
        }
    }
}
