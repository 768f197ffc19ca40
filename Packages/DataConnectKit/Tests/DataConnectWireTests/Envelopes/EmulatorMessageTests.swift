import DataConnectWire
import Testing

/// The emulator's own messages: the console's explain request, and the change notifications emulator processes
/// on one PostgreSQL database send each other.
@Suite struct EmulatorMessageTests {
    @Test func anExplainRequestReadsItsMembersAndDefaultsTheVariables() throws {
        // given
        let full: JSONValue = ["connector": "movies", "operationName": "ListMovies", "variables": ["genre": "Drama"]]
        // when
        let request = try ExplainRequest(json: full)
        let bare = try ExplainRequest(json: ["connector": "movies", "operationName": "ListMovies", "variables": nil])
        // then
        #expect(
            request == ExplainRequest(connector: "movies", operationName: "ListMovies", variables: ["genre": "Drama"]))
        #expect(try ExplainRequest(json: request.toJSON()) == request)
        #expect(bare.variables.isEmpty)
    }

    @Test func anExplainRequestOfTheWrongShapeIsRefusedByName() {
        #expect(throws: WireFormatError.self) { try ExplainRequest(json: .array([])) }
        do {
            _ = try ExplainRequest(json: ["connector": "movies", "operationName": 1])
            Issue.record("a number operationName was accepted")
        } catch {
            #expect(error.field == "operationName")
        }
        do {
            _ = try ExplainRequest(json: ["operationName": "ListMovies"])
            Issue.record("a request without a connector was accepted")
        } catch {
            #expect(error.field == "connector" && error.problem == .missing)
        }
    }

    @Test func aMutationNotificationRoundTripsInTheOrderItIsWritten() throws {
        // given
        let notice = ChangeNotification(
            origin: "9f3c", tables: ["Movie", "Review"],
            mutation: .init(
                connector: "movies", operationName: "CreateMovie", variables: ["title": "Alien"],
                caller: .init(uid: "u1", claims: ["sub": "u1"])))
        // when
        let text = notice.toJSON().jsonString()
        let read = try ChangeNotification(json: JSONValue(parsing: Array(text.utf8)))
        // then
        #expect(
            text
                == #"{"origin":"9f3c","tables":["Movie","Review"],"connector":"movies","operationName":"CreateMovie","#
                + #""variables":{"title":"Alien"},"auth":{"uid":"u1","claims":{"sub":"u1"}}}"#)
        #expect(read == notice)
    }

    @Test func aTablesNotificationHasNoMutationAndAnAdminMutationNoConnector() throws {
        let tables = try ChangeNotification(json: ["origin": "a", "tables": ["Movie"]])
        let admin = try ChangeNotification(
            json: ["origin": "a", "tables": [], "connector": nil, "operationName": "Seed", "variables": [:]])
        #expect(tables == ChangeNotification(origin: "a", tables: ["Movie"]))
        #expect(admin.mutation == .init(connector: nil, operationName: "Seed", variables: [:], caller: nil))
    }

    @Test func aNotificationOfTheWrongShapeIsRefused() {
        #expect(throws: WireFormatError.self) { try ChangeNotification(json: ["tables": ["Movie"]]) }
        #expect(throws: WireFormatError.self) { try ChangeNotification(json: ["origin": "a"]) }
        #expect(throws: WireFormatError.self) { try ChangeNotification(json: ["origin": "a", "tables": [1]]) }
        #expect(throws: WireFormatError.self) {
            try ChangeNotification(json: ["origin": "a", "tables": [], "operationName": "M", "auth": ["uid": "u"]])
        }
    }
}
