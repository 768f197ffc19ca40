import DataConnectEmulator
import DataConnectEngine
import DataConnectSQLiteStore
import DataConnectWire
import EmulatorTesting
import Foundation
import PostgreSQLKit
import Testing

/// A small bookshop backend written to a temporary folder, served by an in-process emulator on a free
/// port, with realtime settings suited to tests.
///
/// The hub's timers run on a ``ManualClock``: heartbeats and `@refresh(every:)` happen only when a test advances
/// ``clock``, and a test that expects no event proves it with ``nextIsHeartbeat(_:)`` instead of waiting.
final class RealtimeFixture {
    static let alice = "a1a1a1a1-0000-4000-8000-000000000001"
    static let bob = "b2b2b2b2-0000-4000-8000-000000000002"

    static let schema = """
        type Author @table { name: String! }
        type Book @table { title: String!, year: Int, author: Author! }
        type Note @table { text: String! }
        """

    static let queries = """
        query ListBooks @auth(level: PUBLIC) { books(orderBy: {title: ASC}) { title year author { name } } }
        query BooksBefore($year: Int!) @auth(level: PUBLIC) { books(where: {year: {lt: $year}}, orderBy: {title: ASC}) { title } }
        query BooksByAuthor($name: String!) @auth(level: PUBLIC) { books(where: {author: {name: {eq: $name}}}, orderBy: {title: ASC}) { title } }
        query ListAuthors @auth(level: PUBLIC) { authors(orderBy: {name: ASC}) { name } }
        query MyNotes @auth(level: USER) { notes(orderBy: {text: ASC}) { text } }
        query ClosedNotes @auth(level: NO_ACCESS) { notes { text } }
        query LibrarianNotes @auth(expr: "auth.token.librarian == true") { notes(orderBy: {text: ASC}) { text } }
        query PolledBooks @auth(level: PUBLIC) @refresh(every: {seconds: 1}) { books(orderBy: {title: ASC}) { title } }
        query TaggedBooks($tag: String!) @auth(level: PUBLIC)
          @refresh(onMutationExecuted: {operation: "Poke", condition: "mutation.variables.tag == request.variables.tag"}) {
          books(where: {title: {ne: $tag}}, orderBy: {title: ASC}) { title }
        }
        """

    static let mutations = """
        mutation AddBook($title: String!, $year: Int!, $authorId: UUID!) @auth(level: PUBLIC) {
          book_insert(data: {title: $title, year: $year, authorId: $authorId})
        }
        mutation AddNote($text: String!) @auth(level: PUBLIC) { note_insert(data: {text: $text}) }
        mutation Poke($tag: String!) @auth(level: PUBLIC) { note_insert(data: {text: $tag}) }
        mutation DeleteAuthor($id: UUID!) @auth(level: PUBLIC) { author_delete(id: $id) }
        """

    let directory: String
    let emulator: Emulator
    /// The PostgreSQL database served from, if any.
    let connectionString: String?
    /// The schema this fixture created (dropped with it).
    let ownSchema: TestPostgreSQLSchema?
    /// The clock of the hub's heartbeats and refreshes; time stands still until a test advances it.
    let clock = ManualClock()

    /// Writes the backend, starts the emulator and seeds two authors and three books.
    /// Creates the backend, starts an emulator on it and seeds it.
    ///
    /// - Parameters:
    ///   - postgreSQL: A PostgreSQL connection string to serve from; when `nil`, the test process's database
    ///     (its ``TestDatabaseTrait``): SQLite in memory, or a fresh PostgreSQL schema.
    ///   - seeded: Whether to insert the authors and books (an emulator sharing a seeded database does not).
    init(
        realtime: SubscriptionHub.Configuration = SubscriptionHub.Configuration(), queries: String = queries,
        postgreSQL: String? = nil, seeded: Bool = true
    ) throws {
        directory = NSTemporaryDirectory() + "realtime-\(UUID().uuidString)"
        let manager = FileManager.default
        try manager.createDirectory(atPath: directory + "/schema", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: directory + "/connector", withIntermediateDirectories: true)
        try """
        specVersion: "v1"
        serviceId: "shop"
        location: "us-central1"
        schema:
          source: "./schema"
          datasource:
            postgresql:
              database: "shop"
        connectorDirs: ["./connector"]
        """.write(toFile: directory + "/dataconnect.yaml", atomically: true, encoding: .utf8)
        try "connectorId: \"shop\"\n".write(
            toFile: directory + "/connector/connector.yaml", atomically: true, encoding: .utf8)
        try Self.schema.write(toFile: directory + "/schema/schema.gql", atomically: true, encoding: .utf8)
        try queries.write(toFile: directory + "/connector/queries.gql", atomically: true, encoding: .utf8)
        try Self.mutations.write(toFile: directory + "/connector/mutations.gql", atomically: true, encoding: .utf8)
        if postgreSQL == nil, try TestDatabase.required() == .postgreSQL {
            let schema = try TestPostgreSQLSchema()
            ownSchema = schema
            connectionString = schema.connectionString
        } else {
            ownSchema = nil
            connectionString = postgreSQL
        }
        emulator = try Emulator(
            options: Emulator.Options(
                backend: directory, port: 0, postgreSQL: connectionString, readers: 2, threads: 2, realtime: realtime,
                clock: clock))
        try emulator.start()
        guard seeded else { return }
        let seeding = emulator.executeAdmin(
            """
            mutation {
              author_insertMany(data: [{id: "\(Self.alice)", name: "Alice"}, {id: "\(Self.bob)", name: "Bob"}])
              book_insertMany(data: [
                {title: "Apples", year: 1990, authorId: "\(Self.alice)"},
                {title: "Bananas", year: 2005, authorId: "\(Self.alice)"},
                {title: "Cherries", year: 2010, authorId: "\(Self.bob)"}])
            }
            """)
        guard seeding.status == .ok else { throw TestSetupError(String(decoding: seeding.body, as: UTF8.self)) }
    }

    deinit {
        emulator.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    var hub: SubscriptionHub { emulator.responder.hub }

    func path(_ method: String) -> String {
        "/v1/projects/p/locations/l/services/shop/connectors/shop:\(method)"
    }

    /// Opens a subscription on a WebSocket of its own.
    ///
    /// - Parameters:
    ///   - operation: The query's name.
    ///   - variables: Its variables.
    ///   - token: The caller's `X-Firebase-Auth-Token`.
    ///   - requestId: The subscription's request id.
    ///   - dataEtag: The etag of the result the client already holds.
    func subscribe(
        _ operation: String, _ variables: JSONObject = [:], token: String? = nil, requestId: String = "1",
        dataEtag: String? = nil
    ) throws -> StreamSubscriber {
        try StreamSubscriber(
            port: emulator.port, operation: operation, variables: variables, token: token, requestId: requestId,
            dataEtag: dataEtag)
    }

    /// Runs a connector mutation over REST (`:executeMutation`) and returns the parsed response.
    @discardableResult
    func mutate(_ operation: String, _ variables: JSONObject = [:]) throws -> JSONValue {
        let body: JSONValue = [
            "name": "projects/p/locations/l/services/shop/connectors/shop", "operationName": .string(operation),
            "variables": .object(variables),
        ]
        let payload = body.serialized()
        let head =
            "POST \(path("executeMutation")) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(payload.count)\r\nConnection: close\r\n\r\n"
        return try rawExchange(port: emulator.port, Array(head.utf8) + payload).json
    }

    /// Changes data behind the hub's back (no notification), as another process would.
    func writeDirectly(_ sql: String) throws {
        if let connectionString {
            try PGConnection(connectionString).execute(sql)
            return
        }
        try (emulator.store as! SQLiteStore).pool.write { try $0.connection.execute(sql) }
    }

    /// Whether `client` was sent nothing since the event it read last.
    ///
    /// Waits until the hub has run every re-run asked of it (so any event it would send is on the stream), then
    /// advances the clock by one heartbeat interval: the next event on the stream must be that heartbeat's ping.
    ///
    /// Every open stream is pinged; one that is not read before the next heartbeat is closed as unresponsive.
    func nextIsHeartbeat(_ client: StreamSubscriber) async -> Bool {
        await hub.waitUntilIdle()
        clock.advance(by: hub.configuration.heartbeatInterval)
        return client.next() == .ping
    }
}

extension JSONValue {
    /// The book titles in a stream response's `data.books`.
    var titles: [String] { self["data"]?["books"]?.arrayValue?.compactMap { $0["title"]?.stringValue } ?? [] }
}
