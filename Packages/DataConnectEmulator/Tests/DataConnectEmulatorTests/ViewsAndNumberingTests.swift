import DataConnectEngine
import DataConnectPostgreSQLStore
import DataConnectSchema
import DataConnectWire
import EmulatorTesting
import Foundation
import GraphQLLanguage
import PostgreSQLKit
import Testing

/// `Tests/Backends/ledger` over HTTP, on the test process's database: auto-numbered columns
/// (`@col(dataType: "serial")`), `@default(sql:)` expressions written as is, and a `@view(sql:)` read like a table.
@Suite(.onBothDatabases) struct ViewsAndNumberingTests {
    static let directory = Repository.root + "/Tests/Backends/ledger"

    let emulator: TestEmulator
    let client: EmulatorClient

    init() throws {
        emulator = try TestEmulator(backend: Self.directory, database: TestDatabase.required())
        client = EmulatorClient(emulator, connector: "books")
    }

    static var todayUTC: String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date())
    }

    @Test func theDatabaseNumbersSerialColumnsAnInsertLeavesOut() async throws {
        // when: three accounts without numbers, one with, then one more without; two postings
        var keys: [JSONValue?] = []
        for owner in ["ada", "ben", "cy"] {
            keys.append(try await client.mutation("OpenAccount", ["owner": .string(owner)]).data?["account_insert"])
        }
        let given = try await client.mutation("OpenAccountNumbered", ["number": 10, "owner": "dee"])
        let first = try await client.mutation("Post", ["account": 1, "amount": 5.5])
        let second = try await client.mutation("Post", ["account": 10, "amount": 2])
        let accounts = try await client.query("Accounts")
        let postings = try await client.query("Postings")

        // then: 1, 2, 3 in order; the given number is kept; the non-key bigserial counts 1, 2 (Int64 as strings);
        // the SQL defaults ran
        #expect(keys == [["number": 1], ["number": 2], ["number": 3]], "\(keys)")
        #expect(given.data?["account_insert"] == ["number": 10], "\(given)")
        #expect(first.errors.isEmpty && second.errors.isEmpty, "\(first) \(second)")
        let rows = accounts.data?["accounts"]?.arrayValue ?? []
        #expect(rows.map { $0["number"] } == [1, 2, 3, 10], "\(accounts)")
        #expect(rows.allSatisfy { $0["code"] == "ACC" }, "\(accounts)")
        #expect(rows.allSatisfy { $0["openedOn"]?.stringValue == Self.todayUTC }, "\(accounts)")
        #expect(
            postings.data?["postings"] == [
                ["sequence": "1", "amount": 5.5, "account": ["number": 1]],
                ["sequence": "2", "amount": 2.0, "account": ["number": 10]],
            ], "\(postings)")
    }

    @Test func aViewIsListedFilteredOrderedAggregatedAndReachedThroughItsReference() async throws {
        // given: ada with two postings, ben with one, cy with none
        for owner in ["ada", "ben", "cy"] { _ = try await client.mutation("OpenAccount", ["owner": .string(owner)]) }
        for (account, amount) in [(1, 10.0), (1, 2.5), (2, 4.0)] {
            let posted = try await client.mutation(
                "Post", ["account": .number(JSONNumber(account)), "amount": .number(JSONNumber(amount))])
            #expect(posted.errors.isEmpty, "\(posted)")
        }

        // when
        let balances = try await client.query("Balances", ["minimum": 1])
        let totals = try await client.query("BalanceTotals")
        let ada = try await client.query("AccountWithBalance", ["number": 1])

        // then
        #expect(
            balances.data?["balances"] == [
                ["owner": "ada", "postings": 2, "total": 12.5, "account": ["number": 1, "owner": "ada"]],
                ["owner": "ben", "postings": 1, "total": 4.0, "account": ["number": 2, "owner": "ben"]],
            ], "\(balances)")
        #expect(totals.data?["balances"] == [["_count": 3, "total_sum": 16.5]], "\(totals)")
        #expect(
            ada.data?["account"] == ["owner": "ada", "balance_on_account": ["total": 12.5, "postings": 2]], "\(ada)")
    }

    @Test func aViewHasNoLookupNoMutationsAndNoEntityID() async throws {
        // when
        let insert = try await client.admin(#"mutation { balance_insert(data: {owner: "x"}) }"#)
        let lookup = try await client.admin(#"query { balance(id: "x") { owner } }"#)
        let entityID = try await client.admin("query { balances { _id } }")

        // then: each is refused by validation, naming the field
        for (answer, field) in [(insert, "balance_insert"), (lookup, "balance"), (entityID, "_id")] {
            #expect(answer.status == 400, "\(answer)")
            #expect("\(answer.json)".contains(field), "\(answer)")
        }
    }

    @Test func aSubscriptionToAViewIsPushedWhenATableItReadsChanges() async throws {
        // given: one account, and a subscriber to the balances over the WebSocket stream
        _ = try await client.mutation("OpenAccount", ["owner": "ada"])
        let stream = try WebSocketClient(
            port: UInt16(emulator.port),
            path: "/ws/google.firebase.dataconnect.v1.ConnectorStreamService.Connect/p/locations/l/services/ledger")
        defer { stream.close() }
        stream.send([
            "requestId": "1", "subscribe": ["operationName": "Balances", "variables": ["minimum": 0]],
            "name": "projects/p/locations/l/services/ledger/connectors/books",
        ])
        let first = stream.nextResult()

        // when: a posting, a table the view reads but the query does not name
        _ = try await client.mutation("Post", ["account": 1, "amount": 7])
        let pushed = stream.nextResult()

        // then
        #expect(first?["data"]?["balances"]?[0]?["total"] == 0.0, "\(first ?? .null)")
        #expect(pushed?["data"]?["balances"]?[0]?["total"] == 7.0, "\(pushed ?? .null)")
    }

    @Test(.on(.postgreSQL))  // the PostgreSQL migrator
    func postgreSQLMigrationsReplaceAChangedViewAndDropARemovedOne() throws {
        // given: a schema of its own with a table, a row and a view
        let schema = try TestPostgreSQLSchema()
        defer { withExtendedLifetime(schema) {} }
        let connection = try PGConnection(schema.connectionString)
        func migrate(_ text: String) throws -> MigrationReport {
            let model = try #require(SchemaCompiler.compile([Source(name: "s.gql", text: text)]).model)
            return try PostgreSQLMigrator(model: model).migrate(on: connection)
        }
        let table = "type Item @table { price: Float! }"
        _ = try migrate(table + #" type Total @view(sql: "SELECT sum(price) AS total FROM item") { total: Float }"#)
        try connection.execute("INSERT INTO item (id, price) VALUES (gen_random_uuid(), 2.5)")

        // when
        let changed = try migrate(
            table + #" type Total @view(sql: "SELECT sum(price) * 2 AS total FROM item") { total: Float }"#)
        let doubled = try connection.query("SELECT total FROM total").string(row: 0, column: 0)
        let removed = try migrate(table)
        let views = try connection.query("SELECT count(*) FROM pg_views WHERE schemaname = current_schema()")

        // then
        #expect(changed.issues.isEmpty && removed.issues.isEmpty, "\(changed.issues) \(removed.issues)")
        #expect(doubled == "5")
        #expect(views.string(row: 0, column: 0) == "0")
    }

    /// Starts a scratch backend; the error's text when it does not start.
    static func startError(_ schema: String) throws -> String? {
        let directory = try TestEmulatorTests.temporaryBackend(schema: schema, operations: nil)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let database = try TestDatabase.required()
        do {
            let emulator = try TestEmulator(backend: directory, database: database)
            emulator.stop()
            return nil
        } catch {
            return error.message
        }
    }

    @Test func postgreSQLOnlySQLRunsOnPostgreSQLAndOnSQLiteNamesTheOption() throws {
        // given: a default and a view in SQL that only PostgreSQL runs
        let defaultSchema = #"type Tag @table { label: String!, digest: String @default(sql: "md5('x')") }"#
        let viewSchema = #"""
            type Tag @table { label: String! }
            type TagCount @view(sql: "SELECT count(*)::int4 AS tags FROM tag") { tags: Int }
            """#

        // when
        let defaultError = try Self.startError(defaultSchema)
        let viewError = try Self.startError(viewSchema)

        // then
        if try TestDatabase.required() == .postgreSQL {
            #expect(defaultError == nil, "\(defaultError ?? "")")
            #expect(viewError == nil, "\(viewError ?? "")")
        } else {
            #expect(defaultError?.contains("--postgres") == true, "\(defaultError ?? "started")")
            #expect(defaultError?.contains("Tag.digest") == true, "\(defaultError ?? "started")")
            #expect(viewError?.contains("--postgres") == true, "\(viewError ?? "started")")
            #expect(viewError?.contains("TagCount") == true, "\(viewError ?? "started")")
        }
    }

    @Test func aViewThatNoDatabaseRunsStopsTheStartWithItsName() throws {
        // when
        let message = try Self.startError(
            #"type Lost @view(sql: "SELECT missing FROM nowhere") { missing: String }"#)

        // then
        #expect(message?.contains("nowhere") == true, "\(message ?? "started")")
        #expect(message?.contains("Lost") == true || message?.contains("lost") == true, "\(message ?? "started")")
    }
}
