import DataConnectWire
import Testing

@Suite struct GraphQLResponseTests {
    @Test func roundTripsWithErrorsAndEntityIDs() throws {
        // given a partial response with an error and Data Connect properties
        let response = GraphQLResponse(
            data: ["movies": [["id": "m1", "director": ["id": "d1"]]], "second": nil],
            errors: [
                GraphQLError(
                    message: "duplicate key value violates unique constraint", path: ["second"],
                    code: .alreadyExists, debugDetails: "UNIQUE constraint failed: movie.id"
                )
            ],
            extensions: .init(dataConnect: [
                DataConnectProperties(path: ["movies"], entityIds: ["m1"], action: .list),
                DataConnectProperties(path: ["movies", 0, "director"], entityId: "d1"),
            ])
        )

        // when written and read back
        let text = response.toJSON().jsonString()
        var writer = JSONWriter()
        response.write(to: &writer)
        let decoded = try GraphQLResponse(json: JSONValue(parsing: text))

        // then the shape follows the protocol and nothing is lost
        #expect(
            text == """
                {"data":{"movies":[{"id":"m1","director":{"id":"d1"}}],"second":null},\
                "errors":[{"message":"duplicate key value violates unique constraint","path":["second"],\
                "extensions":{"code":"ALREADY_EXISTS","debugDetails":"UNIQUE constraint failed: movie.id"}}],\
                "extensions":{"dataConnect":[{"path":["movies"],"entityIds":["m1"],"action":"LIST"},\
                {"path":["movies",0,"director"],"entityId":"d1"}]}}
                """)
        #expect(writer.text == text)
        #expect(decoded == response)
    }

    @Test func missingMembersReadAsEmpty() throws {
        // given a response with only data
        let response = try GraphQLResponse(json: JSONValue(parsing: #"{"data":{"n":1}}"#))

        // then errors and dataConnect are empty
        #expect(response.errors.isEmpty)
        #expect(response.extensions.dataConnect.isEmpty)
        #expect(response.data?["n"] == 1)
    }

    @Test func distinguishesAbsentAndNullData() throws {
        // given responses without data and with null data
        let absent = try GraphQLResponse(json: JSONValue(parsing: #"{"errors":[{"message":"boom"}]}"#))
        let null = try GraphQLResponse(json: JSONValue(parsing: #"{"data":null,"errors":[]}"#))

        // then the two stay apart, and a missing code means INTERNAL
        #expect(absent.data == nil)
        #expect(null.data == .null)
        #expect(absent.errors.first?.effectiveCode == .internal)
        #expect(absent.toJSON().jsonString() == #"{"errors":[{"message":"boom"}],"extensions":{"dataConnect":[]}}"#)
    }

    @Test func writesRawDataFromStorage() {
        // given result bytes produced elsewhere
        let data = Array(#"{"movie":{"id":"m1"}}"#.utf8)

        // when the envelope is written around them
        var writer = JSONWriter()
        GraphQLResponse.write(
            to: &writer, errors: [], dataConnect: [DataConnectProperties(path: ["movie"], entityId: "m1", action: .get)]
        ) { writer in
            writer.key("data")
            writer.raw(data)
        }

        // then the bytes are embedded unchanged
        #expect(
            writer.text
                == #"{"data":{"movie":{"id":"m1"}},"errors":[],"#
                + #""extensions":{"dataConnect":[{"path":["movie"],"entityId":"m1","action":"GET"}]}}"#
        )
    }

    @Test func reportsWhereAMemberIsMalformed() {
        // given an error whose path holds a boolean
        let body = #"{"data":null,"errors":[{"message":"x"},{"message":"y","path":["a",true]}]}"#

        // then the message points at the member
        let error = #expect(throws: WireFormatError.self) { try GraphQLResponse(json: JSONValue(parsing: body)) }
        #expect(error?.message == #"expected a path segment (string or integer), found a boolean at "errors[1].path""#)
    }
}
