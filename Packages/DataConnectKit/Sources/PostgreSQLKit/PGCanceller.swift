import CLibPQ

/// Cancels the statement a connection is running, from any thread (`PQgetCancel` / `PQcancel`).
///
/// Make one with ``PGConnection/makeCanceller()`` while the connection is idle, keep it, and call ``cancel()``
/// from another thread when the running statement must stop, for example when a server shuts down:
///
/// ```swift
/// let canceller = try connection.makeCanceller()
/// Thread { _ = try? connection.query("SELECT pg_sleep(60)") }.start()
/// try canceller.cancel()  // the query fails with PGError.isQueryCanceled
/// ```
///
/// Cancelling is a request: the server may have finished the statement already, and cancelling an idle
/// connection does nothing. A canceller opens a new connection to the server for each request and reaches
/// only the session it was made for; after ``PGConnection/reset()`` make a new one.
public final class PGCanceller: Sendable {
    /// The `PGcancel *` handle, owned. libpq only reads it in `PQcancel`, so concurrent calls are safe.
    nonisolated(unsafe) private let handle: OpaquePointer

    init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        PQfreeCancel(handle)
    }

    /// Asks the server to cancel the statement running on the connection, if any.
    ///
    /// - Throws: ``PGError`` of kind ``PGError/Kind/connection`` when the request cannot be delivered.
    public func cancel() throws(PGError) {
        let capacity = 256
        let succeeded = withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer -> String? in
            buffer.initialize(repeating: 0)
            guard PQcancel(handle, buffer.baseAddress, Int32(capacity)) == 0 else { return nil }
            return String(cString: buffer.baseAddress!)
        }
        if let message = succeeded {
            throw PGError(
                kind: .connection,
                message: "cannot cancel: " + (PGError.firstMeaningfulLine(of: message) ?? "unknown error"))
        }
    }
}
