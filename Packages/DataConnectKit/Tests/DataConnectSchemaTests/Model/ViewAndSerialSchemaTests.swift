import DataConnectSchema
import GraphQLLanguage
import Testing

/// `@view` types, auto-numbered columns and `@default(sql:)` in the schema compiler and the generated API.
@Suite struct ViewAndSerialSchemaTests {
    static let ledger = """
        type Account @table(key: "number") { number: Int! @col(dataType: "serial"), owner: String! }
        type Balance @view(sql: "SELECT 1 AS total") { account: Account @unique, total: Float }
        type Legacy @view(name: "legacy_totals", singular: "legacyRow", plural: "legacyRows") { total: Float }
        """

    @Test func aViewIsATypeWithoutKeyWhoseReferencesWork() throws {
        // when
        let model = try compileSchema(Self.ledger)
        let balance = try #require(model.table("Balance"))
        let legacy = try #require(model.table("Legacy"))

        // then
        #expect(balance.view == .sql("SELECT 1 AS total"))
        #expect(balance.primaryKey.isEmpty)
        #expect(balance.columns.map(\.name) == ["accountNumber", "total"])
        #expect(balance.reference("account")?.isOneToOne == true)
        #expect(legacy.view == .name("legacy_totals"))
        #expect(legacy.sqlName == "legacy_totals")
        #expect(model.relations["Account"]?.contains { $0.name == "balance_on_account" } == true)
    }

    @Test func theAPIOfAViewIsListsFiltersAndAggregatesOnly() throws {
        // given
        let api = GeneratedAPI(model: try compileSchema(Self.ledger))
        let sdl = api.sdl()

        // then
        #expect(api.role(of: "balances", on: "Query") == .list(table: "Balance"))
        #expect(api.role(of: "legacyRows", on: "Query") == .list(table: "Legacy"))
        #expect(api.role(of: "balance", on: "Query") == nil)
        #expect(api.role(of: "balance_insert", on: "Mutation") == nil)
        #expect(api.role(of: "_id", on: "Balance") == nil)
        #expect(api.role(of: "total_sum", on: "Balance") != nil)
        #expect(sdl.contains("type Balance @view(sql: \"SELECT 1 AS total\""))
        #expect(!sdl.contains("Balance_Data"))
        #expect(sdl.contains("input Balance_Filter"))
    }

    @Test(arguments: [
        (
            #"type V @view(sql: "SELECT 1 AS n") { n: Int! }"#,
            #"every field of a view must be nullable: "V.n" is Int!"#
        ),
        (
            #"type V @view(sql: "SELECT 1 AS n") { n: Int }  type T @table { v: V }"#,
            #""T.v" refers to view "V": a view has no key, so nothing can reference it"#
        ),
        (#"type V @view(sql: "SELECT 1 AS n", name: "v") { n: Int }"#, "@view needs exactly one of sql: and name:"),
        (#"type V @view(sql: "  ") { n: Int }"#, "@view(sql:) may not be empty"),
        (#"type V @view(sql: "SELECT 1 AS n") @table { n: Int }"#, "a type is either a @table or a @view, not both"),
        (
            #"type V @view(sql: "SELECT 1 AS n") { n: Int @default(value: 1) }"#,
            "@default does not apply to a field of a view"
        ),
        (
            #"type T @table { n: Int! @col(dataType: "serial") @default(value: 1) }"#,
            #""T.n" is serial: the database numbers it, so it takes no @default"#
        ),
        (
            #"type T @table { n: [Int] @col(dataType: "serial") }"#,
            #"@col(dataType: "serial") applies to a single number, not a list"#
        ),
        (#"type T @table { n: String @default(sql: " ") }"#, "@default(sql:) may not be empty"),
    ])
    func refusesWithAMessage(_ schema: String, _ message: String) {
        // when
        let errors = schemaErrors(schema)

        // then
        #expect(errors.contains { $0.hasSuffix("error: " + message) }, "\(errors)")
    }

    @Test func anySQLDefaultIsKeptAsWritten() throws {
        // when
        let model = try compileSchema(#"type T @table { digest: String @default(sql: "md5(random()::text)") }"#)

        // then
        #expect(model.table("T")?.column("digest")?.defaultValue == .sql("md5(random()::text)"))
    }

    @Test func serialTypesAreRecognised() throws {
        // when
        let model = try compileSchema(
            #"type T @table(key: "n") { n: Int! @col(dataType: "SERIAL"), big: Int64 @col(dataType: "bigserial"), plain: Int @col(dataType: "int4") }"#
        )
        let table = try #require(model.table("T"))

        // then
        #expect(table.column("n")?.isSerial == true)
        #expect(table.column("big")?.isSerial == true)
        #expect(table.column("plain")?.isSerial == false)
    }
}
