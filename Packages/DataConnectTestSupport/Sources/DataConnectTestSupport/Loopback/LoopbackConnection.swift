#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking TCP connection to `127.0.0.1:port`, for tests that write and read the bytes on the wire themselves.
///
/// Every read waits at most until a deadline (by default the hang guard), so a server that never answers fails the
/// test instead of hanging it. Writes the server does not take give up after the same time.
///
/// ```swift
/// let connection = try LoopbackConnection(port: server.port)
/// try connection.send(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
/// if case .bytes(let bytes) = connection.receive() { … }
/// ```
public final class LoopbackConnection: @unchecked Sendable {
    /// What one read returned.
    public enum Received: Sendable, Equatable {
        /// Bytes, as many as had arrived.
        case bytes([UInt8])
        /// The server ended the stream (end of file, or a reset).
        case closed
        /// Nothing arrived before the deadline.
        case timedOut
    }

    /// The socket; closed by ``close()`` or when the connection is released.
    public private(set) var descriptor: Int32

    /// Connects.
    ///
    /// - Parameters:
    ///   - port: The port on `127.0.0.1`.
    ///   - sendTimeout: How long a write may wait for the server to take bytes.
    /// - Throws: ``Loopback/Failure`` when the connection is refused or cannot be made.
    public init(port: Int, sendTimeout: Duration = HangGuard.event) throws(Loopback.Failure) {
        descriptor = try Loopback.socket()
        var timeout = timeval(
            tv_sec: Int(sendTimeout.components.seconds),
            tv_usec: Int(sendTimeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = Loopback.address(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let failure = Loopback.Failure("connect to 127.0.0.1:\(port)")
            close()
            throw failure
        }
    }

    deinit {
        close()
    }

    /// Closes the socket; later calls do nothing.
    public func close() {
        if descriptor >= 0 {
            Glibc.close(descriptor)
            descriptor = -1
        }
    }

    /// Closes the sending side, as a client does once its request is out; reading goes on.
    public func shutdownWrite() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Sends all of `bytes`.
    ///
    /// - Parameter bytes: What to send.
    /// - Throws: ``Loopback/Failure`` when the server closed the connection or did not take the bytes in time.
    public func send(_ bytes: some Collection<UInt8>) throws(Loopback.Failure) {
        let bytes = Array(bytes)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                Glibc.send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                throw Loopback.Failure("send")
            }
            offset += sent
        }
    }

    /// Waits for bytes until `deadline` and returns what one read delivered.
    ///
    /// - Parameters:
    ///   - deadline: When to give up waiting.
    ///   - maximumCount: The most bytes to return.
    /// - Returns: The bytes, the end of the stream, or a time-out.
    public func receive(
        until deadline: ContinuousClock.Instant = HangGuard.deadline, maximumCount: Int = 65_536
    ) -> Received {
        while true {
            let left = deadline - .now
            guard left > .zero, descriptor >= 0 else { return .timedOut }
            var readiness = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let (seconds, attoseconds) = left.components
            let milliseconds = Int32(clamping: max(1, seconds * 1_000 + attoseconds / 1_000_000_000_000_000))
            let ready = poll(&readiness, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return .timedOut }
            var chunk = [UInt8](repeating: 0, count: maximumCount)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 { return .bytes(Array(chunk[..<count])) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            return .closed
        }
    }
}
