import Foundation
import Testing

@testable import FirebaseDataConnect

#if canImport(Glibc)
import Glibc
#endif

/// The OpenSSL command line, which plays the TLS server.
private let opensslPath = "/usr/bin/openssl"

/// `wss` against `openssl s_server` with a self-signed certificate: the certificate and the host name are checked.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: opensslPath)))
struct WebSocketTLSTests {
    static let openssl = opensslPath

    /// A TLS server for `localhost` on a free port, answering plain HTTP (never a WebSocket upgrade).
    final class TLSServer {
        let directory: URL
        let port: Int
        private let process: Process

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("wss-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Self.run([
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=DNS:localhost", "-keyout", directory.appendingPathComponent("key.pem").path,
                "-out", directory.appendingPathComponent("cert.pem").path,
            ])
            port = try Self.freePort()
            process = Process()
            process.executableURL = URL(fileURLWithPath: WebSocketTLSTests.openssl)
            process.arguments = [
                "s_server", "-quiet", "-www", "-accept", "127.0.0.1:\(port)",
                "-cert", directory.appendingPathComponent("cert.pem").path,
                "-key", directory.appendingPathComponent("key.pem").path,
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        /// Stops the server. Not `waitUntilExit()`: it spins a run loop, which never turns on a test's thread.
        func stop() {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            try? FileManager.default.removeItem(at: directory)
        }

        var certificate: String { directory.appendingPathComponent("cert.pem").path }

        /// Waits until the server accepts TCP connections.
        func waitUntilListening() async -> Bool {
            await HangGuard.wait {
                let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                defer { close(fd) }
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = in_port_t(UInt16(port).bigEndian)
                address.sin_addr.s_addr = inet_addr("127.0.0.1")
                return withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                    }
                }
            }
        }

        private static func run(_ arguments: [String]) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: WebSocketTLSTests.openssl)
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw POSIXError(.EIO) }
        }

        private static func freePort() throws -> Int {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
            }
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            return Int(UInt16(bigEndian: address.sin_port))
        }
    }

    /// Connects and returns the last event.
    static func outcome(host: String, port: Int, certificateAuthority: String?) async -> WebSocketEvent? {
        let log = WebSocketConnectionTests.EventLog()
        var options = WebSocketConnection.Options()
        options.certificateAuthorityFile = certificateAuthority ?? WebSocketConnection.Options.systemCertificateBundle
        _ = WebSocketConnection.connect(
            to: WebSocketAddress(host: host, port: port, secure: true, target: "/ws/test"), options: options,
            handler: log.handler)
        return await log.waitForEnd().last
    }

    static func failure(_ event: WebSocketEvent?) -> String {
        guard case .failed(let error)? = event else { return "no failure: \(String(describing: event))" }
        return String(describing: error)
    }

    @Test func checksTheCertificateAgainstTheCABundleAndTheHostName() async throws {
        // given
        let server = try TLSServer()
        defer { server.stop() }
        #expect(await server.waitUntilListening())

        // when: trusted, for the certificate's host name
        let trusted = await Self.outcome(host: "localhost", port: server.port, certificateAuthority: server.certificate)
        // when: the system bundle, which does not hold the self-signed certificate
        let untrusted = await Self.outcome(host: "localhost", port: server.port, certificateAuthority: nil)
        // when: trusted, but for a name the certificate does not cover
        let otherName = await Self.outcome(
            host: "127.0.0.1", port: server.port, certificateAuthority: server.certificate)

        // then: TLS succeeded and only the upgrade failed; the other two failed in the TLS handshake (lws reports
        // both as "connect SSL err")
        let trustedFailure = Self.failure(trusted)
        let untrustedFailure = Self.failure(untrusted)
        let otherNameFailure = Self.failure(otherName)
        #expect(trustedFailure.contains("101") || trustedFailure.lowercased().contains("upgrade"), "\(trustedFailure)")
        #expect(untrustedFailure.contains("SSL"), "\(untrustedFailure)")
        #expect(otherNameFailure.contains("SSL"), "\(otherNameFailure)")
    }
}
