import DataConnectEmulator
import DataConnectTestSupport
import DataConnectWire
import EmulatorTesting
import Foundation
import Testing

/// The browser console's server side over real HTTP: its page and files, the schema model, explain, the request
/// log, the realtime groups, the live events WebSocket, the origin rules and `--no-console`.
@Suite(.on(.sqlite))  // the console's HTTP endpoints
struct ConsoleEndpointTests {
    /// A GET with the headers a browser sends, read off a raw socket so the response headers can be checked.
    static func get(_ port: Int, _ path: String, origin: String? = nil) throws -> RawHTTPResult {
        var head = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if let origin { head += "Origin: \(origin)\r\n" }
        return try rawExchange(port: UInt16(port), Array((head + "\r\n").utf8))
    }

    @Test func thePageAndItsFilesAreServedWithTheirTypesAndAContentSecurityPolicy() throws {
        // given
        let emulator = try Backend.movies.start()

        // when
        let page = try Self.get(emulator.port, "/")
        let script = try Self.get(emulator.port, "/console/api.js")
        let missing = try Self.get(emulator.port, "/console/nothing.js")
        let escape = try Self.get(emulator.port, "/console/../Package.swift")

        // then
        #expect(page.status == 200, "\(page)")
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.headers["content-security-policy"]?.contains("script-src 'self'") == true)
        #expect(page.headers["x-content-type-options"] == "nosniff")
        #expect(String(decoding: page.body, as: UTF8.self).contains("<script type=\"module\""))
        #expect(script.status == 200)
        #expect(script.headers["content-type"] == "text/javascript; charset=utf-8")
        #expect(String(decoding: script.body, as: UTF8.self).contains("export function executeGraphql"))
        #expect(missing.status == 404 && missing.isErrorEnvelope, "\(missing)")
        #expect(escape.status == 404, "\(escape)")
    }

    @Test func theFaviconIsTheConsolesOwnIcon() throws {
        // given
        let emulator = try Backend.movies.start()

        // when
        let icon = try Self.get(emulator.port, "/favicon.ico")

        // then
        #expect(icon.status == 200, "\(icon)")
        #expect(icon.headers["content-type"] == "image/svg+xml")
        #expect(String(decoding: icon.body, as: UTF8.self).contains("<svg"))
    }

    @Test func theModelDescribesTablesRelationsAndOperations() async throws {
        // given
        let emulator = try Backend.movies.start()

        // when
        let model = try Self.get(emulator.port, "/emulator/console/model").json

        // then: the service
        #expect(model["serviceId"] == "movies")
        let tables = model["tables"]?.arrayValue ?? []
        let movie = try #require(tables.first { $0["type"] == "Movie" })
        #expect(movie["key"] == ["id"])
        #expect(movie["api"]?["list"] == "movies")
        #expect(movie["api"]?["update"] == "movie_update")
        #expect(movie["api"]?["keyInput"] == "Movie_Key")
        let id = try #require(movie["columns"]?.arrayValue?.first { $0["field"] == "id" })
        #expect(id["key"] == true && id["generated"] == true && id["type"] == "UUID!")
        // a reference: its key column points at the target, and the relation is listed
        let metadata = try #require(tables.first { $0["type"] == "MovieMetadata" })
        let movieId = try #require(metadata["columns"]?.arrayValue?.first { $0["field"] == "movieId" })
        #expect(movieId["references"] == ["type": "Movie", "field": "movie"])
        #expect(metadata["relations"]?.arrayValue?.contains { $0["field"] == "movie" && $0["type"] == "Movie" } == true)
        // the operations that touch the table, with their @auth
        #expect(
            movie["operations"]?.arrayValue?.contains { $0["name"] == "listMovies" && $0["auth"] == "PUBLIC" } == true)
        let operations = model["connectors"]?[0]?["operations"]?.arrayValue ?? []
        let upsertUser = try #require(operations.first { $0["name"] == "upsertUser" })
        #expect(upsertUser["kind"] == "mutation" && upsertUser["auth"] == "USER")
        #expect(upsertUser["variables"] == [["name": "username", "type": "String!", "default": .null]])
        #expect(upsertUser["tables"]?.arrayValue?.contains("User") == true)
        // an operation's text runs on its own as admin GraphQL: the fragments it spreads come with it
        let byTitle = try #require(operations.first { $0["name"] == "getMovieByTitle" })
        let source = try #require(byTitle["source"]?.stringValue)
        #expect(source.contains("fragment MovieSummary on Movie"))
        let run = try await EmulatorClient(emulator, connector: "movies").admin(
            source, operationName: "getMovieByTitle", variables: ["title": "Inception"], method: "executeGraphqlRead")
        #expect(run.status == 200 && run.errors.isEmpty, "\(run)")
        #expect(run.data?["movie"]?["title"] == "Inception")
        #expect(model["enums"]?.arrayValue?.contains { $0["name"] == "AspectRatio" } == true)
    }

    @Test func explainGivesTheSQLOfEachRootFieldOfAQuery() async throws {
        // given
        let emulator = try Backend.movies.start()
        let client = EmulatorClient(emulator, connector: "movies")

        // when
        let explained = try await client.post(
            emulator.url + "/emulator/console/explain",
            json: ["connector": "movies", "operationName": "listMoviesByGenre", "variables": ["genre": "Drama"]])
        let unknown = try await client.post(
            emulator.url + "/emulator/console/explain", json: ["connector": "movies", "operationName": "nope"])
        let malformed = try await client.post(emulator.url + "/emulator/console/explain", json: ["operationName": 1])

        // then
        let statements = explained.json["statements"]?.arrayValue ?? []
        #expect(statements.count == 1, "\(explained)")
        #expect(statements.first?["sql"]?.stringValue?.contains("\"movie\"") == true)
        #expect(statements.first?["parameters"]?.arrayValue?.contains("'Drama'") == true)
        #expect(unknown.status == 404 && unknown.errorMessage.contains("nope"))
        #expect(malformed.status == 400 && malformed.errorStatus == "INVALID_ARGUMENT")
    }

    @Test func requestsAreRecordedWithTheirCallerStatusAndDuration() async throws {
        // given
        let emulator = try Backend.movies.start()
        let client = EmulatorClient(emulator, connector: "movies")

        // when: a public query, a signed-in mutation, a refused one, admin GraphQL and a clear
        _ = try await client.query("listMovies")
        _ = try await client.mutation(
            "upsertUser", ["username": "ada"], token: TestEmulator.token(uid: "uid-ada", email: "ada@example.com"))
        _ = try await client.mutation("upsertUser", ["username": "nobody"])
        _ = try await client.admin("query { movies(limit: 1) { id } }")
        _ = try await client.post(emulator.url + "/emulator/clear", json: [:])
        _ = try Self.get(emulator.port, "/emulator/console/model")
        let log = try Self.get(emulator.port, "/emulator/console/requests").json

        // then: in order, the console's own requests left out
        let records = log["requests"]?.arrayValue ?? []
        let summary = records.map { record in
            [record["method"], record["operation"], record["caller"], record["status"], record["code"]]
        }
        #expect(
            summary == [
                ["executeQuery", "listMovies", "unauthenticated", 200, "OK"],
                ["executeMutation", "upsertUser", "uid:uid-ada", 200, "OK"],
                ["executeMutation", "upsertUser", "unauthenticated", 401, "UNAUTHENTICATED"],
                ["executeGraphql", .null, "admin", 200, "OK"],
                ["clear", .null, "admin", 200, "OK"],
            ])
        #expect(records.map { $0["id"]?.intValue ?? 0 } == [1, 2, 3, 4, 5])
        #expect(records.allSatisfy { ($0["durationMs"]?.doubleValue ?? -1) >= 0 })
        #expect(records.allSatisfy { $0["time"]?.stringValue?.hasSuffix("Z") == true })
    }

    @Test func theLogKeepsTheLast200RequestsOldestFirst() async throws {
        // given
        let emulator = try Backend.movies.start()
        let client = EmulatorClient(emulator, connector: "movies")

        // when: 205 requests, past the log's 200
        for _ in 0..<205 { _ = try await client.query("listMovies") }
        let log = try Self.get(emulator.port, "/emulator/console/requests").json

        // then: the first five are gone, the rest in order
        let ids = (log["requests"]?.arrayValue ?? []).map { $0["id"]?.intValue ?? 0 }
        #expect(ids == Array(6...205))
    }

    @Test func theEventsSocketSendsRequestsGroupsAndPushesAsTheyHappen() throws {
        // given: a console listening, and a subscriber
        let fixture = try RealtimeFixture()
        let console = try WebSocketClient(
            port: fixture.emulator.port, path: "/emulator/console/events",
            headers: WebSocketClient.standardHeaders(extra: [("Origin", "http://127.0.0.1")]))
        #expect(console.status == 101)
        let hello = try #require(console.next())
        #expect(hello["type"] == "hello" && hello["serviceId"] == "shop")
        let subscriber = try fixture.subscribe("ListBooks")
        _ = subscriber.nextData()
        let arrival = Self.next(
            console,
            each: [
                { $0["type"] == "groups" && $0["subscribers"] == 1 },
                { $0["type"] == "push" && $0["push"]?["reason"] == "initial" },
            ])
        #expect(try #require(arrival[0])["groups"]?[0]?["operation"] == "ListBooks")
        #expect(try #require(arrival[1])["push"]?["operation"] == "ListBooks")

        // when: a mutation over REST
        try fixture.mutate("AddBook", ["title": "Figs", "year": 2021, "authorId": .string(RealtimeFixture.alice)])

        // then: its request, and the push of the subscriber's new data (in either order: the push leaves from the
        // hub's queue)
        let frames = Self.next(
            console,
            each: [
                { $0["type"] == "request" }, { $0["type"] == "push" && $0["push"]?["reason"] == "change" },
            ])
        let request = try #require(frames[0])
        #expect(request["request"]?["operation"] == "AddBook" && request["request"]?["status"] == 200)
        let push = try #require(frames[1])
        #expect(push["push"]?["operation"] == "ListBooks" && push["push"]?["subscribers"] == 1)
        _ = subscriber.nextData()
        let state = try Self.get(Int(fixture.emulator.port), "/emulator/console/realtime").json
        #expect(state["subscribers"] == 1)
        let group = try #require(state["groups"]?[0])
        #expect(group["operation"] == "ListBooks" && group["caller"] == "unauthenticated")
        #expect((group["pushes"]?.intValue ?? 0) >= 2, "the first result and the change")
        #expect(group["etag"] == push["push"]?["etag"])

        // when: the subscriber leaves
        subscriber.client.close()

        // then
        #expect(Self.next(console) { $0["type"] == "groups" && $0["subscribers"] == 0 } != nil)
    }

    @Test func pagesOfOtherOriginsCannotReadTheConsole() throws {
        // given
        let emulator = try Backend.movies.start()

        // when
        let model = try Self.get(emulator.port, "/emulator/console/model", origin: "http://evil.example")
        let events = try WebSocketClient(
            port: UInt16(emulator.port), path: "/emulator/console/events",
            headers: WebSocketClient.standardHeaders(extra: [("Origin", "http://localhost:3000")]))
        let own = try Self.get(emulator.port, "/emulator/console/model", origin: "http://127.0.0.1:\(emulator.port)")

        // then: only the emulator's own pages may (loopback pages of other ports call the client API only)
        #expect(model.status == 403 && model.errorStatus == "PERMISSION_DENIED")
        #expect(events.status == 403)
        #expect(own.status == 200)
    }

    @Test func withTheConsoleOffItsPathsAnswerNotFound() throws {
        // given
        let emulator = try Emulator(
            options: Emulator.Options(backend: Backend.movies.directory, port: 0, console: false))
        try emulator.start()
        defer { emulator.stop() }

        // when
        let paths = ["/", "/console/api.js", "/favicon.ico", "/emulator/console/model", "/emulator/console/requests"]
        let answers = try paths.map { try Self.get(Int(emulator.port), $0) }

        // then
        for (path, answer) in zip(paths, answers) {
            #expect(answer.status == 404 && answer.errorMessage.contains("--no-console"), "\(path): \(answer)")
        }
    }

    /// The first frame matching each predicate, reading until each has one (others are skipped); `nil` for those
    /// without a match before the hang guard.
    static func next(_ client: WebSocketClient, each predicates: [(JSONValue) -> Bool]) -> [JSONValue?] {
        var found = [JSONValue?](repeating: nil, count: predicates.count)
        let deadline = ContinuousClock.now + HangGuard.event
        while found.contains(where: { $0 == nil }), let frame = client.next(timeout: deadline - ContinuousClock.now) {
            for (index, matches) in predicates.enumerated() where found[index] == nil && matches(frame) {
                found[index] = frame
            }
        }
        return found
    }

    /// The next frame that `matches`, skipping others; `nil` when none comes before the hang guard.
    static func next(_ client: WebSocketClient, where matches: (JSONValue) -> Bool) -> JSONValue? {
        let deadline = ContinuousClock.now + HangGuard.event
        while let frame = client.next(timeout: deadline - ContinuousClock.now) {
            if matches(frame) { return frame }
        }
        return nil
    }
}
