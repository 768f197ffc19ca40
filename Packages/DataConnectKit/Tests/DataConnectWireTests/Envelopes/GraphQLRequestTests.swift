import DataConnectWire
import Testing

@Suite struct GraphQLRequestTests {
    private let connector = "projects/demo/locations/us-central1/services/movies/connectors/default"

    @Test func roundTrips() throws {
        // given a request with variables, including an explicit null
        let request = GraphQLRequest(
            name: connector, operationName: "ListMovies",
            variables: ["limit": 10, "genre": nil, "id": "9007199254740993"]
        )

        // when written and read back
        let text = request.toJSON().jsonString()
        let decoded = try GraphQLRequest(json: JSONValue(parsing: text))

        // then members keep their order and values
        #expect(
            text
                == #"{"name":"\#(connector)","operationName":"ListMovies","#
                + #""variables":{"limit":10,"genre":null,"id":"9007199254740993"}}"#
        )
        #expect(decoded == request)
    }

    @Test func writesEmptyVariables() {
        // given a request without variables
        var writer = JSONWriter()
        GraphQLRequest(name: connector, operationName: "ListMovies").write(to: &writer)

        // then variables is still sent, as {}
        #expect(writer.text.hasSuffix(#""variables":{}}"#))
    }

    @Test func requiresEveryMember() {
        // given bodies missing a member or with a wrong type
        let missingVariables: JSONValue = ["name": .string(connector), "operationName": "ListMovies"]
        let wrongType: JSONValue = ["name": .string(connector), "operationName": 3, "variables": [:]]

        // then reading fails with the field named
        let missing = #expect(throws: WireFormatError.self) { try GraphQLRequest(json: missingVariables) }
        let mistyped = #expect(throws: WireFormatError.self) { try GraphQLRequest(json: wrongType) }
        let notObject = #expect(throws: WireFormatError.self) { try GraphQLRequest(json: [1]) }
        #expect(missing?.message == #"missing required field "variables""#)
        #expect(mistyped?.message == #"expected a string at "operationName", found a number"#)
        #expect(notObject?.message == "expected a request object, found an array")
    }

    @Test func readsWellFormedBodiesAsTheTreeDoes() throws {
        // given bodies init(json:) accepts: members in any order, repeated ones, extra ones, null variables
        let accepted = [
            #"{"name": "\#(connector)", "operationName": "getMovie", "variables": {"id": "a1", "n": [1, 2.5e3]}}"#,
            #" {"variables":null,"operationName":"q","name":""} "#,
            #"{"operationName": "first", "x": {"y": [true]}, "name": "n", "variables": {}, "operationName": "last"}"#,
            #"{"name": "n", "operationName": "q\u00e9", "variables": {"a": "x\ny"}, "variables": {"b": null}}"#,
            #"{"name": 1, "name": "n", "operationName": "q", "variables": {}}"#,
        ]
        for body in accepted {
            let bytes = Array(body.utf8)
            // then the bytes read straight into the request the parsed tree gives, or (a repeated member whose
            // first value is of the wrong type) into nothing, leaving it to the tree
            let expected = try GraphQLRequest(json: JSONValue(parsing: bytes))
            let read = GraphQLRequest(wellFormed: bytes)
            #expect(read == expected || read == nil, "\(body)")
        }
        #expect(GraphQLRequest(wellFormed: Array(accepted[0].utf8)) != nil)
        #expect(GraphQLRequest(wellFormed: Array(accepted[2].utf8))?.operationName == "last")
        #expect(GraphQLRequest(wellFormed: Array(accepted[3].utf8))?.variables == ["b": nil])

        // given bodies it refuses: not JSON, trailing bytes, a member missing, empty or of the wrong type
        let refused = [
            "", "{", "[]", #"{"name": "n", "operationName": "q", "variables": {}} x"#,
            #"{"name": "n", "operationName": "q", "variables": {},}"#,
            #"{"name": "n", "operationName": "q"}"#, #"{"name": "n", "operationName": "", "variables": {}}"#,
            #"{"name": null, "operationName": "q", "variables": {}}"#,
            #"{"name": "n", "operationName": "q", "variables": []}"#,
            #"{"operationName": "q", "variables": {}}"#, #"{"name": "n", "operationName": "q\ud800", "variables": {}}"#,
        ]
        // then none is read: the caller learns what is wrong from init(json:)
        for body in refused {
            #expect(GraphQLRequest(wellFormed: Array(body.utf8)) == nil, "\(body)")
        }
    }
}
