import DataConnectWire
import Dispatch
import EmulatorTesting
import Synchronization
import Testing

@testable import DataConnectEngine
@testable import DataConnectPostgreSQLStore

/// Changes between processes on one PostgreSQL database: batches of notifications, each process skipping its own.
@Suite struct PostgreSQLChangeFeedTests {
    static func insert(_ title: String) -> DataChange {
        .mutation(
            MutationEffect(
                connector: "c", operationName: "AddBook", variables: ["title": .string(title)], auth: nil,
                tables: ["Book"]))
    }

    static func title(_ change: DataChange) -> String? {
        guard case .mutation(let effect) = change else { return nil }
        return effect.variables["title"]?.stringValue
    }

    @Test func cutsABatchWhereAPayloadRepeats() {
        // PostgreSQL delivers the same payload on one channel once per transaction.
        #expect(PostgreSQLChangeFeed.batches([]) == [])
        #expect(PostgreSQLChangeFeed.batches(["a", "b", "c"]) == [["a", "b", "c"]])
        #expect(PostgreSQLChangeFeed.batches(["a", "b", "a", "c", "a"]) == [["a", "b"], ["a", "c"], ["a"]])
    }

    @Test func skipsItsOwnPayloadsAndReadsTheOthers() throws {
        // given
        let own = PostgreSQLChangeFeed(connectionString: "", schema: "public")
        let other = PostgreSQLChangeFeed(connectionString: "", schema: "public")
        let change = Self.insert("Figs")

        // when
        let payload = own.payload(change)

        // then: the payload opens with the origin, which the sender skips without parsing the rest
        #expect(payload.hasPrefix(#"{"origin":"\#(own.origin)","#))
        #expect(own.change(from: payload) == nil)
        #expect(try Self.title(#require(other.change(from: payload))) == "Figs")
        #expect(other.change(from: "not JSON") == nil)
    }

    @Test(.on(.postgreSQL)) func aBurstOfChangesArrivesWholeAndInOrder() throws {
        // given: a listening feed, and another one on the same schema
        let schema = try TestPostgreSQLSchema()
        let listener = PostgreSQLChangeFeed(connectionString: schema.connectionString, schema: schema.name)
        let sender = PostgreSQLChangeFeed(connectionString: schema.connectionString, schema: schema.name)
        defer { listener.stop() }
        let received = Mutex<[String]>([])
        let all = DispatchSemaphore(value: 0)
        let titles = (0..<200).map { "Book \($0 % 150)" }
        listener.start { change in
            let count = received.withLock { list in
                list.append(Self.title(change) ?? "?")
                return list.count
            }
            if count == titles.count { all.signal() }
        }

        // when: more changes at once than one notification round trip takes, some of them the same
        for title in titles { sender.send(Self.insert(title)) }

        // then: every one, repeats included, in the order sent
        #expect(all.wait(timeout: .now() + .seconds(20)) == .success)
        #expect(received.withLock { $0 } == titles)
    }
}
