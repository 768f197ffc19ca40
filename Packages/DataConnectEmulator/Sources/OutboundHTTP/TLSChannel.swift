import COpenSSL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// OpenSSL's client settings, made once per ``LiveHTTPTransport`` and shared by its HTTPS connections: TLS 1.2 or
/// later, peers verified against the system's trust store and an optional extra CA file, and the socket BIO
/// method connections read and write through (see `copenssl_socket_method` in the COpenSSL shim).
///
/// `@unchecked Sendable`: an `SSL_CTX` is not changed once configured here, and OpenSSL makes connections from one
/// on any thread; the BIO method is read-only after it is made.
final class TLSContext: @unchecked Sendable {
    /// The `SSL_CTX`.
    let context: OpaquePointer
    /// The `BIO_METHOD` of connections' sockets.
    let socketMethod: OpaquePointer

    /// Makes the settings.
    ///
    /// - Parameter additionalCAFile: a PEM file of CA certificates trusted besides the system's.
    /// - Throws: ``OutboundHTTPError/unsupported(_:)`` when OpenSSL cannot be set up or the file cannot be loaded.
    init(additionalCAFile: String?) throws(OutboundHTTPError) {
        ERR_clear_error()
        guard let context = copenssl_client_context() else {
            throw .unsupported("cannot set up TLS: \(OpenSSLErrorQueue.drain() ?? "OpenSSL failed")")
        }
        guard let socketMethod = copenssl_socket_method() else {
            SSL_CTX_free(context)
            throw .unsupported("cannot set up TLS: \(OpenSSLErrorQueue.drain() ?? "OpenSSL failed")")
        }
        if let additionalCAFile, SSL_CTX_load_verify_locations(context, additionalCAFile, nil) != 1 {
            let reason = OpenSSLErrorQueue.drain() ?? "it holds no certificate"
            SSL_CTX_free(context)
            BIO_meth_free(socketMethod)
            throw .unsupported("cannot load the CA file \(additionalCAFile): \(reason)")
        }
        self.context = context
        self.socketMethod = socketMethod
    }

    deinit {
        SSL_CTX_free(context)
        BIO_meth_free(socketMethod)
    }
}

/// TLS over a connected non-blocking socket: the handshake at creation, then reads and writes, each waiting
/// with `poll` for what OpenSSL asks for (readable or writable) until the deadline.
///
/// The socket stays its owner's to close; the connection is freed with the channel.
final class TLSChannel: ByteChannel {
    /// The `SSL`.
    private let connection: OpaquePointer
    private let socket: SocketChannel
    /// `host:port`, for messages.
    private let peer: String

    /// Connects: sends the host as SNI (for a name), shakes hands, and verifies the certificate's chain and that
    /// it names the host.
    ///
    /// - Throws: ``OutboundHTTPError/broken(_:)`` when the handshake fails (the certificate does not verify, or
    ///   the server speaks no TLS), ``OutboundHTTPError/timedOut`` at the deadline.
    init(
        context: TLSContext, socket: SocketChannel, host: String, port: UInt16, deadline: ContinuousClock.Instant
    ) throws(OutboundHTTPError) {
        ERR_clear_error()
        guard let connection = SSL_new(context.context) else {
            throw .unsupported("cannot set up TLS: \(OpenSSLErrorQueue.drain() ?? "OpenSSL failed")")
        }
        self.connection = connection
        self.socket = socket
        self.peer = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        // From here on a throw runs deinit, which frees the connection.
        guard copenssl_expect_host(connection, host) == 1,
            copenssl_attach_socket(connection, context.socketMethod, socket.descriptor) == 1
        else {
            throw .unsupported("cannot set up TLS for \(peer): \(OpenSSLErrorQueue.drain() ?? "OpenSSL failed")")
        }
        try handshake(deadline: deadline)
    }

    deinit {
        SSL_free(connection)
    }

    private func handshake(deadline: ContinuousClock.Instant) throws(OutboundHTTPError) {
        while true {
            ERR_clear_error()
            let result = SSL_connect(connection)
            if result == 1 { return }
            let code = SSL_get_error(connection, result)
            if try waitIfAsked(code, deadline: deadline) { continue }
            let verification = SSL_get_verify_result(connection)
            if verification != Int(X509_V_OK) {
                let reason = String(cString: X509_verify_cert_error_string(verification))
                throw .broken("the TLS handshake with \(peer) failed: its certificate does not verify: \(reason)")
            }
            throw .broken("the TLS handshake with \(peer) failed: \(describe(code))")
        }
    }

    func write(_ bytes: [UInt8], deadline: ContinuousClock.Instant) throws(OutboundHTTPError) {
        var offset = 0
        while offset < bytes.count {
            if LiveHTTPTransport.remainingMilliseconds(deadline) == 0 { throw .timedOut }
            ERR_clear_error()
            let written = bytes.withUnsafeBytes { raw in
                SSL_write(connection, raw.baseAddress! + offset, Int32(clamping: raw.count - offset))
            }
            if written > 0 {
                offset += Int(written)
                continue
            }
            let code = SSL_get_error(connection, written)
            if try waitIfAsked(code, deadline: deadline) { continue }
            throw .broken("sending to \(peer) failed: \(describe(code))")
        }
    }

    func read(
        into buffer: UnsafeMutableRawBufferPointer, deadline: ContinuousClock.Instant
    ) throws(OutboundHTTPError) -> Int {
        if LiveHTTPTransport.remainingMilliseconds(deadline) == 0 { throw .timedOut }
        while true {
            ERR_clear_error()
            let count = SSL_read(connection, buffer.baseAddress, Int32(clamping: buffer.count))
            if count > 0 { return Int(count) }
            let code = SSL_get_error(connection, count)
            // The end of the stream, with or without close_notify (SSL_OP_IGNORE_UNEXPECTED_EOF).
            if code == SSL_ERROR_ZERO_RETURN { return 0 }
            if try waitIfAsked(code, deadline: deadline) { continue }
            throw .broken("reading the answer from \(peer) failed: \(describe(code))")
        }
    }

    /// Waits for the socket when OpenSSL asks to read or write first; returns whether it did.
    private func waitIfAsked(_ code: Int32, deadline: ContinuousClock.Instant) throws(OutboundHTTPError) -> Bool {
        switch code {
        case SSL_ERROR_WANT_READ:
            try LiveHTTPTransport.wait(socket.descriptor, for: Int16(POLLIN), deadline: deadline)
            return true
        case SSL_ERROR_WANT_WRITE:
            try LiveHTTPTransport.wait(socket.descriptor, for: Int16(POLLOUT), deadline: deadline)
            return true
        default:
            return false
        }
    }

    /// What went wrong, from OpenSSL's error queue, or from `errno` for a failed system call.
    private func describe(_ code: Int32) -> String {
        let failedErrno = errno
        if let queued = OpenSSLErrorQueue.drain() { return queued }
        if code == SSL_ERROR_SYSCALL {
            return failedErrno == 0 ? "the connection closed" : LiveHTTPTransport.describeErrno(failedErrno)
        }
        if code == SSL_ERROR_ZERO_RETURN { return "the connection closed" }
        return "OpenSSL error \(code)"
    }
}
