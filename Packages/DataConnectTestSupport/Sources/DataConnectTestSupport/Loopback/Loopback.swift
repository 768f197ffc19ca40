#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// TCP on `127.0.0.1` for tests: a free port, a listening socket on one, and connections (``LoopbackConnection``).
///
/// ```swift
/// let port = try Loopback.freePort()             // nothing listens there: a stopped server
/// let (listener, serverPort) = try Loopback.listen()
/// let connection = try LoopbackConnection(port: serverPort)
/// ```
public enum Loopback {
    /// Why a socket operation failed.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The `errno` of the failed call, e.g. `ECONNREFUSED`.
        public var code: Int32
        /// What failed, and why.
        public var description: String

        init(_ operation: String, errno code: Int32 = errno) {
            self.code = code
            description = "\(operation) failed: \(String(cString: strerror(code))) (errno \(code))"
        }
    }

    /// A port on `127.0.0.1` that the system had free: bound, noted and closed, so nothing listens on it.
    ///
    /// Use it for a server that binds the port itself (a child process told `--port`), or as an address that
    /// refuses connections, which is what a stopped server looks like to a client.
    ///
    /// - Returns: The port.
    /// - Throws: ``Failure`` when no socket can be bound.
    public static func freePort() throws(Failure) -> Int {
        let descriptor = try bound()
        defer { close(descriptor) }
        return try port(of: descriptor)
    }

    /// A socket listening on `127.0.0.1`, on a port the system picks; closed on exec.
    ///
    /// - Parameter backlog: The length of the queue of connections not yet accepted.
    /// - Returns: The listening descriptor (the caller closes it) and its port.
    /// - Throws: ``Failure`` when the socket cannot be bound or listened on.
    public static func listen(backlog: Int32 = 16) throws(Failure) -> (descriptor: Int32, port: Int) {
        let descriptor = try bound()
        guard Glibc.listen(descriptor, backlog) == 0 else {
            let failure = Failure("listen")
            close(descriptor)
            throw failure
        }
        do {
            return (descriptor, try port(of: descriptor))
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// The address `127.0.0.1:port`.
    static func address(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(truncatingIfNeeded: port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    /// A TCP socket, closed on exec.
    static func socket() throws(Failure) -> Int32 {
        let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure("socket") }
        return descriptor
    }

    /// A socket bound to `127.0.0.1` and a port the system picks.
    private static func bound() throws(Failure) -> Int32 {
        let descriptor = try socket()
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = address(port: 0)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let failure = Failure("bind")
            close(descriptor)
            throw failure
        }
        return descriptor
    }

    /// The port a bound socket has.
    private static func port(of descriptor: Int32) throws(Failure) -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard result == 0 else { throw Failure("getsockname") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
