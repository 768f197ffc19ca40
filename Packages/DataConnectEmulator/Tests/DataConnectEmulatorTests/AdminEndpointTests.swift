import DataConnectWire
import EmulatorTesting
import Foundation
import Testing

/// The privileged service endpoints (`:executeGraphql`, `:executeGraphqlRead`, impersonation) and the emulator's
/// own endpoints (`/emulator/info`, `/emulator/clear`), plus the `v1beta` alias.
@Suite(.onBothDatabases) struct AdminEndpointTests {
    let emulator: TestEmulator
    let client: EmulatorClient

    init() throws {
        emulator = try Backend.movies.start()
        client = EmulatorClient(emulator, connector: "movies")
    }

    /// A document whose named operation reads the caller's profile, for the impersonation tests.
    static let myProfile = """
        query mine @auth(level: USER) { user(key: {id_expr: "auth.uid"}) { username } }
        query closed @auth(level: NO_ACCESS) { users { _count } }
        query staff @auth(expr: "auth.token.admin == true") { users { _count } }
        """

    // MARK: executeGraphql

    @Test func executeGraphqlRunsAnyQueryAgainstTheGeneratedAPI() async throws {
        // when
        let result = try await client.admin(
            "query { users(orderBy: [{id: ASC}], limit: 2) { id username } people_aggregate: people { _count } }")

        // then
        #expect(
            expectData(result) == [
                "users": [["id": "uid-alice", "username": "alice"], ["id": "uid-bruno", "username": "bruno"]],
                "people_aggregate": [["_count": 50]],
            ])
        #expect(result.dataConnect.isEmpty, "admin queries carry no entity ids")
    }

    @Test func executeGraphqlIgnoresAuthLevelsWithoutImpersonation() async throws {
        // given: operations no client could run
        let document = """
            query closed @auth(level: NO_ACCESS) { users { _count } }
            query unmarked { movies(where: {genre: {eq: "War"}}) { title } }
            """

        // when
        let closed = try await client.admin(document, operationName: "closed")
        let unmarked = try await client.admin(document, operationName: "unmarked")
        let userLevel = try await client.admin(Self.myProfile, operationName: "mine")

        // then
        #expect(expectData(closed) == ["users": [["_count": 12]]])
        #expect(expectData(unmarked) == ["movies": [["title": "Saving Private Ryan"]]])
        #expect(userLevel.status == 200, "auth.uid without a caller is a field error, not a refusal")
        #expect(userLevel.data == .null)
        #expect(userLevel.errors.first?["extensions"]?["code"] == "UNAUTHENTICATED")
        #expect(userLevel.errors.first?["message"]?.stringValue?.contains("auth.uid") == true)
    }

    @Test func executeGraphqlRunsMutationsWithVariables() async throws {
        // when
        let written = try await client.admin(
            #"mutation add($name: String!) { person_insert(data: {id: "5ca1ab1e-0000-4000-8000-000000000001", name: $name}) }"#,
            variables: ["name": "Agnès Varda"])
        let read = try await client.admin("query { person(id: \"5ca1ab1e000040008000000000000001\") { name } }")

        // then
        #expect(expectData(written)["person_insert"] == ["id": "5ca1ab1e000040008000000000000001"])
        #expect(written.dataConnect.isEmpty, "admin calls carry no entity ids")
        #expect(expectData(read) == ["person": ["name": "Agnès Varda"]])
    }

    @Test func executeGraphqlNeedsAnOperationNameWhenTheDocumentHasSeveral() async throws {
        // when
        let ambiguous = try await client.admin(Self.myProfile)
        let unknown = try await client.admin(Self.myProfile, operationName: "nope")

        // then
        expectRequestError(ambiguous, 400, "INVALID_ARGUMENT", messageContains: ["operationName is required"])
        expectRequestError(unknown, 404, "NOT_FOUND", messageContains: ["operation \"nope\" not found"])
    }

    @Test func executeGraphqlReportsValidationErrorsAsInvalidArgument() async throws {
        // when
        let result = try await client.admin("query { movies { title budget } }")

        // then
        expectRequestError(result, 400, "INVALID_ARGUMENT", messageContains: ["budget"])
    }

    @Test func executeGraphqlNeedsAQuery() async throws {
        // when
        let result = try await client.post(emulator.serviceURL("executeGraphql"), json: ["variables": [:]])

        // then
        expectRequestError(result, 400, "INVALID_ARGUMENT", messageContains: ["\"query\" is required"])
    }

    @Test func adminCredentialsAreAcceptedAndIgnored() async throws {
        // when
        let result = try await client.post(
            emulator.serviceURL("executeGraphql"), json: ["query": "query { users { _count } }"],
            headers: [
                "Authorization": "Bearer owner", "x-mantle-admin": "all", "X-Goog-Api-Client": "gl-swift/6 fire/11",
            ])

        // then
        #expect(expectData(result) == ["users": [["_count": 12]]])
    }

    // MARK: executeGraphqlRead

    @Test func executeGraphqlReadRunsQueries() async throws {
        // when
        let result = try await client.admin(
            "query { movie(id: \"252ff53a-a807-5c12-840b-96bff4798d7b\") { title } }", method: "executeGraphqlRead")

        // then
        #expect(expectData(result) == ["movie": ["title": "Star Wars"]])
    }

    @Test func executeGraphqlReadRefusesMutationsAndWritesNothing() async throws {
        // when
        let result = try await client.admin(
            "mutation { user_insert(data: {id: \"uid-sneaky\", username: \"sneaky\"}) }", method: "executeGraphqlRead")

        // then
        expectRequestError(result, 403, "PERMISSION_DENIED", messageContains: ["mutation"])
        #expect(expectData(try await client.admin("query { users { _count } }")) == ["users": [["_count": 12]]])
    }

    // MARK: Impersonation

    @Test func impersonatedClaimsAreTheCallerOfTheNamedOperation() async throws {
        // when
        let result = try await client.admin(
            Self.myProfile, operationName: "mine",
            extensions: ["impersonate": ["authClaims": ["sub": "uid-alice", "email_verified": true]]])

        // then
        #expect(expectData(result) == ["user": ["username": "alice"]])
    }

    @Test func impersonationEnforcesTheAuthLevel() async throws {
        // when
        let unauthenticated = try await client.admin(
            Self.myProfile, operationName: "mine", extensions: ["impersonate": ["unauthenticated": true]])
        let anonymous = try await client.admin(
            Self.myProfile, operationName: "mine",
            extensions: [
                "impersonate": ["authClaims": ["sub": "uid-anon", "firebase": ["sign_in_provider": "anonymous"]]]
            ])
        let closed = try await client.admin(
            Self.myProfile, operationName: "closed", extensions: ["impersonate": ["authClaims": ["sub": "uid-alice"]]])

        // then
        expectRequestError(unauthenticated, 401, "UNAUTHENTICATED", messageContains: ["USER"])
        expectRequestError(anonymous, 401, "UNAUTHENTICATED", messageContains: ["anonymous"])
        expectRequestError(closed, 403, "PERMISSION_DENIED", messageContains: ["NO_ACCESS"])
    }

    @Test func impersonationEvaluatesAuthExpressionsOnTheClaims() async throws {
        // when
        let admin = try await client.admin(
            Self.myProfile, operationName: "staff",
            extensions: ["impersonate": ["authClaims": ["sub": "uid-alice", "admin": true]]])
        let notAdmin = try await client.admin(
            Self.myProfile, operationName: "staff",
            extensions: ["impersonate": ["authClaims": ["sub": "uid-alice", "admin": false]]])

        // then
        #expect(expectData(admin) == ["users": [["_count": 12]]])
        expectRequestError(notAdmin, 403, "PERMISSION_DENIED")
    }

    @Test func impersonationTreatsAnOperationWithoutAuthAsNoAccess() async throws {
        // when
        let result = try await client.admin(
            "query unmarked { users { _count } }", extensions: ["impersonate": ["authClaims": ["sub": "uid-alice"]]])

        // then
        expectRequestError(result, 403, "PERMISSION_DENIED", messageContains: ["unmarked"])
    }

    @Test func impersonationAppliesToMutations() async throws {
        // given
        let document = """
            mutation rename($name: String!) @auth(level: USER) {
              user_update(key: {id_expr: "auth.uid"}, data: {username: $name})
            }
            """

        // when
        let renamed = try await client.admin(
            document, variables: ["name": "alice2"], extensions: ["impersonate": ["authClaims": ["sub": "uid-alice"]]])
        let refused = try await client.admin(
            document, variables: ["name": "nobody"], extensions: ["impersonate": ["unauthenticated": true]])

        // then
        #expect(expectData(renamed)["user_update"] == ["id": "uid-alice"])
        expectRequestError(refused, 401, "UNAUTHENTICATED")
        let user = try await client.admin(
            Self.myProfile, operationName: "mine", extensions: ["impersonate": ["authClaims": ["sub": "uid-alice"]]])
        #expect(expectData(user) == ["user": ["username": "alice2"]])
    }

    @Test func impersonateQueryRunsAConnectorOperationAsTheClaimedUser() async throws {
        // given
        let url = emulator.connectorURL("movies", "impersonateQuery")

        // when
        let alice = try await client.post(
            url,
            json: [
                "operationName": "listMyReviews", "variables": [:],
                "extensions": ["impersonate": ["authClaims": ["sub": "uid-alice"]]],
            ])
        let nobody = try await client.post(
            url,
            json: [
                "operationName": "listMyReviews", "variables": [:],
                "extensions": ["impersonate": ["unauthenticated": true]],
            ])

        // then
        #expect(expectData(alice)["reviews"]?.arrayValue?.count == 7)
        expectRequestError(nobody, 401, "UNAUTHENTICATED")
    }

    @Test(arguments: [
        ("executeGraphql", false), ("executeGraphqlRead", false), ("impersonateQuery", true),
        ("impersonateMutation", true),
    ])
    func anImpersonationThatIsNotAnObjectIsRefused(_ method: String, _ onConnector: Bool) async throws {
        // given: every endpoint that reads extensions.impersonate
        let url = onConnector ? emulator.connectorURL("movies", method) : emulator.serviceURL(method)
        func body(_ extensions: JSONValue) -> JSONValue {
            onConnector
                ? ["operationName": "listMyReviews", "variables": [:], "extensions": extensions]
                : ["query": "query { users { _count } }", "extensions": extensions]
        }

        // when
        let string = try await client.post(url, json: body(["impersonate": "uid-alice"]))
        let claims = try await client.post(url, json: body(["impersonate": ["authClaims": "uid-alice"]]))
        let extensions = try await client.post(url, json: body("impersonate"))

        // then: a clear refusal, not a run as the admin (or with no caller)
        expectRequestError(string, 400, "INVALID_ARGUMENT", messageContains: ["extensions.impersonate", "object"])
        expectRequestError(claims, 400, "INVALID_ARGUMENT", messageContains: ["authClaims", "object"])
        expectRequestError(extensions, 400, "INVALID_ARGUMENT", messageContains: ["extensions", "object"])
    }

    // MARK: Emulator endpoints

    @Test func exportToAFileIsRefusedWithAClearMessage() async throws {
        // given: a file where the export directory should be
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString).path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/notes.txt"
        try Data("keep".utf8).write(to: URL(fileURLWithPath: file))

        // when
        let onFile = try await client.post(emulator.url + "/emulator/export", json: ["path": .string(file)])
        let underFile = try await client.post(
            emulator.url + "/emulator/export", json: ["path": .string(file + "/export")])

        // then
        expectRequestError(onFile, 400, "INVALID_ARGUMENT", messageContains: ["\(file)\" is a file; give a directory"])
        expectRequestError(underFile, 400, "INVALID_ARGUMENT", messageContains: ["\(file)\", which is a file"])
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "keep")
    }

    @Test func infoDescribesTheService() async throws {
        // when
        let result = try await client.send(emulator.url + "/emulator/info", method: "GET")

        // then
        #expect(result.status == 200)
        #expect(result.json["version"]?.stringValue?.isEmpty == false)
        let service = try #require(result.json["services"]?[0])
        #expect(service["serviceId"] == "movies")
        #expect(service["connectionString"]?.stringValue?.isEmpty == false)
        #expect(strings(service["connectors"]) == ["movies"])
    }

    @Test func clearEmptiesEveryTableAndKeepsTheSchema() async throws {
        // when
        let cleared = try await client.send(emulator.url + "/emulator/clear", method: "POST")

        // then
        #expect(cleared.status == 200)
        let counts = try await client.admin(
            "query { movies { _count } users { _count } reviews { _count } people { _count } movieActors { _count } }")
        #expect(
            expectData(counts) == [
                "movies": [["_count": 0]], "users": [["_count": 0]], "reviews": [["_count": 0]],
                "people": [["_count": 0]], "movieActors": [["_count": 0]],
            ])

        // when: the schema is still there
        let created = try await client.mutation(
            "createMovie", ["title": "After", "releaseYear": 2024, "genre": "Drama", "rating": 3])

        // then
        expectData(created)
        #expect(expectData(try await client.query("listMovies"))["movies"]?.arrayValue?.count == 1)
    }

    @Test func clearNeedsPost() async throws {
        // when
        let result = try await client.send(emulator.url + "/emulator/clear", method: "GET")

        // then
        expectRequestError(result, 400, "INVALID_ARGUMENT", messageContains: ["POST"])
        #expect(expectData(try await client.query("listMovies"))["movies"]?.arrayValue?.count == 79)
    }

    @Test func v1betaIsAnAliasOfV1() async throws {
        // given
        let connector = emulator.connectorURL("movies", "executeQuery").replacingOccurrences(
            of: "/v1/", with: "/v1beta/")
        let service = emulator.serviceURL("executeGraphql").replacingOccurrences(of: "/v1/", with: "/v1beta/")

        // when
        let viaConnector = try await client.post(
            connector,
            json: [
                "name": .string(client.resourceName("movies")), "operationName": "getMovieByTitle",
                "variables": ["title": "Metropolis"],
            ])
        let viaService = try await client.post(service, json: ["query": "query { users { _count } }"])

        // then
        #expect(expectData(viaConnector)["movie"]?["releaseYear"] == 1927)
        #expect(expectData(viaService) == ["users": [["_count": 12]]])
    }

    @Test func projectAndLocationSegmentsAreIgnored() async throws {
        // given
        let url =
            emulator.url
            + "/v1/projects/some-other-project/locations/asia-northeast1/services/movies/connectors/movies:executeQuery"

        // when
        let result = try await client.post(
            url,
            json: [
                "name": "projects/x/locations/y/services/movies/connectors/movies", "operationName": "listActors",
                "variables": ["limit": 1],
            ])

        // then
        #expect(expectData(result)["actors"]?.arrayValue?.count == 1)
    }
}
