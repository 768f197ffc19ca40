import DataConnectEncoding
import DataConnectTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Hostile, huge and unusual requests sent to a `dataconnect emulator` process over HTTP: each gets a clear
/// answer (never INTERNAL), nothing the caller may not read leaks, and the emulator keeps answering
/// `/emulator/info` afterwards and stops cleanly.
@Suite(.serialized) struct HostileRequestTests {
    static let adminPath = "/v1/projects/p/locations/l/services/movies:executeGraphql"
    static let connectorName = "projects/p/locations/l/services/movies/connectors/movies"

    /// POSTs raw bytes and returns the status, the raw body and the parsed body.
    static func postRaw(
        _ emulator: EmulatorProcess, _ path: String, _ body: String, headers: [String: String] = [:]
    ) async throws -> (status: Int, text: String, json: [String: Any]) {
        var request = URLRequest(url: URL(string: emulator.url + path)!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = Data(body.utf8)
        request.timeoutInterval = 600
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return (status, String(decoding: data, as: UTF8.self), json)
    }

    static func admin(_ emulator: EmulatorProcess, _ query: String) async throws -> (Int, String, [String: Any]) {
        let body = try JSONSerialization.data(withJSONObject: ["query": query])
        return try await postRaw(emulator, adminPath, String(decoding: body, as: UTF8.self))
    }

    static func errorMessage(_ json: [String: Any]) -> String {
        (json["error"] as? [String: Any])?["message"] as? String ?? ""
    }

    static func errorStatus(_ json: [String: Any]) -> String {
        (json["error"] as? [String: Any])?["status"] as? String ?? ""
    }

    /// Fails unless `/emulator/info` answers 200.
    static func expectHealthy(_ emulator: EmulatorProcess, sourceLocation: SourceLocation = #_sourceLocation) async {
        let info = try? await URLSession.shared.data(from: URL(string: emulator.url + "/emulator/info")!)
        #expect((info?.1 as? HTTPURLResponse)?.statusCode == 200, "/emulator/info", sourceLocation: sourceLocation)
    }

    /// An unsigned ID token (the emulator decodes tokens without verifying them).
    static func token(uid: String) -> String {
        func encode(_ object: [String: Any]) -> String {
            Base64.url.encode(try! JSONSerialization.data(withJSONObject: object))
        }
        let now = Int(Date().timeIntervalSince1970)
        return encode(["alg": "none", "typ": "JWT"]) + "."
            + encode([
                "sub": uid, "user_id": uid, "iat": now, "exp": now + 3600, "aud": "demo", "iss": "https://x",
                "firebase": ["sign_in_provider": "password"],
            ]) + "."
    }

    // MARK: Fragments and aliases

    @Test func fragmentsSpreadTwiceAreExpandedOnceAndStopCleanly() async throws {
        // given fragments that each spread the next one twice: 2^40 expansions without merging
        let export = try TemporaryDirectory(prefix: "dataconnect-hostile-export")
        defer { export.remove() }
        let emulator = try await EmulatorProcess([
            "--backend", RepositoryPaths.movies, "--no-watch", "--seed", RepositoryPaths.movies + "/seed_data.gql",
            "--export-on-exit", export.path,
        ])
        var document = "{ movies(limit: 2) { ...F0 } }\n"
        for index in 0..<40 { document += "fragment F\(index) on Movie { ...F\(index + 1) ...F\(index + 1) }\n" }
        document += "fragment F40 on Movie { title }\n"

        // when
        let (status, _, json) = try await Self.admin(emulator, document)

        // then the merged selection is just `title`
        #expect(status == 200, "\(json)")
        let movies = (json["data"] as? [String: Any])?["movies"] as? [[String: Any]]
        #expect(movies?.count == 2)
        #expect(movies?.allSatisfy { Array($0.keys) == ["title"] } == true, "\(json)")
        await Self.expectHealthy(emulator)
        #expect(await emulator.stop() == 0)
        #expect(FileManager.default.fileExists(atPath: export.path + "/dataconnect_export/sqlite.db"))
    }

    @Test func aSelectionThatGrowsPastTheFieldLimitIsRefusedNamingIt() async throws {
        // given two aliased copies of a relation at each of 12 levels: 4^12 fields once merged
        let emulator = try await EmulatorProcess(["--backend", RepositoryPaths.movies, "--no-watch"])
        var document = "{ movies { ...M0 } }\n"
        for index in 0..<12 {
            document += "fragment M\(index) on Movie { a: director { ...P\(index) } b: director { ...P\(index) } }\n"
            document += "fragment P\(index) on Person { a: movies_on_director { ...M\(index + 1) } "
            document += "b: movies_on_director { ...M\(index + 1) } }\n"
        }
        document += "fragment M12 on Movie { title }\n"

        // when
        let (status, _, json) = try await Self.admin(emulator, document)

        // then
        #expect(status == 400, "\(json)")
        #expect(Self.errorStatus(json) == "INVALID_ARGUMENT")
        #expect(Self.errorMessage(json).contains("limit"), "\(json)")
        await Self.expectHealthy(emulator)
        #expect(await emulator.stop() == 0)
    }

    @Test func fieldsWithTheSameResponseNameAreMerged() async throws {
        // given
        let emulator = try await EmulatorProcess([
            "--backend", RepositoryPaths.movies, "--no-watch", "--seed", RepositoryPaths.movies + "/seed_data.gql",
        ])

        // when
        let (status, text, _) = try await Self.admin(emulator, "{ movies(limit: 1) { id id title title } }")
        let (conflictStatus, _, conflict) = try await Self.admin(
            emulator, "{ movies(limit: 1) { title title: genre } }")

        // then
        #expect(status == 200, "\(text)")
        #expect(text.components(separatedBy: #""title""#).count == 2, "one title key: \(text)")
        #expect(text.components(separatedBy: #""id""#).count == 2, "one id key: \(text)")
        #expect(conflictStatus == 400, "\(conflict)")
        #expect(Self.errorMessage(conflict).contains("conflict"), "\(conflict)")
        #expect(await emulator.stop() == 0)
    }

    // MARK: Shapes the database refuses

    @Test func deepWideAndLongRequestsGetClearAnswers() async throws {
        // given
        let emulator = try await EmulatorProcess([
            "--backend", RepositoryPaths.movies, "--no-watch", "--seed", RepositoryPaths.movies + "/seed_data.gql",
        ])
        var nested = "name"
        for _ in 0..<6 { nested = "movies_on_director { director { \(nested) } }" }
        var negated = #"{title: {eq: "x"}}"#
        for _ in 0..<50 { negated = "{_not: \(negated)}" }
        let wide = (1...70).map { "f\($0): title" }.joined(separator: " ")
        let alternatives = (0..<10_000).map { #"{title: {eq: "t\#($0)"}}"# }.joined(separator: ", ")
        let requests = [
            "{ people { \(nested) } }",
            "{ movies(where: \(negated)) { title } }",
            "{ movies(limit: 1) { \(wide) } }",
            "{ movies(where: {_or: [\(alternatives)]}) { title } }",
        ]

        for (index, request) in requests.enumerated() {
            // when
            let (status, text, json) = try await Self.admin(emulator, request)

            // then: an answer or a 400 that says why; never an internal error
            #expect(status == 200 || status == 400, "request \(index): \(text.prefix(500))")
            #expect(!text.contains("INTERNAL"), "request \(index): \(text.prefix(500))")
            if status == 400 { #expect(!Self.errorMessage(json).isEmpty) }
        }
        let (wideStatus, _, wideJSON) = try await Self.admin(emulator, requests[2])
        let row = ((wideJSON["data"] as? [String: Any])?["movies"] as? [[String: Any]])?.first
        #expect(wideStatus == 200 && row?.count == 70, "70 fields in one row")
        let (orStatus, _, orJSON) = try await Self.admin(emulator, requests[3])
        #expect(orStatus == 400 && Self.errorMessage(orJSON).contains("maxFilterTerms"), "\(orJSON)")
        await Self.expectHealthy(emulator)
        #expect(await emulator.stop() == 0)
    }

    // MARK: Scalars

    @Test func valuesAScalarCannotHoldExactlyAreRefused() async throws {
        // given
        let emulator = try await EmulatorProcess(["--backend", RepositoryPaths.movies, "--no-watch"])
        func create(_ title: String, _ extra: String) async throws -> (Int, [String: Any]) {
            let body = """
                {"name": "\(Self.connectorName)", "operationName": "createMovieWithMetadata", "variables": {
                "title": "\(title)", "releaseYear": 2024, "genre": "Drama", "rating": 3, \(extra)}}
                """
            let (status, _, json) = try await Self.postRaw(
                emulator, "/v1/\(Self.connectorName):executeMutation", body)
            return (status, json)
        }

        // when
        let (floatStatus, float) = try await create("Overflow", #""durationHours": 1e999"#)
        let (dateStatus, date) = try await create("Shifted", #""releaseDate": "2024-01-01T23:59:59""#)
        let (okStatus, ok) = try await create(
            "Exact", #""releaseDate": "2024-01-01T23:59:59-05:00", "durationHours": 1.5"#)

        // then
        #expect(floatStatus == 400 && Self.errorStatus(float) == "INVALID_ARGUMENT", "\(float)")
        #expect(Self.errorMessage(float).contains("durationHours"), "\(float)")
        #expect(dateStatus == 400 && Self.errorStatus(date) == "INVALID_ARGUMENT", "\(date)")
        #expect(Self.errorMessage(date).contains("releaseDate"), "\(date)")
        #expect(okStatus == 200, "\(ok)")
        let (_, text, _) = try await Self.admin(emulator, "{ movies { title movieMetadata_on_movie { releaseDate } } }")
        #expect(!text.contains("Overflow") && !text.contains("Shifted") && text.contains("Exact"), "\(text)")
        // A time part is dropped: the date is the one written before the T, not the UTC date (January 2).
        #expect(text.contains(#""releaseDate":"2024-01-01""#), "\(text)")
        #expect(await emulator.stop() == 0)
    }

    // MARK: Leaks

    @Test func redactedReadsAndRefusedChecksListNoEntityIDs() async throws {
        // given a user with a review of a movie
        let emulator = try await EmulatorProcess(["--backend", RepositoryPaths.movies, "--no-watch"])
        let (_, _, created) = try await Self.admin(
            emulator, #"mutation { movie_insert(data: {title: "Reviewed", releaseYear: 2000, genre: "Drama"}) }"#)
        let movieID = try #require(
            ((created["data"] as? [String: Any])?["movie_insert"] as? [String: Any])?["id"] as? String)
        let token = ["X-Firebase-Auth-Token": Self.token(uid: "uid-hostile")]
        func call(_ operation: String, _ variables: String, token: [String: String]) async throws -> [String: Any] {
            let body =
                #"{"name": "\#(Self.connectorName)", "operationName": "\#(operation)", "variables": \#(variables)}"#
            return try await Self.postRaw(
                emulator, "/v1/\(Self.connectorName):executeMutation", body, headers: token
            ).json
        }
        _ = try await call("upsertUser", #"{"username": "hostile"}"#, token: token)
        _ = try await call("addReview", #"{"movieId": "\#(movieID)", "rating": 4, "text": "Fine."}"#, token: token)

        // when: the check passes (the redacted query reads the review); then it refuses (another user)
        let passed = try await call(
            "updateMyReviewText", #"{"movieId": "\#(movieID)", "text": "Better."}"#, token: token)
        let refused = try await call(
            "updateMyReviewText", #"{"movieId": "\#(movieID)", "text": "Mine now."}"#,
            token: ["X-Firebase-Auth-Token": Self.token(uid: "uid-other")])

        // then no entity id of the redacted or refused read is listed
        func paths(_ json: [String: Any]) -> [String] {
            let entries = (json["extensions"] as? [String: Any])?["dataConnect"] as? [[String: Any]] ?? []
            return entries.map { ($0["path"] as? [Any] ?? []).map { "\($0)" }.joined(separator: ".") }
        }
        #expect(paths(passed) == ["review_update"], "\(passed)")
        #expect(((refused["errors"] as? [[String: Any]])?.first?["message"] as? String) == "no review of yours")
        #expect(!paths(refused).contains { $0.hasPrefix("query") }, "\(refused)")
        #expect(await emulator.stop() == 0)
    }

    // MARK: Stopping

    /// The CPU time a process has used, from `/proc/<pid>/stat`.
    static func cpuSeconds(of pid: Int32) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return 0 }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        // After the command: state is field 3, utime 14 and stime 15 (1-based, as in proc(5)).
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    @Test func aStopInterruptsARequestRunningInTheDatabase() async throws {
        // given 40,000 movies and a filter of 5,000 substring terms: minutes of SQLite work
        let emulator = try await EmulatorProcess([
            "--backend", RepositoryPaths.movies, "--no-watch", "--request-timeout", "3600", "--max-filter-terms",
            "100000",
        ])
        for chunk in 0..<8 {
            let rows = (0..<5_000).map { #"{title: "m\#(chunk)-\#($0)", releaseYear: 2000, genre: "Drama"}"# }
            let (status, _, _) = try await Self.admin(
                emulator, "mutation { movie_insertMany(data: [\(rows.joined(separator: ", "))]) }")
            try #require(status == 200)
        }
        let terms = (0..<5_000).map { #"{title: {contains: "zz\#($0)"}}"# }.joined(separator: ", ")
        let pid = emulator.processIdentifier
        let before = Self.cpuSeconds(of: pid)

        // when the request has used a second of CPU (of minutes it needs), the emulator is told to stop
        let answered = Atomic<Bool>(false)
        let request = Task {
            defer { answered.store(true, ordering: .relaxed) }
            let (status, text, _) = try await Self.admin(emulator, "{ movies(where: {_or: [\(terms)]}) { title } }")
            return (status, text)
        }
        // (no event says that SQLite is busy: the emulator's CPU time is measured again until it has grown by a
        // second; the pause between two measurements decides nothing)
        _ = await HangGuard.wait(upTo: .seconds(600), every: .milliseconds(50)) {
            answered.load(ordering: .relaxed) || Self.cpuSeconds(of: pid) - before >= 1
        }
        let running = !answered.load(ordering: .relaxed) && Self.cpuSeconds(of: pid) - before >= 1
        try #require(running, "the request ended (or the hang guard passed) before it used a second of CPU")
        let exit = await emulator.stop(signal: SIGTERM, timeout: .seconds(600))
        let (status, text) = try await request.value
        let json = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]

        // then the request is answered as cancelled by the stop, and the process exits cleanly
        #expect(status == 503 && Self.errorMessage(json).contains("stopping"), "\(text.prefix(300))")
        #expect(exit == 0)
    }

    // MARK: Cross-site requests

    @Test func aForeignPageCannotClearTheData() async throws {
        // given
        let emulator = try await EmulatorProcess([
            "--backend", RepositoryPaths.movies, "--no-watch", "--seed", RepositoryPaths.movies + "/seed_data.gql",
        ])

        // when
        let (status, _, json) = try await Self.postRaw(
            emulator, "/emulator/clear", "{}", headers: ["Origin": "http://evil.example"])

        // then
        #expect(status == 403 && Self.errorStatus(json) == "PERMISSION_DENIED", "\(json)")
        let (_, text, _) = try await Self.admin(emulator, "{ movies(limit: 1) { title } }")
        #expect(text.contains("title"), "the data is still there: \(text)")
        #expect(await emulator.stop() == 0)
    }

    // MARK: Damaged database files

    @Test(arguments: ["garbage in the middle", "empty"])
    func aDamagedDatabaseStopsStartUpAndIsKept(_ damage: String) async throws {
        // given a data directory with a few thousand rows
        let data = try TemporaryDirectory(prefix: "dataconnect-damaged")
        defer { data.remove() }
        let first = try await EmulatorProcess([
            "--backend", RepositoryPaths.movies, "--data-dir", data.path, "--no-watch",
        ])
        let rows = (0..<2_000).map {
            #"{title: "Movie \#($0) with a long enough title", releaseYear: 2000, genre: "Drama"}"#
        }
        let (status, _, _) = try await Self.admin(
            first, "mutation { movie_insertMany(data: [\(rows.joined(separator: ", "))]) }")
        #expect(status == 200)
        #expect(await first.stop() == 0)
        let file = data.path + "/dataconnect.sqlite"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(bytes.count > 100_000, "a clean stop leaves the data in the database file")
        if damage == "empty" {
            bytes = []
        } else {
            let middle = bytes.count / 2
            for index in middle..<min(bytes.count, middle + 16_384) {
                bytes[index] = UInt8(truncatingIfNeeded: index &* 7)
            }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: file))

        // when
        let result = try await ChildProcess.dataconnect(
            ["emulator", "--backend", RepositoryPaths.movies, "--data-dir", data.path, "--no-watch", "--port", "0"],
            upTo: .seconds(600))

        // then
        #expect(result.exitStatus == 1, "\(result.standardError)")
        #expect(result.standardError.contains(damage == "empty" ? "is empty (0 bytes)" : "is damaged"))
        #expect(result.standardError.contains("It was not modified"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data(bytes), "the file is left as it was")
    }
}
