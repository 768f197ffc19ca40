import DataConnectEngine
import DataConnectSQLiteStore
import DataConnectSchema
import GraphQLLanguage
import Testing

/// The checks `dataconnect validate` and the emulator's start share: CEL where it stands, and compilation.
@Suite struct StartChecksTests {
    static let schema = """
        type Movie @table { title: String!, rating: Int, embedding: Vector @col(size: 2) }
        """

    /// The start checks' lines for one connector file `ops.gql`.
    static func lines(_ operations: String) throws -> [String] {
        let project = Project(
            directory: "", configFile: "dataconnect.yaml", config: ServiceConfig(serviceId: "s", location: "l"),
            schemaSources: [Source(name: "schema.gql", text: schema)],
            connectors: [
                ConnectorSources(
                    manifest: ConnectorManifest(connectorId: "c"), directory: "connector",
                    files: [Source(name: "ops.gql", text: operations)])
            ])
        let (compiled, diagnostics) = ServiceCompiler.compile(project: project)
        #expect(!diagnostics.containsErrors, "\(diagnostics)")
        let service = try #require(compiled)
        return StartChecks.diagnostics(for: service, dialect: SQLiteDialect()).map(\.description)
    }

    @Test func pointsAtTheOffendingCharacterInsideTheString() throws {
        let lines = try Self.lines(#"query Q @auth(expr: "auth.uid == = 'x'") { movies { title } }"#)
        #expect(lines == [#"ops.gql:1:34: error: invalid CEL in @auth(expr:): unexpected "=" (use "==" to compare)"#])
    }

    @Test func fallsBackToTheStringWhenEscapesHideThePosition() throws {
        let lines = try Self.lines(#"query Q @auth(expr: "auth.uid == \"x\" && thing") { movies { title } }"#)
        #expect(
            lines == [
                #"ops.gql:1:21: error: unknown name "thing": only auth, request, vars can be read here (in @auth(expr:))"#
            ])
    }

    @Test func allowsResponseInMutationsOnly() throws {
        let mutation = """
            mutation M @auth(level: PUBLIC) @transaction {
              a: movie_insert(data: { title: "A" })
              b: movie_insert(data: { title_expr: "string(response.a.id)" })
            }
            """
        #expect(try Self.lines(mutation).isEmpty)
        let query = #"query Q @auth(level: PUBLIC) { movies(where: { title: { eq_expr: "response.a" } }) { title } }"#
        #expect(
            try Self.lines(query) == [
                #"ops.gql:1:67: error: unknown name "response": only auth, request, vars can be read here (in "eq_expr")"#
            ])
    }

    @Test func refusesAValueThatCannotFitItsField() throws {
        let lines = try Self.lines(
            #"mutation M @auth(level: PUBLIC) { movie_insert(data: { title: "A", rating_expr: "'five'" }) }"#)
        #expect(lines == [#"ops.gql:1:81: error: "rating_expr" gives string, which cannot fit "rating" of type Int"#])
    }

    @Test func warnsAboutWhatOnlyTheEmulatorCannotRun() throws {
        let lines = try Self.lines(#"query Q @auth(level: PUBLIC) { movies { _count _id } }"#)
        #expect(lines.count == 1)
        #expect(
            lines.first?.hasPrefix("ops.gql:1:32: warning: \"_id\" cannot be selected next to aggregates") == true,
            "\(lines)")
    }

    @Test func embeddingATextCompiles() throws {
        let lines = try Self.lines(
            """
            query Q($t: String!) @auth(level: PUBLIC) {
              movies_embedding_similarity(compare_embed: {model: "textembedding-gecko@003", text: $t}) { title }
            }
            mutation M($t: String!) @auth(level: PUBLIC) {
              movie_insert(data: {title: $t, embedding_embed: {model: "textembedding-gecko@003", text: $t}})
            }
            """)
        #expect(lines.isEmpty, "\(lines)")
    }

    @Test func checksAnAdminDocumentUnderItsOwnName() throws {
        let project = Project(
            directory: "", configFile: "dataconnect.yaml", config: ServiceConfig(serviceId: "s", location: "l"),
            schemaSources: [Source(name: "schema.gql", text: Self.schema)], connectors: [])
        let service = try #require(ServiceCompiler.compile(project: project).service)
        let seed = Source(
            name: "dataconnect/seed_data.gql",
            text: "mutation @transaction {\n  movie_insert(data: { title: \"A\", rating: \"five\" })\n}\n")
        let lines = StartChecks.diagnostics(forAdminDocument: seed, service: service, dialect: SQLiteDialect()).map(
            \.description)
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("dataconnect/seed_data.gql:2:44: error: ") == true, "\(lines)")
    }
}
