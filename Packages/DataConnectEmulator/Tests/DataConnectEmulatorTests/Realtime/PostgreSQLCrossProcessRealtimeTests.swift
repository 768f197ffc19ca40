import DataConnectEmulator
import DataConnectWire
import EmulatorTesting
import Foundation
import PostgreSQLKit
import Testing

/// Emulators serving from one PostgreSQL database, as processes behind a load balancer do: a change committed
/// through one reaches the realtime subscribers of another (`LISTEN`/`NOTIFY`).
@Suite(.on(.postgreSQL))  // LISTEN/NOTIFY between emulators on one PostgreSQL database
struct PostgreSQLCrossProcessRealtimeTests {
    /// Two emulators on one fresh schema; the first seeds it. The schema is dropped when released: keep it.
    static func pair() throws -> (schema: TestPostgreSQLSchema, writer: RealtimeFixture, reader: RealtimeFixture) {
        let schema = try TestPostgreSQLSchema()
        let writer = try RealtimeFixture(postgreSQL: schema.connectionString)
        let reader = try RealtimeFixture(postgreSQL: schema.connectionString, seeded: false)
        return (schema, writer, reader)
    }

    @Test func aMutationThroughOneEmulatorReachesSubscribersOfAnother() throws {
        // given: a subscriber of the second emulator
        let (schema, writer, reader) = try Self.pair()
        defer { withExtendedLifetime(schema) {} }
        let client = try reader.subscribe("ListBooks")
        #expect(client.nextData()?.titles == ["Apples", "Bananas", "Cherries"])

        // when: a mutation through the first
        try writer.mutate("AddBook", ["title": "Figs", "year": 2021, "authorId": .string(RealtimeFixture.alice)])

        // then
        #expect(client.nextData()?.titles == ["Apples", "Bananas", "Cherries", "Figs"])
        if ProcessInfo.processInfo.environment["DATACONNECT_STREAM_TRANSCRIPT"] != nil {
            print("subscriber of \(reader.emulator.url), mutation through \(writer.emulator.url):")
            print(client.client.transcript.joined(separator: "\n"))
        }
    }

    @Test func refreshOnAMutationOfAnotherEmulatorSeesItsVariables() throws {
        // given: a subscriber refreshed by `Poke` with its tag, and a row changed behind the emulators' backs
        let (schema, writer, reader) = try Self.pair()
        defer { withExtendedLifetime(schema) {} }
        let client = try reader.subscribe("TaggedBooks", ["tag": "red"])
        #expect(client.nextData()?.titles == ["Apples", "Bananas", "Cherries"])
        let direct = try PGConnection(schema.connectionString)
        try direct.execute(#"UPDATE "book" SET "title" = 'Avocados' WHERE "title" = 'Apples'"#)

        // when: the other emulator runs the named mutation with the subscriber's tag (it writes only notes)
        try writer.mutate("Poke", ["tag": "red"])

        // then: the condition held on the mutation's variables, so the query re-ran
        #expect(client.nextData()?.titles == ["Avocados", "Bananas", "Cherries"])
    }

    @Test func clearingThroughOneEmulatorReachesSubscribersOfAnother() throws {
        // given
        let (schema, writer, reader) = try Self.pair()
        defer { withExtendedLifetime(schema) {} }
        let client = try reader.subscribe("ListAuthors")
        _ = try #require(client.nextData())

        // when
        try writer.emulator.clear()

        // then
        #expect(client.nextData()?["data"]?["authors"] == .array([]))
    }
}
