import DataConnectSchema
import Foundation
import GraphQLLanguage
import Testing

/// The limits on merged selections: each one named when crossed, collection stopped there, and the
/// defaults roomy enough for real operations.
@Suite struct OperationLimitsTests {
    /// `aN: recipes { ...Bits }` for N in 1...count, each alias bringing the fragment's fields.
    static func aliasBomb(_ count: Int) -> String {
        let aliases = (1...count).map { "a\($0): recipes { ...Bits }" }.joined(separator: " ")
        return "{ \(aliases) }\nfragment Bits on Recipe { id title year tags chef { id name } }\n"
    }

    @Test func stopsAtTheFieldLimit() throws {
        // given: 1,000 aliases of 8 fields each
        let text = Self.aliasBomb(1_000)
        // when
        let merged = try mergeOperation(text)
        // then
        #expect(
            merged.diagnostics.map(\.message) == [
                "the operation selects more than 5000 fields (limit maxSelectedFields = 5000)"
            ])
        #expect(!merged.isComplete)
        #expect(merged.fields.count == 5_000)
    }

    @Test func stopsAtTheAliasLimit() throws {
        // given
        let text = Self.aliasBomb(20)
        // when
        let merged = try mergeOperation(text, limits: OperationLimits(maxAliases: 10))
        // then: reported at the eleventh alias
        let column = try #require(text.range(of: "a11:")).lowerBound.utf16Offset(in: text) + 1
        #expect(
            merged.diagnostics.map(\.description) == [
                "ops.gql:1:\(column): error: the operation uses more than 10 aliases (limit maxAliases = 10)"
            ])
        #expect(merged.roots.count == 10)
    }

    @Test func stopsAtTheDepthLimit() throws {
        // given: chef { recipes_on_chef { chef { ... } } } nested 40 levels
        var text = "{ chefs { name "
        for _ in 0..<20 { text += "recipes_on_chef { title chef { name " }
        text += String(repeating: "} } ", count: 20) + "} }"
        // when
        let merged = try mergeOperation(text)
        // then
        #expect(
            merged.diagnostics.map(\.message) == [
                "the operation nests fields more than 32 levels deep (limit maxDepth = 32)"
            ])
        #expect(merged.fields.map(\.depth).max() == 32)
    }

    @Test func stopsWhenMergingTakesTooMuchWork() throws {
        // given: few fields, each written many times
        let titles = String(repeating: "title ", count: 300)
        let text =
            "{ " + (1...10).map { "r\($0): recipes { ...T }" }.joined(separator: " ")
            + " }\nfragment T on Recipe { \(titles) }"
        // when
        let merged = try mergeOperation(text, limits: OperationLimits(maxCollectedSelections: 1_000))
        // then: stopped in the fourth alias, after 10 + 3 * 301 selections
        #expect(
            merged.diagnostics.map(\.message) == [
                "the operation has more than 1000 selections once its fragments are expanded (limit maxCollectedSelections = 1000)"
            ])
        #expect(merged.fields.count == 14)
    }

    @Test func admitsTheStandardIntrospectionQuery() throws {
        // given: graphql-js's getIntrospectionQuery() with its default options (type references 9 levels deep)
        var typeRef = "kind name"
        for _ in 0..<9 { typeRef = "kind name ofType { \(typeRef) }" }
        let text = """
            query IntrospectionQuery {
              __schema {
                queryType { name kind }
                mutationType { name kind }
                subscriptionType { name kind }
                types { ...FullType }
                directives { name description locations args { ...InputValue } }
              }
            }
            fragment FullType on __Type {
              kind name description
              fields(includeDeprecated: true) {
                name description args { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason
              }
              inputFields { ...InputValue }
              interfaces { ...TypeRef }
              enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
              possibleTypes { ...TypeRef }
            }
            fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue }
            fragment TypeRef on __Type { \(typeRef) }
            """
        // when
        let merged = try mergeOperation(text)
        // then
        #expect(merged.diagnostics.isEmpty)
        #expect(merged.fields.map(\.depth).max() == 15)
        #expect(merged.fields.count < 500)
    }

    @Test func admitsEveryOperationOfTheSampleBackendsAndTemplates() throws {
        // given: every .gql file of the repository's backends and templates
        var root = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        for _ in 0..<6 { root.deleteLastPathComponent() }
        var documents: [(path: String, document: Document)] = []
        for folder in ["Backend", "Tests/Backends", "Templates"] {
            let enumerator = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)
            while let path = enumerator?.nextObject() as? String {
                guard path.hasSuffix(".gql"), !path.contains("/schema/") else { continue }
                let text = try String(contentsOf: root.appendingPathComponent(folder + "/" + path), encoding: .utf8)
                documents.append((folder + "/" + path, try GraphQLParser.parseDocument(Source(name: path, text: text))))
            }
        }
        #expect(documents.count >= 8)
        // when / then: the largest (getMovieById) has 43 fields, 7 aliases and depth 4; each stays under a
        // tenth of the default size limits and an eighth of the depth limit
        let tight = OperationLimits(
            maxSelectedFields: 500, maxDepth: 4, maxAliases: 100, maxCollectedSelections: 10_000)
        for (path, document) in documents {
            let fragments = Dictionary(document.fragments.map { ($0.name.value, $0) }, uniquingKeysWith: { a, _ in a })
            for operation in document.operations {
                let merged = MergedSelection(collecting: operation.selectionSet, fragments: fragments, limits: tight)
                #expect(merged.diagnostics.isEmpty, "\(path) \(operation.name?.value ?? "")")
            }
        }
    }
}
