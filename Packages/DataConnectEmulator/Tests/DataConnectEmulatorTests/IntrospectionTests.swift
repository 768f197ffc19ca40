import DataConnectWire
import EmulatorTesting
import Foundation
import GraphQLLanguage
import Testing

/// GraphQL introspection (`__schema`, `__type`, `__typename`) and `_service` over HTTP on the movies backend:
/// the standard introspection query tooling runs, checked against the SDL `_service` prints.
@Suite(.onBothDatabases) struct IntrospectionTests {
    let emulator: TestEmulator
    let client: EmulatorClient

    init() throws {
        emulator = try Backend.movies.start()
        client = EmulatorClient(emulator, connector: "movies")
    }

    /// graphql-js `getIntrospectionQuery({descriptions, specifiedByUrl, directiveIsRepeatable,
    /// schemaDescription, inputValueDeprecation})`.
    static let standardQuery = """
        query IntrospectionQuery {
          __schema {
            description
            queryType { name }
            mutationType { name }
            subscriptionType { name }
            types { ...FullType }
            directives {
              name
              description
              isRepeatable
              locations
              args(includeDeprecated: true) { ...InputValue }
            }
          }
        }
        fragment FullType on __Type {
          kind
          name
          description
          specifiedByURL
          fields(includeDeprecated: true) {
            name
            description
            args(includeDeprecated: true) { ...InputValue }
            type { ...TypeRef }
            isDeprecated
            deprecationReason
          }
          inputFields(includeDeprecated: true) { ...InputValue }
          interfaces { ...TypeRef }
          enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
          possibleTypes { ...TypeRef }
        }
        fragment InputValue on __InputValue {
          name
          description
          type { ...TypeRef }
          defaultValue
          isDeprecated
          deprecationReason
        }
        fragment TypeRef on __Type {
          kind
          name
          ofType {
            kind
            name
            ofType {
              kind
              name
              ofType {
                kind
                name
                ofType {
                  kind
                  name
                  ofType {
                    kind
                    name
                    ofType {
                      kind
                      name
                      ofType { kind name ofType { kind name } }
                    }
                  }
                }
              }
            }
          }
        }
        """

    /// A TypeRef answer printed as SDL (`[Movie!]!`).
    static func printed(_ reference: JSONValue?) -> String {
        guard let reference else { return "?" }
        switch reference["kind"]?.stringValue {
        case "NON_NULL": return printed(reference["ofType"]) + "!"
        case "LIST": return "[" + printed(reference["ofType"]) + "]"
        default: return reference["name"]?.stringValue ?? "?"
        }
    }

    /// Every named type a TypeRef answer mentions.
    static func namedTypes(_ reference: JSONValue?) -> String? {
        guard let reference else { return nil }
        if let name = reference["name"]?.stringValue { return name }
        return namedTypes(reference["ofType"])
    }

    @Test func theStandardQueryDescribesTheGeneratedAPI() async throws {
        // when
        let answer = try await client.admin(Self.standardQuery, method: "executeGraphqlRead")
        let sdl = try await client.admin("query { _service { sdl } }", method: "executeGraphqlRead")

        // then: the roots, the introspection types among the types, and every reference resolves
        let schema = expectData(answer)["__schema"]
        #expect(schema?["queryType"] == ["name": "Query"])
        #expect(schema?["mutationType"] == ["name": "Mutation"])
        #expect(schema?["subscriptionType"] == .null)
        let types = schema?["types"]?.arrayValue ?? []
        var byName: [String: JSONValue] = [:]
        for type in types { byName[type["name"]?.stringValue ?? ""] = type }
        for name in [
            "__Schema", "__Type", "__TypeKind", "__Field", "__InputValue", "__EnumValue", "__Directive",
            "__DirectiveLocation", "String", "Movie", "Query", "Mutation", "UUID",
        ] {
            #expect(byName[name] != nil, "\(name) is missing")
        }
        var referenced: Set<String> = []
        for type in types {
            for field in type["fields"]?.arrayValue ?? [] {
                if let name = Self.namedTypes(field["type"]) { referenced.insert(name) }
                for argument in field["args"]?.arrayValue ?? [] {
                    if let name = Self.namedTypes(argument["type"]) { referenced.insert(name) }
                }
            }
            for input in type["inputFields"]?.arrayValue ?? [] {
                if let name = Self.namedTypes(input["type"]) { referenced.insert(name) }
            }
        }
        #expect(referenced.subtracting(byName.keys).isEmpty, "\(referenced.subtracting(byName.keys))")
        #expect(byName["UUID"]?["specifiedByURL"] == "https://tools.ietf.org/html/rfc4122")
        #expect(byName["UUID"]?["fields"] == .null)
        let directives = schema?["directives"]?.arrayValue ?? []
        let include = directives.first { $0["name"] == "include" }
        #expect(include?["locations"] == ["FIELD", "FRAGMENT_SPREAD", "INLINE_FRAGMENT"])
        #expect(Self.printed(include?["args"]?[0]?["type"]) == "Boolean!")

        // then: the object and input types are those the SDL prints, field for field
        let document = try GraphQLParser.parseDocument(
            Source(name: "sdl", text: expectData(sdl)["_service"]?["sdl"]?.stringValue ?? ""))
        var compared = 0
        for case .type(let definition) in document.definitions {
            let answered = byName[definition.name.value]
            #expect(answered != nil, "\(definition.name.value) is missing")
            switch definition {
            case .object(let object):
                let fields = (answered?["fields"]?.arrayValue ?? []).map {
                    "\($0["name"]?.stringValue ?? ""): \(Self.printed($0["type"]))"
                }
                #expect(fields == object.fields.map { "\($0.name.value): \($0.type)" }, "\(object.name.value)")
                #expect(answered?["kind"] == "OBJECT")
                compared += 1
            case .inputObject(let input):
                let fields = (answered?["inputFields"]?.arrayValue ?? []).map {
                    "\($0["name"]?.stringValue ?? ""): \(Self.printed($0["type"]))"
                        + ($0["defaultValue"]?.stringValue.map { " = \($0)" } ?? "")
                }
                let expected = input.fields.map {
                    "\($0.name.value): \($0.type)"
                        + ($0.defaultValue.map { " = \(GraphQLPrinter.print($0))" } ?? "")
                }
                #expect(fields == expected, "\(input.name.value)")
                compared += 1
            case .enum(let enumeration):
                let values = (answered?["enumValues"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
                #expect(values == enumeration.values.map(\.name.value), "\(enumeration.name.value)")
            default:
                break
            }
        }
        #expect(compared > 20)
        // then: default values are GraphQL value text that parses
        let movieFilterDefaults = (byName["Movie_ListFilter"]?["inputFields"]?.arrayValue ?? []).compactMap {
            $0["defaultValue"]?.stringValue
        }
        #expect(movieFilterDefaults == ["{gt: 0}"])
        #expect((try? GraphQLParser.parseValue(Source(name: "default", text: "{gt: 0}"))) != nil)
    }

    @Test func typeAnswersOneTypeOrNull() async throws {
        // when
        let result = try await client.admin(
            """
            query {
              movie: __type(name: "Movie") { kind name fields { name } }
              nope: __type(name: "Nope") { name }
              order: __type(name: "OrderDirection") { enumValues { name } }
            }
            """)

        // then
        let data = expectData(result)
        #expect(data["movie"]?["kind"] == "OBJECT")
        #expect(strings(column(data["movie"]?["fields"], "name")).prefix(3) == ["id", "title", "releaseYear"])
        #expect(data["nope"] == .null)
        #expect(column(data["order"]?["enumValues"], "name") == ["ASC", "DESC"])
    }

    @Test func typenameOnRootAndNestedObjects() async throws {
        // when
        let result = try await client.admin(
            """
            query {
              __typename
              movies(limit: 1, orderBy: [{title: ASC}]) { __typename title }
              __schema { __typename queryType { __typename name } }
            }
            """)

        // then
        #expect(
            expectData(result) == [
                "__typename": "Query",
                "movies": [["__typename": "Movie", "title": "Alien"]],
                "__schema": ["__typename": "__Schema", "queryType": ["__typename": "__Type", "name": "Query"]],
            ])
    }

    @Test func introspectionRunsInsideAConnectorOperation() async throws {
        // given: the native SQL fixture's connector, whose operation selects __type
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/nativesql").path
        let native = try TestEmulator(backend: directory, seedFile: directory + "/seed_data.gql")
        let nativeClient = EmulatorClient(native, connector: "native")

        // when
        let result = try await nativeClient.query("WithIntrospection")

        // then
        #expect(
            expectData(result) == [
                "__type": ["name": "Movie", "kind": "OBJECT"], "movies": [["__typename": "Movie"]],
            ])
    }

    @Test func serviceAnswersTheSchemaAndTheSDL() async throws {
        // when
        let result = try await client.admin(
            """
            query {
              _service {
                all: sdl
                mine: sdl(omitBuiltin: true, omitDescription: true)
                schema
                schemas { id source }
                docs { page }
              }
            }
            """, method: "executeGraphqlRead")

        // then
        let service = expectData(result)["_service"]
        let all = service?["all"]?.stringValue ?? ""
        let mine = service?["mine"]?.stringValue ?? ""
        #expect(all.contains("scalar UUID"))
        #expect(!mine.contains("scalar UUID"))
        #expect(mine.contains("type Movie"))
        #expect(!mine.contains("\"\"\"") && !mine.contains("\"Lists"))
        #expect(service?["schema"]?.stringValue?.contains("type Movie @table") == true)
        #expect(service?["schemas"] == [["id": "main", "source": service?["schema"] ?? .null]])
        #expect(service?["docs"] == [])
    }

    @Test(arguments: [
        ("query { __schema { types { nam } } }", "nam"),
        ("query { __schema { types { name }", "expected Name"),
        ("query { __type { name } }", "name"),
    ])
    func aBadIntrospectionQueryIsA400WithItsLocation(document: String, fragment: String) async throws {
        // when
        let result = try await client.admin(document, method: "executeGraphqlRead")

        // then
        expectRequestError(result, 400, "INVALID_ARGUMENT", messageContains: [fragment, "request:1:"])
    }
}
