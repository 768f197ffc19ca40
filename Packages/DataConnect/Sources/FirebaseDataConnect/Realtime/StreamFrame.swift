import DataConnectWire

/// The JSON frames of the Data Connect stream protocol (`ConnectorStreamService.Connect` over WebSocket).
///
/// A request is one text frame holding a `StreamRequest` with no wrapper:
///
/// ```json
/// {"requestId": "1", "name": "projects/p/locations/l/services/s/connectors/c",
///  "headers": {"X-Firebase-Auth-Token": "…", "X-Client-Version": "linux/11.12.6"},
///  "subscribe": {"operationName": "ListMovies", "variables": {}}, "dataEtag": "9f3c0a1b2c3d4e5f"}
/// {"requestId": "2", "execute": {"operationName": "AddReview", "variables": {"movieId": "…"}}}
/// {"requestId": "1", "resume": {}}
/// {"requestId": "1", "cancel": {}}
/// ```
///
/// A response is a `StreamResponse`: wrapped as `{"result": {…}}` in a text frame (the emulator), or bare in a
/// binary frame (production).
///
/// Both are the wire model's envelopes, `StreamRequest` and `StreamResponse` of `DataConnectWire`, which the
/// emulator reads and writes too.
enum StreamFrame {
    /// What a request asks for.
    typealias Kind = StreamRequest.Kind

    /// The headers the stream carries, as the REST transport sends them; the rest of the REST headers (content
    /// type, affinity) have no meaning on the stream.
    static let headerNames: Set<String> = [
        "X-Firebase-Auth-Token", "X-Firebase-AppCheck", "X-Goog-Api-Client", "x-firebase-gmpid", "X-Client-Version",
    ]

    /// Encodes one request.
    ///
    /// - Parameters:
    ///   - requestID: Unique within the connection; `nil` for a frame that only carries headers.
    ///   - kind: What it asks for; `nil` for a frame that only carries headers.
    ///   - name: The connector's resource name, on the first request of a connection.
    ///   - headers: Headers to send with it: all of them on the first request, the new token when it changed.
    ///   - dataEtag: The etag of the result the client holds, for a subscribe.
    /// - Returns: The frame's UTF-8 JSON.
    static func request(
        id requestID: String?, kind: Kind?, name: String? = nil, headers: [(name: String, value: String)] = [],
        dataEtag: String? = nil
    ) -> [UInt8] {
        let fields = Dictionary(headers.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
        let request = StreamRequest(
            requestId: requestID, kind: kind, name: name, headers: fields.isEmpty ? nil : fields, dataEtag: dataEtag)
        return request.toJSON().serialized()
    }

    /// Reads a response: a text frame must hold `{"result": {…}}`; a binary frame holds the bare response.
    ///
    /// - Throws: ``TransportError/malformedResponse(_:)`` when the frame is not JSON, a text frame has no
    ///   `result` object, or the response is not a `StreamResponse`.
    static func response(_ bytes: [UInt8], binary: Bool) throws(TransportError) -> StreamMessage {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: bytes)
        } catch {
            throw .malformedResponse("a stream frame is not JSON: \(error.message)")
        }
        if !binary {
            guard case .object(let object) = json, case .object? = object["result"] else {
                throw .malformedResponse("a stream text frame without a result object")
            }
        }
        do throws(WireFormatError) {
            return StreamMessage(try StreamResponse(json: json))
        } catch {
            throw .malformedResponse("a stream response: \(error)")
        }
    }

    /// The key of an operation and its variables: subscriptions and executes of the same key share a server
    /// subscription (keys sorted, as the JS SDK compares them).
    static func key(operationName: String, variables: JSONObject) -> String {
        let value: JSONValue = ["operationName": .string(operationName), "variables": .object(variables)]
        return String(decoding: value.serialized(canonical: true), as: UTF8.self)
    }

    /// The WebSocket path for a connector's service:
    /// `/ws/google.firebase.dataconnect.v1.ConnectorStreamService.Connect/{project}/locations/{location}/services/{service}`.
    static func path(for connector: ConnectorResourceName) -> String {
        "/ws/google.firebase.dataconnect.v1.ConnectorStreamService.Connect/\(connector.projectID)/locations/"
            + "\(connector.location)/services/\(connector.serviceID)"
    }
}
