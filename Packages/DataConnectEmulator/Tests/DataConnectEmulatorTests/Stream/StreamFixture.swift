import DataConnectEmulator
import DataConnectWire
import Foundation

/// The realtime fixture's emulator, spoken to over the WebSocket stream.
extension RealtimeFixture {
    static let streamPath =
        "/ws/google.firebase.dataconnect.v1.ConnectorStreamService.Connect/p/locations/l/services/shop"
    static let connectorName: JSONValue = "projects/p/locations/l/services/shop/connectors/shop"

    /// Opens a WebSocket on the stream endpoint (101 expected).
    func openStream(path: String = streamPath, extraHeaders: [(String, String)] = []) throws -> WebSocketClient {
        let client = try WebSocketClient(
            port: emulator.port, path: path, headers: WebSocketClient.standardHeaders(extra: extraHeaders))
        guard client.status == 101 else { throw TestSetupError("handshake answered \(client.status)") }
        return client
    }

    /// A `subscribe` request, with `name` when it is the stream's first.
    static func subscribe(
        _ requestId: String, _ operation: String, _ variables: JSONObject = [:], first: Bool = false,
        token: String? = nil
    ) -> JSONValue {
        request(requestId, "subscribe", operation, variables, first: first, token: token)
    }

    /// An `execute` request.
    static func execute(
        _ requestId: String, _ operation: String, _ variables: JSONObject = [:], first: Bool = false,
        token: String? = nil
    ) -> JSONValue {
        request(requestId, "execute", operation, variables, first: first, token: token)
    }

    private static func request(
        _ requestId: String, _ kind: String, _ operation: String, _ variables: JSONObject, first: Bool, token: String?
    ) -> JSONValue {
        var object: JSONObject = [
            "requestId": .string(requestId),
            kind: ["operationName": .string(operation), "variables": .object(variables)],
        ]
        if first { object["name"] = connectorName }
        if let token { object["headers"] = ["X-Firebase-Auth-Token": .string(token)] }
        return .object(object)
    }
}

extension JSONValue {
    /// The code of the first error of a stream response.
    var firstErrorCode: String? { self["errors"]?[0]?["extensions"]?["code"]?.stringValue }
}
