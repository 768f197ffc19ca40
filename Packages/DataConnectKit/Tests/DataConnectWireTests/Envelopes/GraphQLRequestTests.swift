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
}
