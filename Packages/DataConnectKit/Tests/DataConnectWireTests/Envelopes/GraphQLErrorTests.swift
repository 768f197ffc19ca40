import DataConnectWire
import Testing

@Suite struct GraphQLErrorTests {
    @Test func readsLocationsAndUnknownExtensions() throws {
        // given an error with locations, a warning level and a member this library does not model
        let text =
            #"{"message":"m","locations":[{"line":3,"column":7}],"path":["a",2],"#
            + #""extensions":{"code":"NOT_FOUND","warningLevel":"LOG_ONLY","file":"queries.gql"}}"#

        // when read and written back
        let error = try GraphQLError(json: JSONValue(parsing: text))

        // then everything is kept, in order
        #expect(error.locations == [.init(line: 3, column: 7)])
        #expect(error.path == ["a", 2])
        #expect(error.extensions?.code == .notFound)
        #expect(error.extensions?.warningLevel == "LOG_ONLY")
        #expect(error.extensions?.other["file"] == "queries.gql")
        #expect(error.toJSON().jsonString() == text)
        #expect(error.description == "NOT_FOUND: m (at a.[2])")
    }

    @Test func unknownCodeNamesReadAsUnknown() throws {
        // given a code name from a newer server
        let error = try GraphQLError(json: JSONValue(parsing: #"{"message":"m","extensions":{"code":"SHINY_NEW"}}"#))

        // then it reads as UNKNOWN rather than failing
        #expect(error.effectiveCode == .unknown)
    }
}
