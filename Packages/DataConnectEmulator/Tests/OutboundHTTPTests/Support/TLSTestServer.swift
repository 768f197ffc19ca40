import DataConnectTestSupport
import Foundation
import ProcessSpawning

/// A test CA and a server certificate for `localhost` (a DNS name only, no IP address), made with the `openssl`
/// command line in a temporary folder, and a second CA that signed nothing.
struct TestCertificates {
    /// The folder holding the files.
    let directory: URL
    /// The CA that signed the server's certificate, PEM.
    var caFile: String { directory.appendingPathComponent("ca.pem").path }
    /// Another CA, PEM.
    var otherCAFile: String { directory.appendingPathComponent("other-ca.pem").path }
    /// The server's certificate, PEM.
    var certificateFile: String { directory.appendingPathComponent("server.pem").path }
    /// The server's private key, PEM.
    var keyFile: String { directory.appendingPathComponent("server.key").path }

    /// Generates the files.
    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("outbound-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        let caExtensions = [
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ]
        try openssl(
            ["req", "-x509"] + curve + ["-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Test CA"]
                + caExtensions)
        try openssl(
            ["req", "-x509"] + curve
                + ["-keyout", "other-ca.key", "-out", "other-ca.pem", "-days", "2", "-subj", "/CN=Other CA"]
                + caExtensions)
        try openssl(["req"] + curve + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"])
        try "subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n".write(
            to: directory.appendingPathComponent("server.ext"), atomically: true, encoding: .utf8)
        try openssl([
            "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out",
            "server.pem", "-days", "2", "-extfile", "server.ext",
        ])
    }

    /// Removes the files.
    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    private func openssl(_ arguments: [String]) throws {
        try runTool("openssl", arguments, in: directory)
    }
}

/// An HTTPS server on a free loopback port: Python 3's `http.server` behind its `ssl` module, answering every
/// `GET` and `POST` with JSON naming what it received (path, body, `Host`, and the SNI name the client sent).
final class TLSTestServer {
    /// The port it listens on.
    let port: UInt16
    private let process: SpawnedProcess

    /// Starts the server with the certificate and key.
    init(certificates: TestCertificates) throws {
        let script = certificates.directory.appendingPathComponent("server.py")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        process = try SpawnedProcess(
            executable: "/usr/bin/env",
            arguments: ["python3", script.path, certificates.certificateFile, certificates.keyFile], errors: .null)
        // The first line is the port; end of file means the server did not start.
        let output = process.standardOutput!
        defer { close(output) }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(output, &byte, 1) == 1, byte != UInt8(ascii: "\n") { line.append(byte) }
        guard let port = UInt16(String(decoding: line, as: UTF8.self)) else {
            process.send(SIGKILL)
            process.waitForExit()
            throw TestServerError("the TLS test server did not start")
        }
        self.port = port
    }

    /// Stops the server (with SIGKILL, whatever signals it blocks) and reaps it.
    func stop() {
        process.send(SIGKILL)
        process.waitForExit()
    }

    deinit {
        stop()
    }

    private static let script = #"""
        import http.server, json, signal, ssl, sys

        signal.pthread_sigmask(signal.SIG_SETMASK, [])

        seen = {"sni": None}

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length).decode()
                answer = json.dumps({
                    "method": self.command, "path": self.path, "body": body, "host": self.headers.get("Host"),
                    "sni": seen["sni"],
                }).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            do_GET = do_POST

            def log_message(self, *arguments):
                pass

        def remember(connection, name, context):
            seen["sni"] = name

        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[1], sys.argv[2])
        context.sni_callback = remember
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.socket = context.wrap_socket(server.socket, server_side=True)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#
}

/// A test server could not start.
struct TestServerError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
