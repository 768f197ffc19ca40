import CWebSockets
import DataConnectEncoding
import DataConnectWire
import Foundation
import Synchronization

/// A WebSocket client connection on libwebsockets: one lws context and one service thread per connection.
///
/// libwebsockets does the framing, the TLS (OpenSSL, with the system CA bundle and a host name check for `wss`),
/// answers the server's pings and sends its own when the connection is idle: a peer that stops answering for
/// ``Options/hangUpAfterSeconds`` is dropped, and the connection ends with ``WebSocketEvent/failed(_:)`` rather
/// than going quiet. Every lws call happens on the service thread; other threads queue frames under a lock and wake
/// the thread with `lws_cancel_service`, and the queue is drained one frame per `LWS_CALLBACK_CLIENT_WRITEABLE`.
/// Fragmented and split frames are joined before they are reported.
///
/// ```swift
/// let connection = WebSocketConnection.connect(to: address) { event in print(event) }
/// connection.send(text: Array(#"{"requestId":"1"}"#.utf8))
/// connection.close(code: .normal, reason: "")
/// ```
///
/// The service thread keeps the connection alive until its last event; drop it only after closing it.
final class WebSocketConnection: WebSocketChannel, @unchecked Sendable {
    /// Keep-alive, time-outs and trust.
    struct Options: Sendable {
        /// Seconds without a sign of life from the peer before a ping is sent; 0 disables keep-alive.
        var pingAfterSeconds: UInt16 = 30
        /// Seconds without a sign of life before the connection is dropped as dead.
        var hangUpAfterSeconds: UInt16 = 40
        /// Seconds allowed for the TCP connect and the TLS and upgrade handshakes.
        var connectTimeoutSeconds: UInt32 = 20
        /// The CA bundle for `wss`; Debian's system bundle when it exists, else OpenSSL's default paths.
        var certificateAuthorityFile: String? = Options.systemCertificateBundle
        /// The `Origin` header, when one is wanted.
        var origin: String?

        /// `/etc/ssl/certs/ca-certificates.crt` (Debian, Ubuntu) or `/etc/pki/tls/certs/ca-bundle.crt` (Fedora),
        /// whichever exists.
        static let systemCertificateBundle: String? = [
            "/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt",
        ].first { FileManager.default.fileExists(atPath: $0) }
    }

    /// What other threads hand to the service thread.
    private struct Shared {
        var outbox: [[UInt8]] = []
        var close: (code: WebSocketCloseCode, reason: [UInt8])?
        var client: ClientHandle?
        var ended = false
    }

    /// The lws client, shared with other threads only to wake its service thread (`lws_cancel_service` is the one
    /// thread-safe lws call); it is cleared under the lock before the context is destroyed.
    private struct ClientHandle: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<cws_client>
    }

    private let address: WebSocketAddress
    private let options: Options
    private let handler: @Sendable (WebSocketEvent) -> Void
    private let shared = Mutex(Shared())

    // Service-thread state: read and written only by the service thread (hence `@unchecked Sendable`).
    private var wsi: OpaquePointer?
    private var established = false
    private var abandon = false
    private var sentClose: (code: WebSocketCloseCode, reason: String)?
    private var peerClose: (code: WebSocketCloseCode?, reason: String)?
    private var message: [UInt8] = []
    private var messageIsBinary = false
    private var finished = false

    private static let quietLogs: Void = cws_quiet_logs()

    private init(
        address: WebSocketAddress, options: Options, handler: @escaping @Sendable (WebSocketEvent) -> Void
    ) {
        self.address = address
        self.options = options
        self.handler = handler
    }

    /// Starts connecting on a new service thread; events go to `handler`, on that thread, in order.
    ///
    /// - Parameters:
    ///   - address: Where to connect.
    ///   - options: Keep-alive, time-outs and trust.
    ///   - handler: Receives ``WebSocketEvent/opened``, the messages, then one ``WebSocketEvent/closed(code:reason:)``
    ///     or ``WebSocketEvent/failed(_:)``.
    /// - Returns: The connection, to send on and close.
    static func connect(
        to address: WebSocketAddress, options: Options = Options(),
        handler: @escaping @Sendable (WebSocketEvent) -> Void
    ) -> WebSocketConnection {
        _ = quietLogs
        let connection = WebSocketConnection(address: address, options: options, handler: handler)
        let thread = Thread { connection.serve() }
        thread.name = "dataconnect.websocket"
        thread.start()
        return connection
    }

    /// The live connector: a ``WebSocketConnection`` per connection, with `options`.
    static func connector(options: Options = Options()) -> WebSocketConnector {
        { address, handler in connect(to: address, options: options, handler: handler) }
    }

    func send(text: [UInt8]) {
        shared.withLock { shared in
            guard !shared.ended, shared.close == nil else { return }
            shared.outbox.append(text)
            if let client = shared.client { cws_wake(client.pointer) }
        }
    }

    func close(code: WebSocketCloseCode, reason: String) {
        shared.withLock { shared in
            guard !shared.ended, shared.close == nil else { return }
            shared.close = (code, WebSocketFrame.closeReason(reason))
            if let client = shared.client { cws_wake(client.pointer) }
        }
    }

    // MARK: - The service thread

    private func serve() {
        let address = strdup(address.host)
        let target = strdup(self.address.target)
        let host = strdup(self.address.hostHeader)
        let origin = options.origin.map { strdup($0) }
        let caFile = self.address.secure ? options.certificateAuthorityFile.map { strdup($0) } : nil
        defer {
            for pointer in [address, target, host, origin ?? nil, caFile ?? nil] { free(pointer) }
        }
        var settings = cws_options()
        settings.address = UnsafePointer(address)
        settings.port = Int32(self.address.port)
        settings.path = UnsafePointer(target)
        settings.host = UnsafePointer(host)
        settings.origin = origin.flatMap { UnsafePointer($0) }
        settings.use_tls = self.address.secure ? 1 : 0
        settings.ca_file = caFile.flatMap { UnsafePointer($0) }
        settings.ping_after_seconds = options.pingAfterSeconds
        settings.hang_up_after_seconds = max(options.hangUpAfterSeconds, options.pingAfterSeconds + 1)
        settings.connect_timeout_seconds = options.connectTimeoutSeconds
        settings.receive_buffer_size = 65_536
        settings.user = Unmanaged.passUnretained(self).toOpaque()
        settings.callback = webSocketCallback

        guard let client = cws_client_create(&settings) else {
            finish(
                .failed(.connection("could not create a WebSocket context", code: URLErrorCodes.cannotConnectToHost)))
            return
        }
        shared.withLock { $0.client = ClientHandle(pointer: client) }
        if client.pointee.connect_failed != 0 {
            finish(
                .failed(
                    .connection(
                        "WebSocket: could not connect to \(self.address.hostHeader)",
                        code: URLErrorCodes.cannotConnectToHost)))
        }
        // A frame or close queued before the client existed found nothing to wake; look once now.
        wakeUp()
        while !finished && !abandon {
            if cws_service(client) < 0 { break }
        }
        shared.withLock { $0.client = nil }
        cws_client_destroy(client)
        if !finished {
            if let close = shared.withLock({ $0.close }) {
                finish(.closed(code: close.code, reason: String(decoding: close.reason, as: UTF8.self)))
            } else {
                finish(
                    .failed(
                        .connection("the WebSocket service loop stopped", code: URLErrorCodes.networkConnectionLost)))
            }
        }
    }

    /// Reports the last event once; later callbacks (from the context's teardown) are ignored.
    private func finish(_ event: WebSocketEvent) {
        guard !finished else { return }
        finished = true
        wsi = nil
        shared.withLock { shared in
            shared.ended = true
            shared.outbox.removeAll()
        }
        handler(event)
    }

    /// Called on the service thread after `lws_cancel_service`: asks for a writeable callback, or abandons a
    /// connection still opening when it is to be closed.
    private func wakeUp() {
        let (hasFrames, closeRequested) = shared.withLock { (!$0.outbox.isEmpty, $0.close != nil) }
        guard hasFrames || closeRequested else { return }
        if established, let wsi {
            lws_callback_on_writable(wsi)
        } else if closeRequested && !established {
            abandon = true
        }
    }

    /// One libwebsockets callback, on the service thread.
    fileprivate func handle(
        _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ input: UnsafeMutableRawPointer?, _ length: Int
    ) -> Int32 {
        // After the end, or once abandoned (the context's teardown then reports the connection as failed), the
        // outcome is already decided.
        if finished || abandon { return reason == LWS_CALLBACK_CLIENT_WRITEABLE ? -1 : 0 }
        switch reason {
        case LWS_CALLBACK_CLIENT_ESTABLISHED:
            self.wsi = wsi
            established = true
            handler(.opened)
            wakeUp()
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
            let text = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "connection failed"
            finish(.failed(Self.connectError(text, status: Int(cws_http_status(wsi)))))
        case LWS_CALLBACK_CLIENT_RECEIVE:
            guard let wsi else { return 0 }
            if cws_is_first_fragment(wsi) != 0 {
                message.removeAll(keepingCapacity: true)
                messageIsBinary = cws_frame_is_binary(wsi) != 0
            }
            if let input, length > 0 {
                message.append(contentsOf: UnsafeRawBufferPointer(start: input, count: length))
            }
            if cws_is_final_fragment(wsi) != 0 && cws_remaining_payload(wsi) == 0 {
                let whole = message
                message = []
                handler(messageIsBinary ? .binary(whole) : .text(whole))
            }
        case LWS_CALLBACK_CLIENT_WRITEABLE:
            return writeNext(wsi)
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            let bytes =
                input.map { UnsafeRawBufferPointer(start: $0, count: length) }
                ?? UnsafeRawBufferPointer(start: nil, count: 0)
            let code = WebSocketCloseCode(payload: bytes)
            peerClose = (code, code == nil ? "" : String(decoding: bytes.dropFirst(2), as: UTF8.self))
        case LWS_CALLBACK_CLIENT_CLOSED:
            if let peerClose {
                finish(.closed(code: peerClose.code, reason: peerClose.reason))
            } else if let sentClose {
                finish(.closed(code: sentClose.code, reason: sentClose.reason))
            } else {
                finish(.failed(.connection("the connection was lost", code: URLErrorCodes.networkConnectionLost)))
            }
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            wakeUp()
        default:
            break
        }
        return 0
    }

    /// Sends the next queued frame, or the close frame once the queue is empty; -1 closes the connection.
    private func writeNext(_ wsi: OpaquePointer?) -> Int32 {
        guard let wsi else { return 0 }
        let (frame, close, more) = shared.withLock {
            shared -> ([UInt8]?, (code: WebSocketCloseCode, reason: [UInt8])?, Bool) in
            if !shared.outbox.isEmpty {
                let frame = shared.outbox.removeFirst()
                return (frame, nil, !shared.outbox.isEmpty || shared.close != nil)
            }
            return (nil, shared.close, false)
        }
        if let frame {
            let sent = frame.withUnsafeBufferPointer { cws_send(wsi, $0.baseAddress, $0.count, 0) }
            if sent != 0 { return -1 }
            if more { lws_callback_on_writable(wsi) }
            return 0
        }
        if let close {
            sentClose = (close.code, String(decoding: close.reason, as: UTF8.self))
            close.reason.withUnsafeBufferPointer {
                cws_set_close_reason(wsi, close.code.rawValue, $0.baseAddress, $0.count)
            }
            return -1
        }
        return 0
    }

    /// Maps a connect failure to a transport error: a refused upgrade keeps its HTTP status.
    static func connectError(_ text: String, status: Int) -> TransportError {
        if status >= 400 {
            let message = "the WebSocket upgrade was refused with HTTP \(status) (\(text))"
            return .server(RequestError(status: StatusCode(httpStatus: status), message: message), httpStatus: status)
        }
        let lowered = text.lowercased()
        let code =
            lowered.contains("timed out") || lowered.contains("timeout")
            ? URLErrorCodes.timedOut : URLErrorCodes.cannotConnectToHost
        return .connection("WebSocket: \(text)", code: code)
    }
}

/// The one libwebsockets callback: finds the connection from the context's user pointer.
private func webSocketCallback(
    wsi: OpaquePointer?, reason: lws_callback_reasons, user: UnsafeMutableRawPointer?,
    input: UnsafeMutableRawPointer?, length: Int
) -> Int32 {
    guard let pointer = cws_user(wsi) else { return 0 }
    let connection = Unmanaged<WebSocketConnection>.fromOpaque(pointer).takeUnretainedValue()
    return connection.handle(wsi, reason, input, length)
}
