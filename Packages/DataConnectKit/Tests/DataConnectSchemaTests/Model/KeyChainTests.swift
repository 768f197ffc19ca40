import DataConnectSchema
import GraphQLLanguage
import Testing

/// Keys made of references to tables keyed by references, thousands deep.
@Suite struct KeyChainTests {
    @Test func compilesAChainOfTwoThousandTablesKeyedByTheNext() throws {
        // given: T0 is keyed by a reference to T1, T1 by one to T2, ..., and T2000 by its implicit id
        let length = 2_000
        var schema = ""
        for index in 0..<length {
            schema += "type T\(index) @table(key: \"next\") { next: T\(index + 1)! }\n"
        }
        schema += "type T\(length) @table { name: String }\n"
        // when
        let model = try compileSchema(schema)
        // then: each key column follows the chain down to T2000's id
        #expect(model.tables.count == length + 1)
        let first = try #require(model.table("T0"))
        let key = "next" + String(repeating: "Next", count: length - 1) + "Id"
        #expect(first.primaryKey == [key])
        #expect(first.column(key)?.sqlName == "next" + String(repeating: "_next", count: length - 1) + "_id")
        #expect(model.table("T1999")?.primaryKey == ["nextId"])
    }
}
