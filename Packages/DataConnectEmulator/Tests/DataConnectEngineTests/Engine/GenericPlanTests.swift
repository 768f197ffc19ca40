import DataConnectWire
import EmulatorTesting
import Testing

@testable import DataConnectEngine

/// A `limit` or `offset` the operation fixes is written into the statement, so that PostgreSQL can keep one
/// generic plan for a prepared read instead of planning it again on every execution: a planner cannot cost a page
/// read through an index whose size it does not know, and keeps planning for each value it is given.
@Suite(.on(.postgreSQL)) struct GenericPlanTests {
    static let schema = """
        type Entry @table @index(fields: ["score", "name"]) {
          name: String! @index
          score: Int
        }
        """
    static let operations = """
        query FirstEntries @auth(level: PUBLIC) { entries(orderBy: {name: ASC}, limit: 5) { name } }
        query EntriesScoring($score: Int!) @auth(level: PUBLIC) {
          entries(where: {score: {eq: $score}}, orderBy: {name: ASC}, limit: 5) { name }
        }
        query SomeEntries($limit: Int) @auth(level: PUBLIC) { entries(orderBy: {name: ASC}, limit: $limit) { name } }
        """

    /// A backend with 50,000 entries in 50 scores, analyzed, so that the planner reads a short page of one score
    /// through the index on (score, name), as it would for a large table.
    static func backend() throws -> TestBackend {
        let backend = try TestBackend(Self.operations, schema: Self.schema, seeded: false)
        try backend.testStore.execute(
            #"INSERT INTO "entry" (id, name, score) SELECT gen_random_uuid(), 'entry ' || g, g % 50 "#
                + "FROM generate_series(1, 50000) AS g")
        try backend.testStore.execute(#"ANALYZE "entry""#)
        return backend
    }

    /// How the server planned the statement `sql` on the connection the pool lends next (the one last given back,
    /// which ran the requests): its generic and its custom plans.
    static func plans(_ backend: TestBackend, _ sql: String) throws -> [[DatabaseValue]] {
        let quoted = "'" + sql.replacingOccurrences(of: "'", with: "''") + "'"
        return try backend.rows(
            "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement = \(quoted)")
    }

    @Test func aFixedLimitWithoutOtherParametersIsPlannedOnce() throws {
        // given
        let backend = try Self.backend()
        let first = backend.query("FirstEntries")
        let sql = try #require(first.sql.first)

        // when
        for _ in 0..<9 { _ = backend.query("FirstEntries") }

        // then: a statement without parameters has only its generic plan
        #expect(first.data?["entries"]?.arrayValue?.count == 5)
        #expect(try Self.plans(backend, sql) == [[.integer(10), .integer(0)]])
    }

    @Test func aFixedLimitBesideAVariableFilterKeepsTheGenericPlanAfterFiveCustomOnes() throws {
        // given
        let backend = try Self.backend()
        let first = backend.query("EntriesScoring", ["score": 3])
        let sql = try #require(first.sql.first)

        // when
        for n in 0..<9 { _ = backend.query("EntriesScoring", ["score": .number(JSONNumber(n))]) }

        // then: five custom plans (the server's rule before it compares), then the generic plan, kept
        #expect(first.data?["entries"]?.arrayValue?.count == 5)
        #expect(try Self.plans(backend, sql) == [[.integer(5), .integer(5)]])
    }

    @Test func aLimitFromAVariableIsPlannedForEachValue() throws {
        // given
        let backend = try Self.backend()
        let first = backend.query("SomeEntries", ["limit": 5])
        let sql = try #require(first.sql.first)

        // when
        for _ in 0..<9 { _ = backend.query("SomeEntries", ["limit": 5]) }

        // then: the server plans every execution (what a fixed limit avoids)
        #expect(first.data?["entries"]?.arrayValue?.count == 5)
        #expect(try Self.plans(backend, sql) == [[.integer(0), .integer(10)]])
    }
}
