import DataConnectEmulator
import DataConnectWire
import Testing

/// The exact answers to faulty or lenient `subscribe` requests on the stream: the text of the one frame each gets, so
/// that a change in how stream requests are decoded shows here (REST's answers are pinned by `RequestDecodingTests`).
///
/// A refused `subscribe` ends with `cancelled: true`; missing `variables` and a numeric `requestId` are accepted.
@Suite(.on(.sqlite), .serialized, .timeLimit(.minutes(3)))  // decoding of stream messages
struct StreamRequestDecodingTests {
    /// One request frame and the exact frame that answers it.
    struct Exchange: Sendable, CustomTestStringConvertible {
        var name: String
        var request: String
        var answer: String
        /// Whether the request is accepted (a live subscription) rather than refused.
        var subscribes = false

        var testDescription: String { name }
    }

    static let name = #""name": "projects/p/locations/l/services/shop/connectors/shop""#

    static let exchanges: [Exchange] = [
        Exchange(
            name: "subscribe without operationName",
            request: #"{"requestId": "1", \#(name), "subscribe": {"variables": {}}}"#,

            answer:
                #"{"result":{"requestId":"1","errors":[{"message":"missing required field \"subscribe.operationName\"","extensions":{"code":"INVALID_ARGUMENT"}}],"extensions":{"dataConnect":[]},"cancelled":true}}"#
        ),
        Exchange(
            name: "subscribe without name on the first request",
            request: #"{"requestId": "1", "subscribe": {"operationName": "ListAuthors", "variables": {}}}"#,

            answer:
                #"{"result":{"requestId":"1","errors":[{"message":"\"name\" (projects/{p}/locations/{l}/services/{s}/connectors/{c}) is required on the stream's first request","extensions":{"code":"INVALID_ARGUMENT"}}],"extensions":{"dataConnect":[]},"cancelled":true}}"#
        ),
        Exchange(
            name: "subscribe without variables",
            request: #"{"requestId": "1", \#(name), "subscribe": {"operationName": "ListAuthors"}}"#,

            answer:
                #"{"result":{"requestId":"1","data":{"authors":[{"name":"Alice"},{"name":"Bob"}]},"errors":[],"extensions":{"dataConnect":[]},"dataEtag":"268744d3924c479b","cancelled":false}}"#,
            subscribes: true),
        Exchange(
            name: "subscribe with a numeric dataEtag",
            request: #"{"requestId": "1", \#(name), "subscribe": {"operationName": "ListAuthors"}, "dataEtag": 5}"#,

            answer:
                #"{"result":{"requestId":"1","errors":[{"message":"expected a string at \"dataEtag\", found a number","extensions":{"code":"INVALID_ARGUMENT"}}],"extensions":{"dataConnect":[]},"cancelled":true}}"#
        ),
        Exchange(
            name: "subscribe to an unknown operation",
            request: #"{"requestId": "7", \#(name), "subscribe": {"operationName": "nope", "variables": {}}}"#,

            answer:
                #"{"result":{"requestId":"7","errors":[{"message":"operation \"nope\" not found","extensions":{"code":"NOT_FOUND"}}],"extensions":{"dataConnect":[]},"cancelled":true}}"#
        ),
        Exchange(
            name: "subscribe with a numeric requestId",
            request: #"{"requestId": 7, \#(name), "subscribe": {"operationName": "ListAuthors", "variables": {}}}"#,

            answer:
                #"{"result":{"requestId":"7","data":{"authors":[{"name":"Alice"},{"name":"Bob"}]},"errors":[],"extensions":{"dataConnect":[]},"dataEtag":"268744d3924c479b","cancelled":false}}"#,
            subscribes: true),
    ]

    @Test(arguments: exchanges)
    func answersExactly(_ exchange: Exchange) throws {
        // given
        let fixture = try RealtimeFixture()
        let client = try fixture.openStream()

        // when
        client.sendFrame(opcode: 1, payload: Array(exchange.request.utf8))
        let frame = try #require(client.readFrame())

        // then
        #expect(frame.opcode == 1)
        #expect(frame.text == exchange.answer)
        #expect(fixture.hub.subscriberCount == (exchange.subscribes ? 1 : 0))
    }
}
