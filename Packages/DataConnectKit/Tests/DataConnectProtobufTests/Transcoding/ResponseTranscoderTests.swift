import DataConnectProtobuf
import DataConnectWire
import Testing

@Suite struct ResponseTranscoderTests {
    static let answers: [GraphQLResponse] = [
        Fixtures.response, Fixtures.listAnswer(count: 20), Fixtures.getAnswer, GraphQLResponse(data: nil),
        GraphQLResponse(data: .null, errors: [Fixtures.bareError]),
    ]

    @Test(arguments: answers)
    func transcodesToTheBytesOfTheTree(answer: GraphQLResponse) throws {
        // given: the engine's JSON body
        let json = answer.toJSON().serialized()
        // when
        let direct = try ResponseTranscoder.executeResponse(json: json)
        // then: the same bytes as building the tree and encoding it
        #expect(direct == (try GraphQLResponse(json: JSONValue(parsing: json)).protobufBytes()))
        // a `null` data travels as no data
        var expected = try GraphQLResponse(json: answer.toJSON())
        if expected.data == .null { expected.data = nil }
        #expect(try GraphQLResponse(protobuf: direct) == expected)
    }

    @Test(arguments: answers)
    func transcodesStreamParts(answer: GraphQLResponse) throws {
        let json = answer.toJSON().serialized()
        let direct = try ResponseTranscoder.streamResponseParts(json: json, dataEtag: "abc", cancelled: true)
        let tree = try StreamResponseParts(response: answer, dataEtag: "abc", cancelled: true)
        #expect(direct == tree)
    }

    @Test func keepsExactNumbersAsDoubles() throws {
        let json = Array(#"{"data":{"n":1.0,"big":12345678901234567890,"tiny":1e-400,"huge":1e400}}"#.utf8)
        let response = try GraphQLResponse(protobuf: ResponseTranscoder.executeResponse(json: json))
        #expect(response.data == ["n": 1, "big": 12_345_678_901_234_567_890.0, "tiny": 0, "huge": nil])
    }

    @Test func readsEscapedStringsAndKeys() throws {
        let json = Array(#"{"data":{"a\"b":"line\nbreak \u00e9 \ud83c\udfac"}}"#.utf8)
        let response = try GraphQLResponse(protobuf: ResponseTranscoder.executeResponse(json: json))
        #expect(response.data == ["a\"b": "line\nbreak é 🎬"])
    }

    @Test func ignoresUnknownMembersAndPutsStreamFieldsBeforeExtensions() throws {
        let json = Array(
            #"{"extensions":{"dataConnect":[{"path":["m"],"entityId":"1"}],"other":1},"x":[1,{}],"data":{"m":{}}}"#
                .utf8)
        let parts = try ResponseTranscoder.streamResponseParts(json: json, dataEtag: "e", cancelled: false)
        let response = try StreamResponse(protobuf: parts.message(requestId: "r"))
        #expect(
            response
                == StreamResponse(
                    requestId: "r", data: ["m": [:]],
                    extensions: .init(dataConnect: [.init(path: ["m"], entityId: "1")]), dataEtag: "e"))
    }

    @Test(arguments: [
        ("", "invalid JSON: unexpected end of input at line 1, column 1"),
        ("[]", "expected a response object"),
        (#"{"data":[1]}"#, "data must be an object or null at data"),
        (#"{"data":{"a":1,}}"#, #"invalid JSON: unexpected character "}" at line 1, column 16"#),
        (#"{"data":{}} x"#, #"invalid JSON: unexpected character "x" after the top-level value at line 1, column 13"#),
        (#"{"errors":[{"path":[]}]}"#, #"missing required field "errors[0].message""#),
    ])
    func refusesMalformedBodies(json: String, message: String) {
        do {
            _ = try ResponseTranscoder.executeResponse(json: Array(json.utf8))
            Issue.record("\(json) was accepted")
        } catch {
            #expect(error.kind == .invalidJSON)
            #expect(error.description.hasPrefix(message), "\(error.description)")
        }
    }

    @Test func refusesDeepNesting() {
        let json = Array(
            ("{\"data\":" + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}").utf8)
        #expect(throws: ProtobufError.self) { try ResponseTranscoder.executeResponse(json: json) }
    }
}
