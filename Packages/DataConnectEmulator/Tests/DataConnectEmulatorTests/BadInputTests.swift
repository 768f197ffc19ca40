import DataConnectWire
import EmulatorTesting
import Foundation
import Testing

/// Requests the emulator must refuse: each gets the right status, `error.status` and a message naming the
/// problem, and afterwards the emulator still serves and no committed data is lost. Then the execution errors
/// that travel as HTTP 200 field errors: constraint violations and `@transaction` failures.
@Suite(.on(.sqlite))  // malformed requests are refused before any SQL
struct BadInputTests {
    /// Where a bad request goes.
    enum Target: Sendable {
        /// A connector method, e.g. `("lending", "executeQuery")`.
        case connector(String, String)
        /// A path under the emulator's URL, e.g. `/v2/nothing`.
        case path(String)

        func url(_ emulator: TestEmulator) -> String {
            switch self {
            case .connector(let connector, let method): return emulator.connectorURL(connector, method)
            case .path(let path): return emulator.url + path
            }
        }
    }

    /// A request the emulator must refuse, and how.
    struct BadRequest: Sendable, CustomTestStringConvertible {
        var name: String
        var backend: Backend = .library
        var method = "POST"
        var target: Target = .connector("lending", "executeQuery")
        var body: [UInt8]?
        var headers: [String: String] = [:]
        var http: Int
        var status: String
        var fragments: [String]

        var testDescription: String { name }
    }

    static let libraryName = "projects/p/locations/l/services/library/connectors/lending"

    /// A connector request body.
    static func body(_ operationName: String, _ variables: JSONObject = [:], connector: String = "lending") -> [UInt8] {
        JSONValue.object([
            "name": .string("projects/p/locations/l/services/library/connectors/\(connector)"),
            "operationName": .string(operationName), "variables": .object(variables),
        ]).serialized()
    }

    static func text(_ string: String) -> [UInt8] { Array(string.utf8) }

    static let cases: [BadRequest] = [
        // The body is not a request.
        BadRequest(
            name: "malformed JSON", body: text(#"{"name": "x", "operationName": "#), http: 400,
            status: "INVALID_ARGUMENT", fragments: ["invalid JSON"]),
        BadRequest(name: "empty body", body: [], http: 400, status: "INVALID_ARGUMENT", fragments: ["invalid JSON"]),
        BadRequest(
            name: "invalid UTF-8", body: [0x7B, 0xFF, 0x7D], http: 400, status: "INVALID_ARGUMENT", fragments: ["UTF-8"]
        ),
        BadRequest(
            name: "a JSON array body", body: text("[\(String(decoding: body("listBooks"), as: UTF8.self))]"), http: 400,
            status: "INVALID_ARGUMENT", fragments: ["JSON object"]),
        BadRequest(
            name: "a JSON string body", body: text(#""listBooks""#), http: 400, status: "INVALID_ARGUMENT",
            fragments: ["JSON object"]),
        BadRequest(
            name: "100,000 nested brackets", body: text(String(repeating: "[", count: 100_000)), http: 400,
            status: "INVALID_ARGUMENT", fragments: ["nesting"]),
        BadRequest(
            name: "100,000 balanced nested brackets",
            body: text(String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)),
            http: 400, status: "INVALID_ARGUMENT", fragments: ["nesting"]),
        BadRequest(
            name: "deeply nested variables",
            body: text(
                #"{"name": "\#(libraryName)", "operationName": "listBooks", "variables": {"tag": "#
                    + String(repeating: "{\"a\":", count: 50_000) + "1" + String(repeating: "}", count: 50_000) + "}}"),
            http: 400, status: "INVALID_ARGUMENT", fragments: ["nesting"]),

        // Required members.
        BadRequest(
            name: "missing operationName", body: text(#"{"name": "\#(libraryName)", "variables": {}}"#), http: 400,
            status: "INVALID_ARGUMENT", fragments: ["operationName"]),
        BadRequest(
            name: "empty operationName", body: body(""), http: 400, status: "INVALID_ARGUMENT",
            fragments: ["operationName"]),
        BadRequest(
            name: "missing name", body: text(#"{"operationName": "listBooks", "variables": {}}"#), http: 400,
            status: "INVALID_ARGUMENT", fragments: ["\"name\""]),
        BadRequest(
            name: "missing variables", body: text(#"{"name": "\#(libraryName)", "operationName": "listBooks"}"#),
            http: 400, status: "INVALID_ARGUMENT", fragments: ["variables"]),
        BadRequest(
            name: "variables not an object",
            body: text(#"{"name": "\#(libraryName)", "operationName": "listBooks", "variables": []}"#), http: 400,
            status: "INVALID_ARGUMENT", fragments: ["variables", "object"]),

        // Variables that do not fit their declared types.
        BadRequest(
            name: "a number for a String", body: body("getBook", ["isbn": 42]), http: 400, status: "INVALID_ARGUMENT",
            fragments: ["$isbn", "String"]),
        BadRequest(
            name: "an Int out of range", body: body("listBooks", ["limit": 2_147_483_648]), http: 400,
            status: "INVALID_ARGUMENT", fragments: ["$limit", "Int"]),
        BadRequest(
            name: "a fraction for an Int", body: body("listBooks", ["limit": 1.5]), http: 400,
            status: "INVALID_ARGUMENT", fragments: ["$limit", "Int"]),
        BadRequest(
            name: "a string for an Int", body: body("listBooks", ["limit": "ten"]), http: 400,
            status: "INVALID_ARGUMENT", fragments: ["$limit", "Int"]),
        BadRequest(
            name: "an invalid Date", body: body("listBooks", ["publishedAfter": "yesterday"]), http: 400,
            status: "INVALID_ARGUMENT", fragments: ["$publishedAfter", "Date"]),
        BadRequest(
            name: "an invalid UUID", body: body("getAuthor", ["id": "not-a-uuid"]), http: 400,
            status: "INVALID_ARGUMENT", fragments: ["$id", "UUID"]),
        BadRequest(
            name: "an unknown enum value", body: body("myLoans", ["status": "BORROWED"]),
            headers: ["X-Firebase-Auth-Token": TestEmulator.token(uid: "uid-ada")], http: 400,
            status: "INVALID_ARGUMENT", fragments: ["$status", "BORROWED"]),
        BadRequest(
            name: "null for a non-null variable", body: body("getBook", ["isbn": nil]), http: 400,
            status: "INVALID_ARGUMENT", fragments: ["$isbn", "null"]),
        BadRequest(
            name: "a missing required variable", body: body("getBook"), http: 400, status: "INVALID_ARGUMENT",
            fragments: ["$isbn", "String!"]),
        BadRequest(
            name: "an unknown field in an input object", backend: .movies, target: .connector("movies", "executeQuery"),
            body: text(
                #"{"name": "n", "operationName": "getMovieByKey", "variables": {"key": {"id": "252ff53a-a807-5c12-840b-96bff4798d7b", "bogus": 1}}}"#
            ),
            http: 400, status: "INVALID_ARGUMENT", fragments: ["bogus", "Movie_Key"]),
        BadRequest(
            name: "a server value inside variables", backend: .movies, target: .connector("movies", "executeQuery"),
            body: text(
                #"{"name": "n", "operationName": "getMovieByKey", "variables": {"key": {"id_expr": "auth.uid"}}}"#),
            http: 400, status: "INVALID_ARGUMENT", fragments: ["id_expr"]),

        // Things that do not exist.
        BadRequest(
            name: "an unknown operation", body: body("nope"), http: 404, status: "NOT_FOUND",
            fragments: [#"operation "nope" not found"#]),
        BadRequest(
            name: "an unknown connector", target: .connector("nope", "executeQuery"),
            body: body("listBooks", connector: "nope"), http: 404, status: "NOT_FOUND",
            fragments: ["connector", "nope"]),
        BadRequest(
            name: "an unknown service",
            target: .path("/v1/projects/p/locations/l/services/nope/connectors/lending:executeQuery"),
            body: body("listBooks"), http: 404, status: "NOT_FOUND", fragments: ["nope"]),
        BadRequest(
            name: "an unknown method", target: .connector("lending", "executeSomething"), body: body("listBooks"),
            http: 404, status: "NOT_FOUND", fragments: ["executeSomething"]),
        BadRequest(
            name: "an unknown path", target: .path("/v2/projects/p/whatever"), body: body("listBooks"), http: 404,
            status: "NOT_FOUND", fragments: ["/v2/projects/p/whatever"]),
        BadRequest(
            name: "a service method on a connector", target: .connector("lending", "executeGraphql"),
            body: text(#"{"query": "query { books { isbn } }"}"#),
            http: 404, status: "NOT_FOUND", fragments: ["executeGraphql"]),
        BadRequest(
            name: "a connector method on the service",
            target: .path("/v1/projects/p/locations/l/services/library:executeQuery"), body: body("listBooks"),
            http: 404, status: "NOT_FOUND", fragments: ["connector"]),

        // The wrong kind of call.
        BadRequest(
            name: "a query through executeMutation", target: .connector("lending", "executeMutation"),
            body: body("listBooks"), http: 400, status: "INVALID_ARGUMENT", fragments: ["listBooks", ":executeQuery"]),
        BadRequest(
            name: "a mutation through executeQuery", body: body("joinLibrary", ["name": "Eve"]),
            headers: ["X-Firebase-Auth-Token": TestEmulator.token(uid: "uid-eve")],
            http: 400, status: "INVALID_ARGUMENT", fragments: ["joinLibrary", ":executeMutation"]),
        BadRequest(
            name: "GET on an execute endpoint", method: "GET", http: 400, status: "INVALID_ARGUMENT",
            fragments: ["POST"]),
        BadRequest(
            name: "text/plain content from a web page", body: body("listBooks"),
            headers: ["Content-Type": "text/plain", "Origin": "http://localhost:5173"], http: 400,
            status: "INVALID_ARGUMENT", fragments: ["Content-Type", "text/plain"]),
        BadRequest(
            name: "form content from a web page", body: body("listBooks"),
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Origin": "http://127.0.0.1:8080"],
            http: 400, status: "INVALID_ARGUMENT", fragments: ["Content-Type"]),
        BadRequest(
            name: "a body over 8 MiB",
            body: body("searchBooks", ["text": .string(String(repeating: "x", count: 8 * 1024 * 1024 + 1))]), http: 413,
            status: "RESOURCE_EXHAUSTED", fragments: ["8388608"]),
    ]

    @Test(arguments: cases)
    func badRequestIsRefusedAndTheEmulatorKeepsServing(_ bad: BadRequest) async throws {
        // given: a running emulator with a committed write
        let emulator = try bad.backend.start()
        let client = EmulatorClient(emulator, connector: bad.backend == .movies ? "movies" : "lending")
        let witness = try await commitWitness(client, bad.backend)

        // when
        let result = try await client.send(
            bad.target.url(emulator), method: bad.method, body: bad.body, headers: bad.headers)

        // then
        expectRequestError(result, bad.http, bad.status, messageContains: bad.fragments)
        try await expectStillServing(client, bad.backend, witness: witness)
    }

    @Test func contentTypeWithACharsetIsAccepted() async throws {
        // given
        let emulator = try Backend.library.start()
        let client = EmulatorClient(emulator, connector: "lending")

        // when
        let result = try await client.send(
            emulator.connectorURL("lending", "executeQuery"), method: "POST", body: Self.body("catalogueStats"),
            headers: ["Content-Type": "application/json; charset=utf-8"])

        // then
        #expect(expectData(result)["books"]?[0]?["_count"] == 6)
    }

    @Test(arguments: ["text/plain", "application/x-www-form-urlencoded"])
    func aCallerThatIsNotAWebPageIsNotRefusedForItsContentType(_ contentType: String) async throws {
        // given
        let emulator = try Backend.library.start()
        let client = EmulatorClient(emulator, connector: "lending")

        // when
        let result = try await client.send(
            emulator.connectorURL("lending", "executeQuery"), method: "POST", body: Self.body("catalogueStats"),
            headers: ["Content-Type": contentType])

        // then
        #expect(expectData(result)["books"]?[0]?["_count"] == 6)
    }

    @Test func unknownTopLevelVariablesAreIgnored() async throws {
        // given
        let emulator = try Backend.library.start()
        let client = EmulatorClient(emulator, connector: "lending")

        // when
        let result = try await client.query("getBook", ["isbn": "978-0-14-143955-6", "unused": ["deep": [1, 2, 3]]])

        // then
        #expect(expectData(result)["book"]?["title"] == "Emma")
    }

    // MARK: Data that looks dangerous

    @Test func sqlLookingStringsAreStoredAndReturnedVerbatim() async throws {
        // given
        let emulator = try Backend.library.start()
        let client = EmulatorClient(emulator, connector: "lending")
        let token = TestEmulator.token(uid: "uid-bobby'; DROP TABLE member; --")
        let name = "Robert'); DROP TABLE member;--"
        let email = "x' OR '1'='1\" -- \\ \u{0} ☃"

        // when
        let joined = try await client.mutation(
            "joinLibrary", ["name": .string(name), "email": .string(email)], token: token)
        let card = try await client.query("myCard", token: token)
        let search = try await client.query("searchBooks", ["text": "' OR 1=1 --"])

        // then
        expectData(joined)
        #expect(joined.data?["member_upsert"] == ["id": "uid-bobby'; DROP TABLE member; --"])
        let member = expectData(card)["member"]
        #expect(member?["name"] == .string(name))
        #expect(member?["email"] == .string(email))
        #expect(expectData(search) == ["books": []])
        let counts = try await client.admin("query { members { _count } books { _count } loans { _count } }")
        #expect(expectData(counts) == ["members": [["_count": 4]], "books": [["_count": 6]], "loans": [["_count": 5]]])
    }

    @Test(arguments: ["%", "_", "\\", "%%", "Em_a"])
    func likeWildcardsInSearchTextMatchOnlyThemselves(text: String) async throws {
        // given
        let emulator = try Backend.library.start()
        let client = EmulatorClient(emulator, connector: "lending")

        // when
        let result = try await client.query("searchBooks", ["text": .string(text)])

        // then
        #expect(expectData(result) == ["books": []])
    }

    // MARK: Execution errors are field errors (HTTP 200)

    @Test func uniqueViolationIsAFieldErrorWithItsPath() async throws {
        // given
        let emulator = try Backend.library.start()
        let client = EmulatorClient(emulator, connector: "lending")
        let newcomer = TestEmulator.token(uid: "uid-dora")

        // when: Ada already has this address
        let result = try await client.mutation(
            "joinLibrary", ["name": "Dora", "email": "ada@example.com"], token: newcomer)

        // then
        #expect(result.status == 200)
        #expect(result.data == ["member_upsert": nil])
        let error = try #require(result.errors.first)
        #expect(result.errors.count == 1)
        #expect(error["path"] == ["member_upsert"])
        #expect(error["extensions"]?["code"] == "ALREADY_EXISTS")
        #expect(error["message"]?.stringValue?.contains("unique") == true, "\(error)")
        #expect(error["locations"] == nil, "connector errors carry no locations")
        #expect(expectData(try await client.query("myCard", token: newcomer)) == ["member": nil])
        let ada = expectData(try await client.query("myCard", token: TestEmulator.token(uid: "uid-ada")))
        #expect(ada["member"]?["email"] == "ada@example.com")
    }

    @Test func primaryKeyViolationIsAnAlreadyExistsFieldError() async throws {
        // given
        let emulator = try Backend.library.start()
        let client = EmulatorClient(emulator, connector: "lending")
        let staff = TestEmulator.token(uid: "uid-staff", emailVerified: true)

        // when
        let result = try await client.mutation(
            "addBook", ["isbn": "978-0-14-143955-6", "title": "Emma (again)"], token: staff)

        // then
        #expect(result.status == 200)
        #expect(result.data == ["book_insert": nil])
        #expect(result.errors.first?["extensions"]?["code"] == "ALREADY_EXISTS")
        #expect(result.errors.first?["path"] == ["book_insert"])
        #expect(
            expectData(try await client.query("getBook", ["isbn": "978-0-14-143955-6"]))["book"]?["title"] == "Emma")
    }

    @Test func varcharOverflowIsAnInvalidArgumentFieldError() async throws {
        // given
        let emulator = try Backend.library.start()
        let client = EmulatorClient(emulator, connector: "lending")
        let token = TestEmulator.token(uid: "uid-long")

        // when: the card name is varchar(80)
        let tooLong = try await client.mutation(
            "joinLibrary", ["name": .string(String(repeating: "é", count: 81))], token: token)
        let fits = try await client.mutation(
            "joinLibrary", ["name": .string(String(repeating: "é", count: 80))], token: token)

        // then
        #expect(tooLong.status == 200)
        #expect(tooLong.errors.first?["extensions"]?["code"] == "INVALID_ARGUMENT")
        #expect(tooLong.errors.first?["path"] == ["member_upsert"])
        expectData(fits)
        #expect(expectData(try await client.query("myCard", token: token))["member"]?["name"]?.stringValue?.count == 80)
    }

    @Test func foreignKeyViolationRollsTheTransactionBack() async throws {
        // given
        let emulator = try Backend.library.start()
        let client = EmulatorClient(emulator, connector: "lending")
        let staff = TestEmulator.token(uid: "uid-staff", emailVerified: true)

        // when: the author insert succeeds, then the credit points at a book that does not exist
        let result = try await client.mutation(
            "addAuthorToBook", ["isbn": "978-0-00-000000-9", "name": "Ghost Writer"], token: staff)

        // then
        #expect(result.status == 200)
        #expect(result.data == ["author_insert": nil, "bookAuthor_insert": nil])
        #expect(result.errors.count == 2)
        #expect(result.errors[0]["message"] == "(rolled back)")
        #expect(result.errors[0]["path"] == ["author_insert"])
        #expect(result.errors[1]["path"] == ["bookAuthor_insert"])
        #expect(result.errors[1]["extensions"]?["code"] == "FAILED_PRECONDITION")
        #expect(result.errors[1]["message"]?.stringValue?.contains("foreign key") == true)
        #expect(result.dataConnect.isEmpty, "nothing was written, so there are no entities")
        let authors = try await client.admin("query { authors(where: {name: {eq: \"Ghost Writer\"}}) { id } }")
        #expect(expectData(authors) == ["authors": []])
    }

    @Test func failedCheckAbortsTheTransactionAndWritesNothing() async throws {
        // given: every copy of Nineteen Eighty-Four is out
        let emulator = try Backend.library.start()
        let client = EmulatorClient(emulator, connector: "lending")
        let cleo = TestEmulator.token(uid: "uid-cleo")

        // when
        let noCopy = try await client.mutation(
            "borrowBook", ["isbn": "978-0-452-28423-4", "dueOn": "2030-01-01"], token: cleo)
        let noBook = try await client.mutation(
            "borrowBook", ["isbn": "978-0-00-000000-9", "dueOn": "2030-01-01"], token: cleo)

        // then
        for (result, message) in [(noCopy, "no copy left on the shelf"), (noBook, "no such book")] {
            #expect(result.status == 200)
            #expect(
                result.errors.map { $0["message"]?.stringValue ?? "" } == [message, "(aborted)", "(aborted)"],
                "\(result)")
            #expect(result.errors.first?["extensions"]?["code"] == "PERMISSION_DENIED")
            #expect(result.errors.dropFirst().map { $0["path"] } == [["loan_insert"], ["book_update"]])
            #expect(result.data?["loan_insert"] == .null)
            #expect(result.data?["book_update"] == .null)
        }
        let book = expectData(try await client.query("getBook", ["isbn": "978-0-452-28423-4"]))["book"]
        #expect(book?["copiesAvailable"] == 0)
        #expect(book?["timesBorrowed"] == "40")
        #expect(expectData(try await client.query("myCard", token: cleo))["member"]?["loans"]?.arrayValue?.count == 1)
    }

    @Test func withoutTransactionLaterFieldsStillRunAfterAFailure() async throws {
        // given
        let emulator = try Backend.library.start()
        let client = EmulatorClient(emulator, connector: "lending")

        // when
        let result = try await client.admin(
            """
            mutation {
              first: author_insert(data: {name: "First"})
              second: member_insert(data: {id: "uid-ada", name: "Duplicate Ada"})
              third: author_insert(data: {name: "Third"})
            }
            """)

        // then
        #expect(result.status == 200)
        #expect(result.data?["first"]?["id"]?.stringValue?.count == 32)
        #expect(result.data?["second"] == .null)
        #expect(result.data?["third"]?["id"]?.stringValue?.count == 32)
        #expect(result.errors.count == 1)
        #expect(result.errors.first?["path"] == ["second"])
        #expect(result.errors.first?["extensions"]?["code"] == "ALREADY_EXISTS")
        let authors = try await client.admin(
            "query { authors(where: {name: {in: [\"First\", \"Third\"]}}, orderBy: [{name: ASC}]) { name } }")
        #expect(expectData(authors) == ["authors": [["name": "First"], ["name": "Third"]]])
    }

    @Test func concurrentBadAndGoodRequestsAreAllAnswered() async throws {
        // given
        let emulator = try Backend.library.start()
        let client = EmulatorClient(emulator, connector: "lending")
        let url = emulator.connectorURL("lending", "executeQuery")

        // when
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<40 {
                group.addTask {
                    let body = index.isMultiple(of: 2) ? Self.body("catalogueStats") : Self.text("{\"broken\": [")
                    return try await client.send(url, method: "POST", body: body).status
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }

        // then
        #expect(statuses.filter { $0 == 200 }.count == 20)
        #expect(statuses.filter { $0 == 400 }.count == 20)
    }

    // MARK: Helpers

    /// Commits one write through the connector, so the test can check it survived.
    func commitWitness(_ client: EmulatorClient, _ backend: Backend) async throws -> String {
        let token = TestEmulator.token(uid: "uid-witness")
        switch backend {
        case .library:
            expectData(try await client.mutation("joinLibrary", ["name": "Wanda Witness"], token: token))
        case .movies:
            expectData(try await client.mutation("upsertUser", ["username": "witness"], token: token))
        }
        return token
    }

    /// The emulator answers a valid call, the committed write is there and the seed is intact.
    func expectStillServing(
        _ client: EmulatorClient, _ backend: Backend, witness: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        switch backend {
        case .library:
            let card = try await client.query("myCard", token: witness)
            #expect(
                expectData(card, sourceLocation: sourceLocation)["member"]?["name"] == "Wanda Witness",
                sourceLocation: sourceLocation)
            let stats = try await client.query("catalogueStats")
            #expect(
                expectData(stats, sourceLocation: sourceLocation)["books"]?[0]?["_count"] == 6,
                sourceLocation: sourceLocation)
            #expect(
                stats.data?["loansByStatus"] == [
                    ["status": "ACTIVE", "_count": 3], ["status": "RETURNED", "_count": 1],
                    ["status": "LOST", "_count": 1],
                ], sourceLocation: sourceLocation)
        case .movies:
            let user = try await client.query("getCurrentUser", token: witness)
            #expect(
                expectData(user, sourceLocation: sourceLocation)["user"]?["username"] == "witness",
                sourceLocation: sourceLocation)
            let stats = try await client.query("getCatalogueStats")
            #expect(
                expectData(stats, sourceLocation: sourceLocation)["movieTotals"]?[0]?["_count"] == 79,
                sourceLocation: sourceLocation)
            #expect(stats.data?["userTotals"] == [["_count": 13]], sourceLocation: sourceLocation)
        }
    }
}
