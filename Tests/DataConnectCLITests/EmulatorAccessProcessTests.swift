import DataConnectTestSupport
import Foundation
import Testing

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

    /// Sends the request with `Connection: close` and reads the answer; gives up after `hangGuard`.
    init(
        port: UInt16, _ method: String, _ path: String, host: String, headers extra: [String] = [],
        body: String? = nil, hangGuard: Duration = HangGuard.process
    ) throws {
        var request = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\n"
        for line in extra { request += line + "\r\n" }
        if let body { request += "Content-Length: \(body.utf8.count)\r\n" }
        request += "Connection: close\r\n\r\n" + (body ?? "")
        let response = try RawHTTP.exchange(port: Int(port), request, hangGuard: hangGuard)
        status = response.status
        for (name, value) in response.headers {
            headers[name.lowercased()] = value.trimmingCharacters(in: .whitespaces)
        }
        self.body = Data(response.body)
    }
}
