import Foundation
import Testing
import WorkspaceTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `dataconnect emulator --allow-host … --allow-origin …` run as a process and called the way a browser
/// would, with `Host` and `Origin` written by hand on a raw socket.
@Suite(.serialized) struct EmulatorAccessProcessTests {
    static let connectorPath = "/v1/projects/p/locations/l/services/movies/connectors/movies"

    @Test func allowedHostsAndOriginsAreServedAndOthersRefused() async throws {
        // given
        let emulator = try await EmulatorProcess([
            "--backend", RepositoryPaths.movies, "--seed", RepositoryPaths.movies + "/seed_data.gql", "--no-watch",
            "--allow-host", "devbox.test", "--allow-origin", "http://devbox.test:8080",
        ])
        let port = try #require(UInt16(emulator.url.split(separator: ":").last ?? ""))
        let query =
            #"{"name":"projects/p/locations/l/services/movies/connectors/movies","operationName":"listMovies","#
            + #""variables":{}}"#

        // when
        let allowedHost = try RawExchange(port: port, "GET", "/emulator/info", host: "devbox.test:\(port)")
        let foreignHost = try RawExchange(port: port, "GET", "/emulator/info", host: "evil.test:\(port)")
        let allowedOrigin = try RawExchange(
            port: port, "POST", Self.connectorPath + ":executeQuery", host: "devbox.test:\(port)",
            headers: ["Origin: http://devbox.test:8080", "Content-Type: application/json"], body: query)
        let preflight = try RawExchange(
            port: port, "OPTIONS", "/emulator/clear", host: "devbox.test:\(port)",
            headers: ["Origin: http://devbox.test:8080", "Access-Control-Request-Method: POST"])
        let foreignOrigin = try RawExchange(
            port: port, "POST", "/emulator/clear", host: "127.0.0.1:\(port)", headers: ["Origin: http://evil.example"])
        let loopbackPageOnAdmin = try RawExchange(
            port: port, "POST", "/emulator/clear", host: "127.0.0.1:\(port)", headers: ["Origin: http://localhost:3000"]
        )
        let noOriginNoContentType = try RawExchange(
            port: port, "POST", Self.connectorPath + ":executeQuery", host: "127.0.0.1:\(port)", body: query)
        let exit = await emulator.stop()

        // then
        #expect(allowedHost.status == 200, "\(allowedHost)")
        #expect(foreignHost.status == 403, "\(foreignHost)")
        #expect(foreignHost.errorStatus == "PERMISSION_DENIED", "\(foreignHost)")
        #expect(allowedOrigin.status == 200, "\(allowedOrigin)")
        #expect(allowedOrigin.headers["access-control-allow-origin"] == "http://devbox.test:8080")
        #expect(preflight.status == 204, "\(preflight)")
        #expect(preflight.headers["access-control-allow-origin"] == "http://devbox.test:8080")
        #expect(foreignOrigin.status == 403, "\(foreignOrigin)")
        #expect(foreignOrigin.errorStatus == "PERMISSION_DENIED", "\(foreignOrigin)")
        #expect(loopbackPageOnAdmin.status == 403, "\(loopbackPageOnAdmin)")
        #expect(noOriginNoContentType.status == 200, "\(noOriginNoContentType)")
        let movies = ((noOriginNoContentType.json?["data"] as? [String: Any])?["movies"] as? [Any])?.count ?? 0
        #expect(movies > 0, "the foreign and loopback pages must not have cleared the data")
        #expect(exit == 0)
    }

    @Test(arguments: [
        ["--allow-origin", "devbox.test"], ["--allow-origin", "null"], ["--allow-host", "http://devbox.test"],
        ["--allow-host"],
    ])
    func malformedAllowListEntriesAreUsageErrors(_ arguments: [String]) async throws {
        // when
        let result = try await ChildProcess.dataconnect(["emulator", "--backend", RepositoryPaths.movies] + arguments)

        // then
        #expect(result.exitStatus == 2)
        #expect(result.standardError.contains(arguments[0]))
    }

    @Test func helpDescribesTheAccessFlags() async throws {
        // when
        let result = try await ChildProcess.dataconnect(["emulator", "--help"])

        // then
        #expect(result.exitStatus == 0)
        #expect(result.standardOutput.contains("--allow-host HOST"))
        #expect(result.standardOutput.contains("--allow-origin ORIGIN"))
    }
}

/// One request on a new connection, written byte for byte, and the response read until the server closes it.
private struct RawExchange: CustomStringConvertible {
    var status = 0
    var headers: [String: String] = [:]
    var body = Data()

    var json: [String: Any]? { try? JSONSerialization.jsonObject(with: body) as? [String: Any] }
    var errorStatus: String? { (json?["error"] as? [String: Any])?["status"] as? String }
    var description: String { "HTTP \(status) \(headers): \(String(decoding: body.prefix(500), as: UTF8.self))" }

    /// Sends the request with `Connection: close`; reads fail after `hangGuard` seconds of silence.
    init(
        port: UInt16, _ method: String, _ path: String, host: String, headers extra: [String] = [],
        body: String? = nil, hangGuard: Int = Int(HangGuard.process.components.seconds)
    ) throws {
        var request = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\n"
        for line in extra { request += line + "\r\n" }
        if let body { request += "Content-Length: \(body.utf8.count)\r\n" }
        request += "Connection: close\r\n\r\n" + (body ?? "")
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: hangGuard, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        let bytes = Array(request.utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, $0.count - offset, 0) }
            guard sent > 0 else { throw POSIXError(.EPIPE) }
            offset += sent
        }
        var received = Data()
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received.append(contentsOf: chunk[..<count])
            } else if count < 0 && errno == EINTR {
                continue
            } else if count < 0 {
                throw POSIXError(.ETIMEDOUT)
            } else {
                break
            }
        }
        guard let end = received.range(of: Data("\r\n\r\n".utf8)) else { throw POSIXError(.EBADMSG) }
        let lines = String(decoding: received[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        self.body = Data(received[end.upperBound...])
    }
}
