import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The libmicrohttpd daemons that serve a running server's HTTP/1.1 connections: one single-threaded daemon per
/// worker thread, without a listening socket of its own (the ``ConnectionDispatcher`` accepts connections and hands
/// them over with `MHD_add_connection`, round-robin).
///
/// libmicrohttpd's no-listen mode does not combine with its thread pool, hence one daemon per thread; each polls its
/// own connections (with `epoll` by default) and is woken by its inter-thread channel when one is added.
final class HTTP1Daemons: @unchecked Sendable {
    /// The daemons; each handle may be used from any thread.
    let handles: [OpaquePointer]
    private let next = Atomic<UInt>(0)

    private init(handles: [OpaquePointer]) {
        self.handles = handles
    }

    /// Starts `count` daemons calling into `core`; the message libmicrohttpd logged when one cannot start.
    static func start(
        count: Int, core: ServerCore, configuration: HTTPServer.Configuration
    ) -> Result<HTTP1Daemons, StartFailure> {
        var flags =
            MHD_USE_ERROR_LOG.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_ALLOW_UPGRADE.rawValue
            | MHD_USE_NO_LISTEN_SOCKET.rawValue | MHD_USE_ITC.rawValue
        flags |=
            configuration.usesEpoll ? MHD_USE_EPOLL_INTERNAL_THREAD.rawValue : MHD_USE_POLL_INTERNAL_THREAD.rawValue
        let timeout = configuration.connectionTimeout.components
        let timeoutSeconds = max(0, timeout.seconds + (timeout.attoseconds > 0 ? 1 : 0))
        let corePointer = Unmanaged.passUnretained(core).toOpaque()
        // Not bound: no-listen daemons ignore the address, which the options structure still points to.
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        var handles: [OpaquePointer] = []
        for _ in 0..<max(1, count) {
            let handle = withUnsafePointer(to: &address) { addressPointer in
                var options = cmhd_daemon_options()
                options.address = addressPointer
                options.thread_pool_size = 1
                options.reuse_address = 0
                options.connection_timeout = UInt32(clamping: timeoutSeconds)
                options.connection_limit = UInt32(clamping: max(0, configuration.connectionLimit))
                options.connection_memory_limit = max(0, configuration.connectionMemoryLimit)
                options.completed = { cls, _, context, _ in
                    guard let cls, let context else { return }
                    Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue().requestCompleted(context: context)
                }
                options.completed_cls = corePointer
                options.logger = { cls, format, arguments in
                    guard let cls, let format, let arguments else { return }
                    var message = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 512) { buffer in
                        let length = vsnprintf(buffer.baseAddress, buffer.count, format, arguments)
                        let count = min(Int(max(0, length)), buffer.count - 1)
                        return String(
                            decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: count), as: UTF8.self)
                    }
                    while message.last?.isNewline == true { message.removeLast() }
                    Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue().log(message)
                }
                options.logger_cls = corePointer
                options.uri_logger = { cls, uri, _ in
                    guard let cls, let uri else { return nil }
                    return Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue().requestTargetReceived(uri)
                }
                options.uri_logger_cls = corePointer
                return cmhd_start_daemon(
                    flags,
                    { cls, connection, url, method, version, uploadData, uploadDataSize, context in
                        guard let cls, let connection, let uploadDataSize, let context else { return .NO }
                        return Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue().handle(
                            connection: connection, url: url, method: method, version: version,
                            uploadData: uploadData, uploadDataSize: uploadDataSize, context: context)
                    },
                    corePointer, &options)
            }
            guard let handle else {
                for started in handles { MHD_stop_daemon(started) }
                return .failure(
                    StartFailure(reason: core.takeLastLogMessage() ?? "libmicrohttpd could not start the daemon"))
            }
            handles.append(handle)
        }
        return .success(HTTP1Daemons(handles: handles))
    }

    /// Why the daemons could not start.
    struct StartFailure: Error {
        let reason: String
    }

    /// Hands an accepted connection to the next daemon, which owns (and on failure closes) the socket from now on.
    func add(socket: Int32, address: sockaddr_in) {
        let index = Int(next.wrappingAdd(1, ordering: .relaxed).oldValue % UInt(handles.count))
        var address = address
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                MHD_add_connection(handles[index], socket, socketAddress, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }

    /// Stops every daemon, closing their connections; returns once their threads have exited.
    func stop() {
        for handle in handles { MHD_stop_daemon(handle) }
    }
}
