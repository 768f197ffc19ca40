import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A loopback port with nothing listening: what a stopped emulator looks like to a client.
enum ClosedPort {
    /// Binds a socket to a port the system picks on `127.0.0.1`, notes the port and closes the socket.
    ///
    /// - Returns: The port, now refusing connections.
    /// - Throws: `POSIXError` when the socket cannot be created or bound.
    static func make() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else { throw POSIXError(.EADDRINUSE) }
        var actual = sockaddr_in()
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: actual.sin_port))
    }
}
