import DataConnectEncoding
import DataConnectTestSupport
import DataConnectWire
import EmulatorHTTP
import Foundation
import OutboundHTTP
import ProcessSpawning
import Synchronization

/// A stand-in for a provider's endpoints on a free loopback port: it records every request and answers with the
/// test's closure.
final class ProviderStandIn: Sendable {
    /// One request as the stand-in received it.
    struct Received: Sendable {
        var method: String
        var path: String
        /// Header fields, names lowercased.
        var headers: [String: String]
        var body: [UInt8]
        var json: JSONValue? { try? JSONValue(parsing: body) }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Where the requests are kept; the server's closure holds it, not the stand-in.
    private final class Recorder: Sendable {
        let requests = Mutex<[Received]>([])
    }

    private let recorder = Recorder()
    private let server: HTTPServer

    /// The requests received so far, in order.
    var received: [Received] { recorder.requests.withLock { $0 } }

    /// Starts answering with `answer`.
    init(_ answer: @escaping @Sendable (Received) -> HTTPResponse) throws {
        let recorder = self.recorder
        server = HTTPServer(
            port: 0,
            responder: HTTPClosureResponder { request in
                var headers: [String: String] = [:]
                for field in request.headers { headers[field.name.lowercased()] = field.value }
                let query = request.query.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
                let record = Received(
                    method: request.method.rawValue, path: request.path + (query.isEmpty ? "" : "?\(query)"),
                    headers: headers, body: request.body)
                recorder.requests.withLock { $0.append(record) }
                return answer(record)
            })
        try server.start()
    }

    deinit {
        server.stop()
    }

    /// `http://127.0.0.1:<port>`.
    var url: String { "http://127.0.0.1:\(server.port)" }

    /// The requests whose path starts with `prefix`.
    func requests(under prefix: String) -> [Received] {
        received.filter { $0.path.hasPrefix(prefix) }
    }
}

/// A transport that answers without a network: the test implementation of the seam. It records each request.
final class RecordingTransport: HTTPTransport {
    let requests = Mutex<[OutboundRequest]>([])
    private let answer: @Sendable (OutboundRequest) -> Result<OutboundResponse, OutboundHTTPError>

    init(_ answer: @escaping @Sendable (OutboundRequest) -> Result<OutboundResponse, OutboundHTTPError>) {
        self.answer = answer
    }

    func send(
        _ request: OutboundRequest, deadline: ContinuousClock.Instant
    ) throws(OutboundHTTPError) -> OutboundResponse {
        requests.withLock { $0.append(request) }
        return try answer(request).get()
    }
}

/// A service account key file made for the test: a fresh RSA key (the `openssl` command), its public half, and the
/// JSON Google issues, its `token_uri` pointing at a stand-in.
struct TestServiceAccount {
    let directory: URL
    let clientEmail = "emulator-test@demo-sa-project.iam.gserviceaccount.com"
    let keyID = "0123456789abcdef"
    var keyFile: String { directory.appendingPathComponent("key.json").path }
    var publicKeyFile: URL { directory.appendingPathComponent("public.pem") }

    init(tokenURI: String, projectID: String? = "demo-sa-project") throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "service-account-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try runTool(
            "openssl", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "private.pem"],
            in: directory)
        try runTool("openssl", ["pkey", "-in", "private.pem", "-pubout", "-out", "public.pem"], in: directory)
        let privateKey = try String(contentsOf: directory.appendingPathComponent("private.pem"), encoding: .utf8)
        var json: JSONObject = [
            "type": "service_account", "private_key_id": .string(keyID), "private_key": .string(privateKey),
            "client_email": .string(clientEmail), "client_id": "1234567890",
            "auth_uri": "https://accounts.google.com/o/oauth2/auth", "token_uri": .string(tokenURI),
        ]
        if let projectID { json["project_id"] = .string(projectID) }
        try Data(JSONValue.object(json).serialized()).write(to: URL(fileURLWithPath: keyFile))
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Whether a JWT's signature verifies with the account's public key (`openssl dgst -sha256 -verify`).
    func verifies(_ jwt: String) throws -> Bool {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let signature = Self.base64URLDecoded(parts[2]) else { return false }
        let input = directory.appendingPathComponent("signed-\(UUID().uuidString)")
        let signatureFile = directory.appendingPathComponent("signature-\(UUID().uuidString)")
        try Data("\(parts[0]).\(parts[1])".utf8).write(to: input)
        try signature.write(to: signatureFile)
        do {
            try runTool(
                "openssl",
                ["dgst", "-sha256", "-verify", publicKeyFile.path, "-signature", signatureFile.path, input.path],
                in: directory)
            return true
        } catch {
            return false
        }
    }

    /// A base64url segment decoded.
    static func base64URLDecoded(_ text: Substring) -> Data? {
        Base64.url.decode(text).map { Data($0) }
    }

    /// A JWT segment decoded as JSON.
    static func json(ofSegment text: Substring) -> JSONValue? {
        base64URLDecoded(text).flatMap { try? JSONValue(parsing: Array($0)) }
    }
}

/// A form body (`application/x-www-form-urlencoded`) taken apart.
func formFields(_ body: String) -> [String: String] {
    var fields: [String: String] = [:]
    for pair in body.split(separator: "&") {
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { continue }
        let value = parts[1].replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(parts[1])
        fields[String(parts[0])] = value
    }
    return fields
}

extension HangGuard {
    /// The deadline of a provider call that should be answered.
    static var deadline: ContinuousClock.Instant { .now + event }
}
