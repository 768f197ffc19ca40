#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A connected byte stream read and written within a deadline: a plain socket, or TLS over one.
protocol ByteChannel {
    /// Writes every byte, waiting while the peer does not take them.
    ///
    /// - Throws: ``OutboundHTTPError/timedOut`` at the deadline, ``OutboundHTTPError/broken(_:)`` when the
    ///   connection fails.
    func write(_ bytes: [UInt8], deadline: ContinuousClock.Instant) throws(OutboundHTTPError)

    /// Reads what has arrived into `buffer`, waiting until something has.
    ///
    /// - Returns: the number of bytes read; 0 when the peer has closed the stream.
    /// - Throws: ``OutboundHTTPError/timedOut`` at the deadline, ``OutboundHTTPError/broken(_:)`` when the
    ///   connection fails.
    func read(
        into buffer: UnsafeMutableRawBufferPointer, deadline: ContinuousClock.Instant
    ) throws(OutboundHTTPError)
        -> Int
}

/// A non-blocking socket as a ``ByteChannel``; its owner closes the descriptor.
struct SocketChannel: ByteChannel {
    /// The connected, non-blocking socket.
    let descriptor: Int32

    func write(_ bytes: [UInt8], deadline: ContinuousClock.Instant) throws(OutboundHTTPError) {
        var offset = 0
        while offset < bytes.count {
            if LiveHTTPTransport.remainingMilliseconds(deadline) == 0 { throw .timedOut }
            let sent = bytes.withUnsafeBytes { raw in
                send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent > 0 {
                offset += sent
            } else if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                try LiveHTTPTransport.wait(descriptor, for: Int16(POLLOUT), deadline: deadline)
            } else {
                throw .broken("sending failed: \(LiveHTTPTransport.describeErrno())")
            }
        }
    }

    func read(
        into buffer: UnsafeMutableRawBufferPointer, deadline: ContinuousClock.Instant
    ) throws(OutboundHTTPError) -> Int {
        // A server trickling bytes is held to the deadline too, not only one that is silent.
        if LiveHTTPTransport.remainingMilliseconds(deadline) == 0 { throw .timedOut }
        while true {
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count >= 0 { return count }
            guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else {
                throw .broken("reading the answer failed: \(LiveHTTPTransport.describeErrno())")
            }
            try LiveHTTPTransport.wait(descriptor, for: Int16(POLLIN), deadline: deadline)
        }
    }
}
