import DataConnectWire
import Foundation
import Synchronization

@testable import FirebaseDataConnect

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Shared values for the transport tests.
enum TransportFixtures {
    static let connector = ConnectorResourceName(
        projectID: "demo", location: "us-central1", serviceID: "movies", connectorID: "movies")
    static let versions = ClientVersions(sdk: "11.12.6", swift: "6.3", os: "6.1.0")

    static func query(
        _ name: String = "listMoviesByGenre", variables: JSONObject = [:], metadata: RequestMetadata = RequestMetadata()
    ) -> OperationRequest {
        OperationRequest(
            connector: connector, kind: .query, operationName: name, variables: variables, metadata: metadata)
    }

    static func mutation(_ name: String = "upsertUser", variables: JSONObject = [:]) -> OperationRequest {
        OperationRequest(connector: connector, kind: .mutation, operationName: name, variables: variables)
    }

    static func body(of request: URLRequest) throws -> JSONValue {
        try JSONValue(parsing: [UInt8](request.httpBody ?? Data()))
    }
}

/// A scripted HTTP loader: records each `URLRequest` and answers from a list of outcomes.
final class ScriptedLoader: Sendable {
    enum Outcome: Sendable {
        case reply(Int, String)
        case fail(URLError.Code)
    }

    private let state: Mutex<(outcomes: [Outcome], requests: [URLRequest])>

    init(_ outcomes: [Outcome]) {
        state = Mutex((outcomes, []))
    }

    var requests: [URLRequest] {
        state.withLock { $0.requests }
    }

    func transport(
        endpoint: ServiceEndpoint = .production, authTokenProvider: (any AuthTokenProvider)? = nil
    ) -> URLSessionTransport {
        URLSessionTransport(
            configuration: .init(
                endpoint: endpoint, authTokenProvider: authTokenProvider, versions: TransportFixtures.versions)
        ) { [self] request in
            let outcome = state.withLock { state -> Outcome in
                state.requests.append(request)
                return state.outcomes.isEmpty ? .fail(.notConnectedToInternet) : state.outcomes.removeFirst()
            }
            switch outcome {
            case .reply(let status, let body):
                return URLSessionTransport.HTTPReply(status: status, body: Data(body.utf8))
            case .fail(let code):
                throw URLError(code)
            }
        }
    }
}

/// A token provider whose token can be swapped while a request is in flight.
final class SwappableTokenProvider: AuthTokenProvider {
    private let tokens: Mutex<[String?]>
    private let forcedCalls = Mutex<[Bool]>([])

    /// Returns the tokens in order, repeating the last one.
    init(_ tokens: [String?]) {
        self.tokens = Mutex(tokens)
    }

    func token(forcingRefresh: Bool) async throws -> String? {
        forcedCalls.withLock { $0.append(forcingRefresh) }
        return tokens.withLock { tokens in tokens.count > 1 ? tokens.removeFirst() : tokens.first ?? nil }
    }

    /// `forcingRefresh` of each call so far, in order.
    var forcingRefreshes: [Bool] { forcedCalls.withLock { $0 } }

    var userChanges: AsyncStream<AuthUser?> {
        AsyncStream { $0.finish() }
    }
}
