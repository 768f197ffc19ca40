import DataConnectWire
import EmulatorTesting
import SQLiteKit
import Testing

@testable import DataConnectEngine

/// Requests the database refuses or that run too long get a clear request-level answer, never INTERNAL, and
/// nothing the caller may not read (entity ids under `@check` refusals and `@redact`) reaches the response.
@Suite(.onBothDatabases) struct RequestBoundsTests {
    static let operations = """
        query Refused @auth(level: PUBLIC) {
          movies @check(expr: "false", message: "refused") { id title }
        }
        query HiddenDirector @auth(level: PUBLIC) {
          movies(orderBy: {title: ASC}) { title director @redact { name } }
        }
        query HiddenMovies @auth(level: PUBLIC) {
          movies @redact { id }
          people(orderBy: {name: ASC}) { name }
        }
        mutation AddWithHiddenQuery($title: String!) @auth(level: PUBLIC) {
          movie_insert(data: {title: $title})
          query @redact { movies { id } }
        }
        """

    // MARK: Leaks

    @Test func aRefusedCheckListsNoEntityIDs() throws {
        // given
        let backend = try TestBackend(Self.operations, clientCache: true)

        // when
        let result = backend.query("Refused")

        // then
        #expect(result.data == .null)
        #expect(result.errorSummaries == [" PERMISSION_DENIED refused"])
        #expect(result.dataConnect.isEmpty, "\(result.body)")
    }

    @Test func redactedFieldsListNoEntityIDs() throws {
        // given
        let backend = try TestBackend(Self.operations, clientCache: true)

        // when
        let nested = backend.query("HiddenDirector")
        let root = backend.query("HiddenMovies")

        // then the movies' own ids are listed, their directors' are not
        let nestedPaths = nested.dataConnect.map { $0["path"]?.jsonString() ?? "" }
        #expect(nestedPaths.contains(#"["movies"]"#), "\(nested.body)")
        #expect(!nestedPaths.contains { $0.contains("director") }, "\(nested.body)")
        // and a redacted root field lists nothing, while its sibling does
        let rootPaths = root.dataConnect.map { $0["path"]?.jsonString() ?? "" }
        #expect(rootPaths == [#"["people"]"#], "\(root.body)")
        #expect(root.data?["movies"] == nil)
    }

    @Test func aRedactedMutationQueryListsNoEntityIDs() throws {
        // given
        let backend = try TestBackend(Self.operations, clientCache: true)

        // when
        let result = backend.mutation("AddWithHiddenQuery", ["title": "Hidden"])

        // then only the insert's own id is listed
        #expect(result.errors.isEmpty, "\(result.body)")
        #expect(result.dataConnect.map { $0["path"]?.jsonString() ?? "" } == [#"["movie_insert"]"#])
    }

    // MARK: Shapes the database refuses or used to refuse

    @Test func aSelectionWiderThanOneJSONObjectCallIsAnswered() throws {
        // given 70 fields, more than one json_object call takes
        let backend = try TestBackend(Self.operations)
        let fields = (1...70).map { "f\($0): title" }.joined(separator: " ")

        // when
        let result = backend.admin(#"{ movies(where: {title: {eq: "Barbie"}}) { \#(fields) } }"#)

        // then
        #expect(result.status == .ok, "\(result.body)")
        let movie = result.data?["movies"]?.arrayValue?.first?.objectValue
        #expect(movie?.count == 70)
        #expect(movie?["f1"] == "Barbie")
        #expect(movie?["f70"] == "Barbie")
        #expect(Array(movie?.keys ?? []).prefix(3) == ["f1", "f2", "f3"], "keys keep their order")
    }

    @Test func aHugeOrIsAnsweredWhenTheLimitAllowsIt() throws {
        // given 10,000 alternatives: a chain SQLite would refuse as deeper than 1,000
        let backend = try TestBackend(
            Self.operations, executionLimits: ExecutionLimits(maximumFilterTerms: 30_000))
        let terms = (0..<10_000).map { #"{title: {eq: "t\#($0)"}}"# }.joined(separator: ", ")

        // when
        let result = backend.admin(#"{ movies(where: {_or: [\#(terms), {title: {eq: "Barbie"}}]}) { title } }"#)

        // then
        #expect(result.status == .ok, "\(result.requestErrorMessage ?? "")")
        #expect(result.data?["movies"] == [["title": "Barbie"]])
    }

    @Test func filtersOverTheTermLimitAreRefusedNamingIt() throws {
        // given
        let backend = try TestBackend(Self.operations, executionLimits: ExecutionLimits(maximumFilterTerms: 100))
        let terms = (0..<101).map { #"{title: {eq: "t\#($0)"}}"# }.joined(separator: ", ")

        // when
        let result = backend.admin(#"{ movies(where: {_or: [\#(terms)]}) { title } }"#)

        // then
        #expect(result.status == .invalidArgument)
        #expect(result.requestErrorMessage?.contains("more than 100 terms (limit maxFilterTerms = 100)") == true)
    }

    // SQLite's parser has a small fixed stack that deep NOTs overflow; PostgreSQL's has none.
    @Test(.on(.sqlite))
    func aNotNestedDeeperThanTheDatabaseParsesIsA400() throws {
        // given
        let backend = try TestBackend(Self.operations)
        var filter = #"{title: {eq: "Barbie"}}"#
        for _ in 0..<50 { filter = "{_not: \(filter)}" }

        // when
        let result = backend.admin("{ movies(where: \(filter)) { title } }")

        // then
        #expect(result.status == .invalidArgument, "\(result.body)")
        #expect(result.requestErrorMessage?.contains("too deeply nested for the database") == true)
    }

    @Test func relationsNestedDeeperThanTheDatabaseParsesAreA400() throws {
        // given
        let backend = try TestBackend(Self.operations)
        var selection = "name"
        for _ in 0..<4 { selection = "movies_on_director { director { \(selection) } }" }

        // when
        let result = backend.admin("{ people { \(selection) } }")

        // then: answered, or refused as too deep; never an internal error
        #expect(result.status == .ok || result.status == .invalidArgument, "\(result.body)")
        if result.status == .invalidArgument {
            #expect(result.requestErrorMessage?.contains("SQLite") == true)
        }
    }

    @Test func anInvalidRegularExpressionIsTheCallersError() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.admin(#"{ movies(where: {title: {pattern: {regex: "("}}}) { title } }"#)

        // then
        #expect(result.errorSummaries == [#" INVALID_ARGUMENT invalid regular expression "(" (POSIX extended syntax)"#])
    }

    // MARK: Time

    @Test func aRequestPastItsTimeLimitIsStoppedWithDeadlineExceeded() throws {
        // given a time limit that has always passed by the first check
        let backend = try TestBackend(Self.operations, executionLimits: ExecutionLimits(requestTimeout: .zero))
        let rows = (0..<300).map { #"{title: "m\#($0)"}"# }.joined(separator: ", ")
        let terms = (0..<300).map { #"{title: {eq: "t\#($0)"}}"# }.joined(separator: ", ")

        // when
        let insert = backend.admin("mutation { movie_insertMany(data: [\(rows)]) }")
        let read = backend.admin("{ movies(where: {_or: [\(terms)]}) { title } }")

        // then both are stopped as a whole, naming the limit, and nothing was written
        #expect(insert.status == .deadlineExceeded, "\(insert.body)")
        #expect(insert.requestErrorMessage?.contains("limit requestTimeout") == true)
        #expect(read.status == .deadlineExceeded, "\(read.body)")
        #expect(try backend.rows("SELECT count(*) FROM movie") == [[.integer(5)]])
    }

    @Test func aClosingDatabaseStopsRequests() throws {
        // given
        let backend = try TestBackend(Self.operations)
        let rows = (0..<300).map { #"{title: "m\#($0)"}"# }.joined(separator: ", ")
        try backend.admin("mutation { movie_insertMany(data: [\(rows)]) }").requireOK()

        // when
        backend.store.beginClosing()
        let read = backend.admin("{ movies { title director { name } } }")

        // then
        #expect(read.status == .unavailable, "\(read.body)")
        #expect(read.requestErrorMessage?.contains("stopping") == true)
    }
}

extension EngineResult {
    /// Fails the test unless the request succeeded without errors.
    func requireOK(sourceLocation: SourceLocation = #_sourceLocation) throws {
        try #require(status == .ok && errors.isEmpty, "\(body)", sourceLocation: sourceLocation)
    }
}
