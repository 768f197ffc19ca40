import EmulatorTesting
import SQLiteKit
import Testing

@testable import DataConnectEngine
@testable import DataConnectSQLiteStore

/// The per-connection setup behind string filters: case-sensitive `LIKE` and `dataconnect_regexp`.
@Suite(.on(.sqlite))  // the setup of SQLite connections
struct ConnectionSetupTests {
    @Test func preparesEveryNewConnectionEvenAtAReusedAddress() throws {
        // given: connections opened and freed until the allocator hands an address out again (as when the
        // emulator reloads and opens a new pool)
        var seen: Set<ObjectIdentifier> = []
        var reused = false
        for _ in 0..<5_000 where !reused {
            let connection = try Connection()
            reused = !seen.insert(ObjectIdentifier(connection)).inserted
            let churn = try (0..<3).map { _ in try Connection() }  // vary the allocation pattern

            // when
            try ConnectionSetup.prepare(connection)

            // then
            let rows = try connection.query("SELECT dataconnect_regexp('^a', 'abc', ''), 'A' LIKE 'a'")
            #expect(rows.first?.values == [.integer(1), .integer(0)])
            _ = churn
        }
        #expect(reused)
    }
}
