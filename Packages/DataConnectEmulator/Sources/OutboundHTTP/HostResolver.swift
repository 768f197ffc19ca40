import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One address a host resolved to, copied out of `getaddrinfo`'s list.
struct ResolvedAddress: Sendable {
    /// `AF_INET` or `AF_INET6`.
    var family: Int32
    /// The `sockaddr` bytes, port included.
    var bytes: [UInt8]
}

/// Resolves host names within a deadline.
///
/// `getaddrinfo` blocks for as long as the system's resolver lets it (several seconds per server when DNS does
/// not answer), so a name is resolved on a worker of Dispatch's global pool while the caller waits at most until
/// the deadline; a lookup the caller stopped waiting for finishes on its own and is dropped. Address literals
/// are resolved in place.
enum HostResolver {
    /// The addresses of `host`, in `getaddrinfo`'s order.
    ///
    /// - Throws: ``OutboundHTTPError/unreachable(_:)`` when the name does not resolve,
    ///   ``OutboundHTTPError/timedOut`` when the deadline passes first.
    static func resolve(
        _ host: String, port: UInt16, deadline: ContinuousClock.Instant
    ) throws(OutboundHTTPError) -> [ResolvedAddress] {
        if case .success(let addresses) = lookUp(host, port: port, numericOnly: true) { return addresses }
        let pending = PendingLookup()
        DispatchQueue.global(qos: .userInitiated).async {
            pending.result.withLock { $0 = lookUp(host, port: port, numericOnly: false) }
            pending.done.signal()
        }
        let milliseconds = LiveHTTPTransport.remainingMilliseconds(deadline)
        guard milliseconds > 0, pending.done.wait(timeout: .now() + .milliseconds(Int(milliseconds))) == .success
        else { throw .timedOut }
        switch pending.result.withLock({ $0 }) {
        case .success(let addresses)?: return addresses
        case .failure(let error)?: throw error
        case nil: throw .timedOut
        }
    }

    /// A lookup running on another thread.
    private final class PendingLookup: Sendable {
        let result = Mutex<Result<[ResolvedAddress], OutboundHTTPError>?>(nil)
        let done = DispatchSemaphore(value: 0)
    }

    /// `getaddrinfo` for stream sockets, the list copied.
    private static func lookUp(
        _ host: String, port: UInt16, numericOnly: Bool
    ) -> Result<[ResolvedAddress], OutboundHTTPError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = numericOnly ? AI_NUMERICHOST | AI_NUMERICSERV : AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            return .failure(.unreachable("cannot resolve \"\(host)\": \(String(cString: gai_strerror(status)))"))
        }
        defer { freeaddrinfo(list) }
        var addresses: [ResolvedAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            cursor = entry.pointee.ai_next
            guard let address = entry.pointee.ai_addr else { continue }
            let bytes = UnsafeRawBufferPointer(start: address, count: Int(entry.pointee.ai_addrlen))
            addresses.append(ResolvedAddress(family: entry.pointee.ai_family, bytes: Array(bytes)))
        }
        guard !addresses.isEmpty else { return .failure(.unreachable("\"\(host)\" has no address")) }
        return .success(addresses)
    }
}
