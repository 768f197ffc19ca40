import DataConnectWire
import Testing

/// The realtime stream's request and response envelopes, in the shapes the JS and Flutter SDKs send and read.
@Suite struct StreamEnvelopeTests {
    @Test func aSubscribeWithNameHeadersAndEtagIsRead() throws {
        let request = try StreamRequest(
            json: JSONValue(
                parsing: #"""
                    {"requestId": "1", "name": "projects/p/locations/l/services/s/connectors/c",
                     "headers": {"x-firebase-auth-token": "jwt", "X-Goog-Api-Client": "gl-js/ fire/12"},
                     "subscribe": {"operationName": "ListMovies"}, "dataEtag": "abc"}
                    """#))
        #expect(request.requestId == "1")
        #expect(request.name == "projects/p/locations/l/services/s/connectors/c")
        #expect(request.kind == .subscribe(StreamRequest.Operation(operationName: "ListMovies")))
        #expect(request.authToken == "jwt")
        #expect(request.dataEtag == "abc")
    }

    @Test func kindsAndNumericIDsAreRead() throws {
        #expect(try StreamRequest(json: ["requestId": 7, "resume": [:]]).kind == .resume)
        #expect(try StreamRequest(json: ["requestId": 7, "resume": [:]]).requestId == "7")
        #expect(try StreamRequest(json: ["requestId": "1", "cancel": [:]]).kind == .cancel)
        #expect(try StreamRequest(json: ["requestId": "1", "cancel": true]).kind == .cancel)
        #expect(try StreamRequest(json: ["name": "n", "headers": ["authToken": "t"]]).kind == nil)
        #expect(try StreamRequest(json: ["name": "n", "headers": ["authToken": "t"]]).authToken == "t")
    }

    @Test(arguments: [
        #"[]"#, #"{"requestId": true}"#, #"{"headers": {"a": 1}}"#, #"{"execute": {"variables": {}}}"#,
        #"{"subscribe": {"operationName": "A"}, "cancel": {}}"#,
        #"{"execute": {"operationName": "A", "variables": 1}}"#,
    ])
    func malformedRequestsAreRefused(_ text: String) throws {
        #expect(throws: WireFormatError.self) { try StreamRequest(json: JSONValue(parsing: text)) }
    }

    @Test func requestsRoundTrip() throws {
        let request = StreamRequest(
            requestId: "2", kind: .execute(.init(operationName: "AddMovie", variables: ["title": "Alien"])),
            name: "projects/p/locations/l/services/s/connectors/c", headers: ["X-Firebase-Auth-Token": "jwt"])
        #expect(try StreamRequest(json: request.toJSON()) == request)
    }

    @Test func responsesAreReadWrappedOrBare() throws {
        let bare: JSONValue = [
            "requestId": "1", "data": ["movies": []], "errors": [], "dataEtag": "e", "cancelled": false,
        ]
        let wrapped: JSONValue = ["result": bare]
        let response = try StreamResponse(json: wrapped)
        #expect(response == (try StreamResponse(json: bare)))
        #expect(response.data == ["movies": []])
        #expect(response.dataEtag == "e")
        #expect(try StreamResponse(json: response.toWebSocketJSON()) == response)
    }

    @Test func anUnchangedResponseHasNoData() throws {
        let response = try StreamResponse(json: ["result": ["requestId": "1", "dataEtag": "e", "cancelled": false]])
        #expect(response.data == nil)
        #expect(response.errors.isEmpty)
        #expect(response.cancelled == false)
    }
}
