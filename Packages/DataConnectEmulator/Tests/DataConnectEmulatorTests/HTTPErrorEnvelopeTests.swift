import DataConnectEngine
import DataConnectWire
import EmulatorTesting
import Testing

/// Oversized and badly framed requests sent to the emulator over a raw socket: each one is answered with the
/// JSON error envelope and the right status, by the HTTP layer or by the endpoint, and the emulator keeps
/// serving.
@Suite(.on(.sqlite))  // HTTP error envelopes
struct HTTPErrorEnvelopeTests {
    static let mutationPath = "/v1/projects/p/locations/l/services/movies/connectors/movies:executeMutation"
    static let upsertUser =
        #"{"name":"projects/p/locations/l/services/movies/connectors/movies","operationName":"upsertUser","#
        + #""variables":{"username":"big-token"}}"#

    /// An `upsertUser` call carrying `token`, plus `extraHeaders` lines.
    static func upsertRequest(token: String, target: String = mutationPath, extraHeaders: String = "") -> String {
        "POST \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "X-Firebase-Auth-Token: \(token)\r\n\(extraHeaders)Content-Length: \(upsertUser.utf8.count)\r\n"
            + "Connection: close\r\n\r\n\(upsertUser)"
    }

    /// An unsigned token whose claims carry `padding` characters, so its length can be chosen.
    static func token(uid: String, padding: Int) -> String {
        AuthContext.unsignedToken(claims: [
            "sub": .string(uid), "padding": .string(String(repeating: "p", count: padding)),
        ])
    }

    @Test func aFortyKilobyteTokenIsDecoded() throws {
        // given
        let emulator = try Backend.movies.start()
        let token = Self.token(uid: "uid-large", padding: 30_000)
        #expect((40_000...41_000).contains(token.utf8.count))

        // when
        let result = try rawExchange(port: emulator.emulator.port, Self.upsertRequest(token: token))

        // then
        #expect(result.status == 200, "\(result)")
        #expect(result.json["data"]?["user_upsert"]?["id"] == "uid-large")
        try expectStillServing(emulator)
    }

    /// A request-level error the emulator answers, with what its message must name.
    struct Refusal: Sendable, CustomTestStringConvertible {
        var name: String
        var request: String
        var status: Int
        var code: String
        var fragment: String

        var testDescription: String { name }
    }

    static let refusals: [Refusal] = [
        Refusal(
            name: "a 40 KB token that is not a JWT",
            request: upsertRequest(token: String(repeating: "x", count: 40_000)), status: 401,
            code: "UNAUTHENTICATED", fragment: "X-Firebase-Auth-Token"),
        Refusal(
            name: "a token over 64 KiB",
            request: upsertRequest(token: token(uid: "uid-huge", padding: 52_000)), status: 401,
            code: "UNAUTHENTICATED", fragment: "longer than 65536 bytes"),
        Refusal(
            name: "a header section over 80 KiB",
            request: upsertRequest(token: token(uid: "uid-huge", padding: 66_000)), status: 431,
            code: "RESOURCE_EXHAUSTED", fragment: "81920"),
        Refusal(
            name: "a request target over 8 KiB",
            request: upsertRequest(
                token: token(uid: "uid-1", padding: 10),
                target: mutationPath + "?key=" + String(repeating: "k", count: 8_200)),
            status: 414, code: "RESOURCE_EXHAUSTED", fragment: "8192"),
        Refusal(
            name: "a body over 8 MiB",
            request: "POST \(mutationPath) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 8388609\r\n\r\n",
            status: 413, code: "RESOURCE_EXHAUSTED", fragment: "8388608"),
        Refusal(
            name: "Transfer-Encoding with Content-Length",
            request: upsertRequest(
                token: token(uid: "uid-1", padding: 10), extraHeaders: "Transfer-Encoding: chunked\r\n"),
            status: 400, code: "INVALID_ARGUMENT", fragment: "Transfer-Encoding"),
        Refusal(
            name: "a transfer coding other than chunked",
            request: "POST \(mutationPath) HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: gzip\r\n\r\n",
            status: 501, code: "UNIMPLEMENTED", fragment: "gzip"),
    ]

    @Test(arguments: refusals)
    func oversizedAndBadlyFramedRequestsGetTheJSONEnvelope(_ refusal: Refusal) throws {
        // given
        let emulator = try Backend.movies.start()

        // when
        let result = try rawExchange(port: emulator.emulator.port, refusal.request)

        // then
        #expect(result.status == refusal.status, "\(result)")
        #expect(result.isErrorEnvelope, "\(result)")
        #expect(result.errorStatus == refusal.code, "\(result)")
        #expect(result.errorMessage.contains(refusal.fragment), "\(result)")
        let written = emulator.executeAdmin(#"query { users(where: {username: {eq: "big-token"}}) { id } }"#)
        #expect(written["data"]?["users"]?.arrayValue?.isEmpty == true, "\(written)")
        try expectStillServing(emulator)
    }

    @Test func anUnsupportedHTTPVersionIsRefusedAndTheEmulatorKeepsServing() throws {
        // given
        let emulator = try Backend.movies.start()

        // when
        let result = try rawExchange(
            port: emulator.emulator.port, "GET /emulator/info HTTP/2.0\r\nHost: 127.0.0.1\r\n\r\n")

        // then: libmicrohttpd's own answer (see docs/protocol.md), with the right status
        #expect(result.status == 505, "\(result)")
        try expectStillServing(emulator)
    }

    private func expectStillServing(_ emulator: TestEmulator, sourceLocation: SourceLocation = #_sourceLocation) throws
    {
        let info = try rawExchange(
            port: emulator.emulator.port, "GET /emulator/info HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        #expect(info.status == 200, "\(info)", sourceLocation: sourceLocation)
        #expect(info.json["services"]?[0]?["serviceId"] == "movies", sourceLocation: sourceLocation)
    }
}
