import DataConnectCodegen
import Testing

/// Input objects used by variables become `Encodable` structs; recursive ones stay finite.
@Suite struct InputTests {
    @Test func dataInputEncodesOnlyPresentFields() throws {
        let operations = try generate(operations: "mutation b($data: Chef_Data!) { chef_insert(data: $data) }")
            .operations
        #expect(operations.contains("public struct Chef_Data: Encodable, Hashable, Sendable {\n"))
        #expect(operations.contains("    public var name: String?\n"))
        #expect(
            operations.contains(
                "        if let name {\n"
                    + "            try codecHelper.encode(name, forKey: .name, container: &container)\n"))
    }

    @Test func nestedInputIsStoredIndirectly() throws {
        let operations = try generate(
            operations: """
                query find($where: Chef_Filter) { chefs(where: $where) { name } }
                """
        ).operations
        let filter = try #require(declaration("public struct Chef_Filter", in: operations))
        #expect(
            filter.contains(
                """
                    public var _not: Chef_Filter? {
                        get { _notStorage.first }
                        set { _notStorage = newValue.map { [$0] } ?? [] }
                    }
                    private var _notStorage: [Chef_Filter]
                """))
        #expect(filter.contains("        self._notStorage = _not.map { [$0] } ?? []\n"))
        #expect(filter.contains("    public var _and: [Chef_Filter]?\n"))
    }
}
