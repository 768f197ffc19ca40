import DataConnectEngine
import DataConnectTestSupport
import DataConnectWire
import EmulatorHTTP
import Foundation
import OutboundHTTP
import Synchronization
import Testing

@testable import DataConnectEmulator

/// The Vertex AI provider against a stand-in `predict` endpoint (and a stand-in token endpoint): the request it
/// sends, the service account flow, and how Vertex's answers become statuses.
@Suite struct VertexEmbeddingsTests {
    static let predictPath = "/v1/projects/demo-project/locations/europe-west1/publishers/google/models/"

    /// A `predict` answer with one vector per instance: `[i, i + 0.5, -1]` for the i-th.
    static func predictions(for request: ProviderStandIn.Received) -> HTTPResponse {
        let count = request.json?["instances"]?.arrayValue?.count ?? 0
        let predictions = (0..<count).map { index -> JSONValue in
            let values: [JSONValue] = [JSONValue(Double(index)), JSONValue(Double(index) + 0.5), -1]
            return ["embeddings": ["values": .array(values), "statistics": ["token_count": 3, "truncated": false]]]
        }
        return .json(JSONValue.object(["predictions": .array(predictions)]).serialized())
    }

    static func environment(_ standIn: ProviderStandIn, _ extra: [String: String] = [:]) -> [String: String] {
        [
            "GOOGLE_OAUTH_ACCESS_TOKEN": "ya29.test-token", "GOOGLE_CLOUD_PROJECT": "demo-project",
            "DATACONNECT_VERTEX_ENDPOINT": standIn.url,
        ].merging(extra) { $1 }
    }

    // MARK: The request

    @Test(arguments: [
        (EmbeddingPurpose.document, "RETRIEVAL_DOCUMENT"), (EmbeddingPurpose.query, "RETRIEVAL_QUERY"),
    ])
    func sendsOneInstancePerTextWithItsTaskTypeAndTheToken(purpose: EmbeddingPurpose, taskType: String) throws {
        // given a stand-in predict endpoint and a token in the environment
        let standIn = try ProviderStandIn(Self.predictions)
        let vertex = VertexEmbeddings(
            environment: Self.environment(standIn), serviceLocation: "europe-west1", transport: LiveHTTPTransport())

        // when two texts are embedded
        let vectors = try vertex.embed(
            ["a quiet thriller", "Heat (1995)"], model: "textembedding-gecko@003", purpose: purpose,
            deadline: HangGuard.deadline)

        // then one POST went to the model's predict method, with the token and one instance per text
        let request = try #require(standIn.received.first)
        #expect(standIn.received.count == 1)
        #expect(request.method == "POST")
        #expect(request.path == Self.predictPath + "textembedding-gecko@003:predict")
        #expect(request.headers["authorization"] == "Bearer ya29.test-token")
        #expect(request.headers["content-type"] == "application/json")
        #expect(
            request.json
                == [
                    "instances": [
                        ["content": "a quiet thriller", "task_type": .string(taskType)],
                        ["content": "Heat (1995)", "task_type": .string(taskType)],
                    ]
                ])
        // and the vectors are the predictions', in order
        #expect(vectors == [[0, 0.5, -1], [1, 1.5, -1]])
    }

    @Test func resolvesProjectLocationAndEndpointFromTheEnvironment() throws {
        // given a transport that records where calls go
        let transport = RecordingTransport { _ in .success(OutboundResponse(status: 200, body: Array(#"{}"#.utf8))) }

        // when nothing but a token is set: the service's location, Google's host, GCLOUD_PROJECT as a fallback
        let fromService = VertexEmbeddings(
            environment: ["GOOGLE_OAUTH_ACCESS_TOKEN": "t", "GCLOUD_PROJECT": "p1"], serviceLocation: "asia-east1",
            transport: transport)
        // and when GOOGLE_CLOUD_LOCATION and GOOGLE_CLOUD_PROJECT are set, they win; without a location, us-central1
        let fromEnvironment = VertexEmbeddings(
            environment: [
                "GOOGLE_OAUTH_ACCESS_TOKEN": "t", "GOOGLE_CLOUD_PROJECT": "p2", "GCLOUD_PROJECT": "p1",
                "GOOGLE_CLOUD_LOCATION": "europe-west4",
            ], serviceLocation: "asia-east1", transport: transport)
        let byDefault = VertexEmbeddings(environment: ["GOOGLE_OAUTH_ACCESS_TOKEN": "t"], transport: transport)

        // then
        #expect(
            fromService.predictURL(project: "p1", model: "text-embedding-004")
                == "https://asia-east1-aiplatform.googleapis.com/v1/projects/p1/locations/asia-east1/publishers/google/models/text-embedding-004:predict"
        )
        #expect(fromService.project == "p1")
        #expect(fromEnvironment.project == "p2" && fromEnvironment.location == "europe-west4")
        #expect(fromEnvironment.endpoint == "https://europe-west4-aiplatform.googleapis.com")
        #expect(byDefault.location == "us-central1" && byDefault.project == nil)
        #expect(
            fromService.summary
                == "vertex (project p1, location asia-east1, access token from GOOGLE_OAUTH_ACCESS_TOKEN)")
    }

    @Test func splitsTextsIntoRequestsVertexAccepts() throws {
        // given a model that takes one instance per request
        let standIn = try ProviderStandIn(Self.predictions)
        let vertex = VertexEmbeddings(
            environment: Self.environment(standIn), serviceLocation: "europe-west1", transport: LiveHTTPTransport())

        // when three texts are embedded
        let vectors = try vertex.embed(
            ["a", "b", "c"], model: "gemini-embedding-001", purpose: .document, deadline: HangGuard.deadline)

        // then three requests of one instance each, and the vectors in order
        let sent = standIn.received.map { $0.json?["instances"]?[0]?["content"] }
        #expect(sent == ["a", "b", "c"])
        #expect(vectors.count == 3)
        // and other models batch 250 texts, and about 60 KB, per request
        let many = Array(repeating: "x", count: 600)
        #expect(VertexEmbeddings.batches(of: many, maximumInstances: 250).map(\.count) == [250, 250, 100])
        let long = Array(repeating: String(repeating: "y", count: 25_000), count: 5)
        #expect(VertexEmbeddings.batches(of: long, maximumInstances: 250).map(\.count) == [2, 2, 1])
    }

    // MARK: The service account flow

    @Test func exchangesASignedJWTForATokenAndKeepsIt() throws {
        // given a stand-in token endpoint and a service account key file whose token_uri points at it
        let tokens = Mutex(0)
        let standIn = try ProviderStandIn { request in
            guard request.path == "/token" else { return Self.predictions(for: request) }
            let number = tokens.withLock { count in
                count += 1
                return count
            }
            return .json(#"{"access_token":"sa-token-\#(number)","expires_in":3599,"token_type":"Bearer"}"#)
        }
        let account = try TestServiceAccount(tokenURI: standIn.url + "/token")
        defer { account.remove() }
        let issuedAt = Date(timeIntervalSince1970: 1_800_000_000)
        let vertex = VertexEmbeddings(
            environment: ["GOOGLE_APPLICATION_CREDENTIALS": account.keyFile, "GOOGLE_CLOUD_LOCATION": "europe-west1"],
            endpoint: standIn.url, transport: LiveHTTPTransport(), now: { issuedAt })

        // when two calls embed a text each
        _ = try vertex.embed(["a"], model: "text-embedding-004", purpose: .document, deadline: HangGuard.deadline)
        _ = try vertex.embed(["b"], model: "text-embedding-004", purpose: .query, deadline: HangGuard.deadline)

        // then the token endpoint was asked once, with the JWT bearer grant
        let exchanges = standIn.requests(under: "/token")
        try #require(exchanges.count == 1)
        #expect(exchanges[0].headers["content-type"] == "application/x-www-form-urlencoded")
        let form = formFields(exchanges[0].text)
        #expect(form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer")
        // and the JWT names the key, the account, the scope and the endpoint, for an hour, signed with the key
        let jwt = try #require(form["assertion"])
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        #expect(
            TestServiceAccount.json(ofSegment: parts[0]) == [
                "alg": "RS256", "typ": "JWT", "kid": .string(account.keyID),
            ]
        )
        #expect(
            TestServiceAccount.json(ofSegment: parts[1])
                == [
                    "iss": .string(account.clientEmail), "scope": "https://www.googleapis.com/auth/cloud-platform",
                    "aud": .string(standIn.url + "/token"), "iat": 1_800_000_000, "exp": 1_800_003_600,
                ])
        #expect(try account.verifies(jwt))
        // and both predict calls carried the one token, in the key file's project
        let predicts = standIn.requests(under: "/v1/")
        #expect(predicts.map { $0.headers["authorization"] } == ["Bearer sa-token-1", "Bearer sa-token-1"])
        #expect(
            predicts.first?.path
                == "/v1/projects/demo-sa-project/locations/europe-west1/publishers/google/models/text-embedding-004:predict"
        )
        #expect(vertex.summary.contains("service account \(account.clientEmail)"))
        #expect(!vertex.summary.contains("sa-token"))
    }

    @Test func aRefusedTokenIsDroppedAndTheNextCallExchangesAgain() throws {
        // given a predict endpoint that refuses the first token
        let tokens = Mutex(0)
        let standIn = try ProviderStandIn { request in
            if request.path == "/token" {
                let number = tokens.withLock { count in
                    count += 1
                    return count
                }
                return .json(#"{"access_token":"sa-token-\#(number)","expires_in":3599}"#)
            }
            if request.headers["authorization"] == "Bearer sa-token-1" {
                return .json(#"{"error":{"code":401,"message":"token revoked"}}"#, status: HTTPStatus(code: 401))
            }
            return Self.predictions(for: request)
        }
        let account = try TestServiceAccount(tokenURI: standIn.url + "/token")
        defer { account.remove() }
        let vertex = VertexEmbeddings(
            environment: ["GOOGLE_APPLICATION_CREDENTIALS": account.keyFile], endpoint: standIn.url,
            transport: LiveHTTPTransport())

        // when a call fails, then another runs
        #expect(throws: EmbeddingError.self) {
            try vertex.embed(["a"], model: "text-embedding-004", purpose: .document, deadline: HangGuard.deadline)
        }
        let vectors = try vertex.embed(
            ["a"], model: "text-embedding-004", purpose: .document, deadline: HangGuard.deadline)

        // then the second call used a new token
        #expect(vectors.count == 1)
        #expect(standIn.requests(under: "/token").count == 2)
    }

    @Test func aTokenEndpointRefusingTheAccountIsAFailedPrecondition() throws {
        let standIn = try ProviderStandIn { _ in
            .json(#"{"error":"invalid_grant","error_description":"Invalid JWT Signature."}"#, status: .badRequest)
        }
        let account = try TestServiceAccount(tokenURI: standIn.url + "/token")
        defer { account.remove() }
        let vertex = VertexEmbeddings(
            environment: ["GOOGLE_APPLICATION_CREDENTIALS": account.keyFile], endpoint: standIn.url,
            transport: LiveHTTPTransport())
        let error = Self.failure {
            try vertex.embed(["a"], model: "text-embedding-004", purpose: .document, deadline: HangGuard.deadline)
        }
        #expect(error?.code == .failedPrecondition)
        #expect(
            error?.message.contains("invalid_grant: Invalid JWT Signature.") == true, "\(String(describing: error))")
        #expect(standIn.requests(under: "/v1/").isEmpty)
    }

    // MARK: Failures

    @Test func withoutCredentialsEveryCallNamesBothVariables() throws {
        // given no credentials at all
        let transport = RecordingTransport { _ in .failure(.unreachable("no network in this test")) }
        let vertex = VertexEmbeddings(environment: ["GOOGLE_CLOUD_PROJECT": "p"], transport: transport)

        // when / then
        let error = Self.failure {
            try vertex.embed(["a"], model: "text-embedding-004", purpose: .document, deadline: HangGuard.deadline)
        }
        #expect(error?.code == .failedPrecondition)
        #expect(error?.message.contains("GOOGLE_OAUTH_ACCESS_TOKEN") == true)
        #expect(error?.message.contains("GOOGLE_APPLICATION_CREDENTIALS") == true)
        #expect(transport.requests.withLock { $0 }.isEmpty)
        #expect(vertex.summary == "vertex (project p, location us-central1, no usable credentials)")
    }

    @Test(arguments: [
        ("not json", "is not JSON"), (#"{"type":"authorized_user"}"#, "only service account keys"),
        (#"{"type":"service_account","client_email":"a@b"}"#, "no \"private_key\""),
        (#"{"type":"service_account","client_email":"a@b","private_key":"garbage"}"#, "cannot be used"),
    ])
    func anUnusableKeyFileIsAFailedPreconditionNamingIt(content: String, reason: String) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("key-\(UUID().uuidString).json")
        try content.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let vertex = VertexEmbeddings(
            environment: ["GOOGLE_APPLICATION_CREDENTIALS": file.path, "GOOGLE_CLOUD_PROJECT": "p"],
            transport: RecordingTransport { _ in .failure(.timedOut) })
        let error = Self.failure {
            try vertex.embed(["a"], model: "text-embedding-004", purpose: .document, deadline: HangGuard.deadline)
        }
        #expect(error?.code == .failedPrecondition)
        #expect(error?.message.contains(file.path) == true)
        #expect(error?.message.contains(reason) == true, "\(String(describing: error))")
    }

    @Test func withoutAProjectTheCallSaysWhatToSet() {
        let vertex = VertexEmbeddings(
            environment: ["GOOGLE_OAUTH_ACCESS_TOKEN": "t"], transport: RecordingTransport { _ in .failure(.timedOut) })
        let error = Self.failure {
            try vertex.embed(["a"], model: "text-embedding-004", purpose: .document, deadline: HangGuard.deadline)
        }
        #expect(error?.code == .failedPrecondition)
        #expect(error?.message.contains("GOOGLE_CLOUD_PROJECT") == true)
    }

    @Test(arguments: [
        (400, StatusCode.invalidArgument, "Request contains an invalid argument."),
        (401, .failedPrecondition, "refused the credentials"), (403, .failedPrecondition, "PERMISSION_DENIED"),
        (404, .invalidArgument, "does not know the model \"textembedding-gecko@009\""),
        (429, .resourceExhausted, "over its quota"), (500, .unavailable, "HTTP 500"), (503, .unavailable, "HTTP 503"),
    ])
    func mapsVertexAnswersToStatuses(status: Int, code: StatusCode, message: String) throws {
        // given a stand-in that answers with Google's error shape
        let standIn = try ProviderStandIn { _ in
            let text = status == 400 ? "Request contains an invalid argument." : "PERMISSION_DENIED or worse"
            return .json(
                #"{"error":{"code":\#(status),"message":"\#(text)","status":"X"}}"#, status: HTTPStatus(code: status))
        }
        let vertex = VertexEmbeddings(
            environment: Self.environment(standIn), serviceLocation: "europe-west1", transport: LiveHTTPTransport())

        // when / then
        let error = Self.failure {
            try vertex.embed(["a"], model: "textembedding-gecko@009", purpose: .document, deadline: HangGuard.deadline)
        }
        #expect(error?.code == code)
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
        #expect(error?.message.contains("ya29") == false)
    }

    @Test(arguments: [
        (OutboundHTTPError.timedOut, StatusCode.deadlineExceeded), (.unreachable("refused"), .unavailable),
        (.broken("certificate does not verify"), .unavailable), (.unsupported("bad url"), .failedPrecondition),
    ])
    func mapsTransportFailuresToStatuses(failure: OutboundHTTPError, code: StatusCode) {
        let vertex = VertexEmbeddings(
            environment: ["GOOGLE_OAUTH_ACCESS_TOKEN": "t", "GOOGLE_CLOUD_PROJECT": "p"],
            transport: RecordingTransport { _ in .failure(failure) })
        let error = Self.failure {
            try vertex.embed(["a"], model: "text-embedding-004", purpose: .document, deadline: HangGuard.deadline)
        }
        #expect(error?.code == code)
    }

    @Test func aMalformedAnswerIsUnknown() throws {
        let standIn = try ProviderStandIn { _ in .json(#"{"predictions":[{"embeddings":{}}]}"#) }
        let vertex = VertexEmbeddings(
            environment: Self.environment(standIn), serviceLocation: "europe-west1", transport: LiveHTTPTransport())
        let error = Self.failure {
            try vertex.embed(["a"], model: "text-embedding-004", purpose: .document, deadline: HangGuard.deadline)
        }
        #expect(error?.code == .unknown)
        #expect(error?.message.contains("embeddings.values") == true)
    }

    /// The embedding error a call throws, or `nil` (an issue) when it succeeds or throws something else.
    static func failure(_ call: () throws -> [[Double]]) -> EmbeddingError? {
        do {
            let vectors = try call()
            Issue.record("expected an error, got \(vectors)")
            return nil
        } catch let error as EmbeddingError {
            return error
        } catch {
            Issue.record("expected an EmbeddingError, got \(error)")
            return nil
        }
    }
}
