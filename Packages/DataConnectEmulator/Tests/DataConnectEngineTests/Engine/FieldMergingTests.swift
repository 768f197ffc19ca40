import DataConnectSchema
import DataConnectWire
import EmulatorTesting
import Testing

@testable import DataConnectEngine

/// Fields sharing a response key answer once (§6.3.2), and operations beyond the limits never reach SQL.
@Suite(.onBothDatabases) struct FieldMergingTests {
    static let operations = """
        fragment DirectorBirth on Movie { director { birthYear } }

        query Repeated @auth(level: PUBLIC) { movies(orderBy: [{title: ASC}], limit: 1) { id id title title } }
        query MergedAcrossFragments @auth(level: PUBLIC) {
          movie(id: "a0000000000000000000000000000001") { director { name } ...DirectorBirth title }
        }
        query ConditionalSelections($withName: Boolean!) @auth(level: PUBLIC) {
          movie(id: "a0000000000000000000000000000001") {
            director @include(if: $withName) { name }
            director { birthYear }
          }
        }
        """

    /// 30 fragments, each spreading the next one twice: 2^30 selections of `title` if expanded naively.
    static let doublingChain: String = {
        var text = "query { movies(orderBy: [{title: ASC}], limit: 1) { ...F0 } }\n"
        for index in 0..<30 { text += "fragment F\(index) on Movie { ...F\(index + 1) ...F\(index + 1) }\n" }
        return text + "fragment F30 on Movie { title director { name } }\n"
    }()

    @Test func answersRepeatedFieldsOnce() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let response = backend.engine.execute(
            EngineRequest(
                kind: .connector(connector: TestBackend.connectorID, operationName: "Repeated", mutation: false)))

        // then: one key per field in the SQL and in the bytes of the answer
        let body = String(decoding: response.body, as: UTF8.self)
        let data =
            try TestDatabase.required() == .sqlite
            ? #"{"data":{"movies":[{"id":"a0000000000000000000000000000005","title":"50% Off_Sale"}]}"#
            // PostgreSQL writes the JSON it builds with spaces around the colons.
            : #"{"data":{"movies":[{"id" : "a0000000000000000000000000000005", "title" : "50% Off_Sale"}]}"#
        #expect(body.hasPrefix(data), "\(body)")
        #expect(
            (try? JSONValue(parsing: response.body))?["data"]
                == json(#"{"movies":[{"id":"a0000000000000000000000000000005","title":"50% Off_Sale"}]}"#))
        let repeated = backend.query("Repeated")
        expectGoldenSQL(repeated)
    }

    @Test func mergesSubSelectionsFromFragments() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("MergedAcrossFragments")

        // then
        expectGoldenSQL(result)
        #expect(
            result.data
                == json(#"{"movie": {"director": {"name": "Nolan", "birthYear": 1970}, "title": "Inception"}}"#))
    }

    @Test func keepsEachSelectionsConditionsForItsSubFields() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let without = backend.query("ConditionalSelections", ["withName": false])
        let with = backend.query("ConditionalSelections", ["withName": true])

        // then: the director is always selected, its name only with the condition
        #expect(without.data == json(#"{"movie": {"director": {"birthYear": 1970}}}"#))
        #expect(with.data == json(#"{"movie": {"director": {"name": "Nolan", "birthYear": 1970}}}"#))
    }

    @Test func plansADoublingFragmentChainAsItsMergedTree() throws {
        // given
        let backend = try TestBackend("query Unused @auth(level: PUBLIC) { movies { id } }")

        // when
        let compiled = try backend.engine.adminOperation(Self.doublingChain, operationName: nil).get()
        let result = backend.admin(Self.doublingChain)

        // then: movies, title, director, name
        #expect(compiled.roots.flatMap(\.subtree).count == 4)
        #expect(result.data == json(#"{"movies": [{"title": "50% Off_Sale", "director": null}]}"#))
    }

    @Test func rejectsAnAliasBombBeforeRunningSQL() throws {
        // given: 1,000 aliases of 7 fields each
        let backend = try TestBackend("query Unused @auth(level: PUBLIC) { movies { id } }")
        let aliases = (1...1_000).map { "m\($0): movies { ...Bits }" }.joined(separator: " ")
        let text = "query { \(aliases) }\nfragment Bits on Movie { id title tags director { id name } }"

        // when
        let result = backend.admin(text)

        // then
        #expect(result.status == .invalidArgument)
        #expect(
            result.requestErrorMessage?.hasSuffix(
                "error: the operation selects more than 5000 fields (limit maxSelectedFields = 5000)") == true)
        #expect(result.sql.isEmpty)
    }

    @Test func appliesTheEngineLimitsToConnectorOperations() throws {
        // given: an engine allowing one alias
        let backend = try TestBackend(
            """
            query TwoAliases @auth(level: PUBLIC) { a: movies { id } b: movies { id } }
            query OneAlias @auth(level: PUBLIC) { a: movies { id } }
            """)
        let engine = Engine(
            service: backend.service, database: backend.store.access, dialect: backend.store.dialect,
            limits: OperationLimits(maxAliases: 1))

        // when
        let rejected = engine.execute(
            EngineRequest(
                kind: .connector(connector: TestBackend.connectorID, operationName: "TwoAliases", mutation: false)))
        let accepted = engine.execute(
            EngineRequest(
                kind: .connector(connector: TestBackend.connectorID, operationName: "OneAlias", mutation: false)))

        // then
        #expect(
            engine.issues[TestBackend.connectorID]?["TwoAliases"]
                == "the operation uses more than 1 aliases (limit maxAliases = 1)")
        #expect(rejected.status == .failedPrecondition)
        #expect(accepted.status == .ok)
    }

    @Test func rejectsSelectionsWhoseConditionsCannotBeCombined() throws {
        // given
        let backend = try TestBackend("query Unused @auth(level: PUBLIC) { movies { id } }")

        // when
        let result = backend.admin(
            """
            query ($a: Boolean!, $b: Boolean!) {
              movies { title @include(if: $a) title @include(if: $b) }
            }
            """, ["a": true, "b": false])

        // then
        #expect(result.status == .invalidArgument)
        #expect(
            result.requestErrorMessage
                == #""title" is selected under @include(if: $a) and under @include(if: $b); the emulator merges a field's selections only when one's @skip/@include conditions hold whenever another's do: give them different aliases"#
        )
    }
}
