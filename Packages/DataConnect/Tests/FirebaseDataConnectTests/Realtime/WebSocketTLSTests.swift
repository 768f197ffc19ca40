import DataConnectTestSupport
import Foundation
import ProcessSpawning
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
        private let process: SpawnedProcess

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("wss-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Self.run([
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=DNS:localhost", "-keyout", directory.appendingPathComponent("key.pem").path,
                "-out", directory.appendingPathComponent("cert.pem").path,
            ])
            port = try Loopback.freePort()
            process = try SpawnedProcess(
                executable: WebSocketTLSTests.openssl,
                arguments: [
                    "s_server", "-quiet", "-www", "-accept", "127.0.0.1:\(port)",
                    "-cert", directory.appendingPathComponent("cert.pem").path,
                    "-key", directory.appendingPathComponent("key.pem").path,
                ], output: .null, errors: .null)
        }

        /// Stops the server and reaps it.
        func stop() {
            process.send(SIGKILL)
            process.waitForExit()
            try? FileManager.default.removeItem(at: directory)
        }

        var certificate: String { directory.appendingPathComponent("cert.pem").path }

        /// Waits until the server accepts TCP connections.
        func waitUntilListening() async -> Bool {
            await HangGuard.wait { (try? LoopbackConnection(port: port)) != nil }
        }

        private static func run(_ arguments: [String]) throws {
            let (termination, _, _) = try SpawnedProcess.run(WebSocketTLSTests.openssl, arguments)
            guard termination == .exit(0) else { throw POSIXError(.EIO) }
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
