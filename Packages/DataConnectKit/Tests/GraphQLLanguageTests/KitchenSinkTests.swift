import GraphQLLanguage
import Testing

@Suite struct KitchenSinkTests {
    @Test func executableKitchenSinkRoundTripsThroughThePrinter() throws {
        // given
        let document = try GraphQLParser.parseDocument(
            Source(name: "kitchen-sink.graphql", text: KitchenSink.executable))

        // when
        let printed = GraphQLPrinter.print(document)
        let reparsed = try GraphQLParser.parseDocument(Source(name: "printed.graphql", text: printed))

        // then
        #expect(reparsed == document)
        #expect(GraphQLPrinter.print(reparsed) == printed)
    }

    @Test func schemaKitchenSinkRoundTripsThroughThePrinter() throws {
        // given
        let document = try GraphQLParser.parseDocument(Source(name: "schema.graphql", text: KitchenSink.schema))

        // when
        let printed = GraphQLPrinter.print(document)
        let reparsed = try GraphQLParser.parseDocument(Source(name: "printed.graphql", text: printed))

        // then
        #expect(reparsed == document)
        #expect(GraphQLPrinter.print(reparsed) == printed)
    }

    @Test func executableKitchenSinkCoversEveryExecutableProduction() throws {
        // given
        let document = try GraphQLParser.parseDocument(
            Source(name: "kitchen-sink.graphql", text: KitchenSink.executable))

        // when
        var census = Census()
        census.visit(document)

        // then
        #expect(Set(document.operations.map(\.operation)) == [.query, .mutation, .subscription])
        #expect(document.operations.contains { $0.name == nil && $0.variables.isEmpty })
        #expect(document.operations.contains { $0.description != nil })
        #expect(!document.fragments.isEmpty)
        #expect(
            census.valueKinds == [
                "variable", "int", "float", "string", "block", "boolean", "null", "enum", "list", "object",
            ])
        #expect(census.sawAlias && census.sawSpread && census.sawTypedInlineFragment && census.sawUntypedInlineFragment)
        #expect(census.sawDefaultValue && census.sawVariableDirective && census.sawListType && census.sawNonNullType)
    }

    @Test func schemaKitchenSinkCoversEveryTypeSystemProduction() throws {
        // given
        let document = try GraphQLParser.parseDocument(Source(name: "schema.graphql", text: KitchenSink.schema))

        // when
        var definitionKinds: Set<String> = []
        var locations: Set<DirectiveLocation> = []
        var sawRepeatable = false
        for definition in document.definitions {
            switch definition {
            case .schema: definitionKinds.insert("schema")
            case .schemaExtension: definitionKinds.insert("extend schema")
            case .directive(let directive):
                definitionKinds.insert("directive")
                locations.formUnion(directive.locations)
                sawRepeatable = sawRepeatable || directive.isRepeatable
            case .type(let type): definitionKinds.insert(Self.kind(of: type))
            case .typeExtension(let type): definitionKinds.insert("extend " + Self.kind(of: type))
            case .operation, .fragment: definitionKinds.insert("executable")
            }
        }

        // then
        let expected: Set<String> = [
            "schema", "extend schema", "directive", "scalar", "type", "interface", "union", "enum", "input",
            "extend scalar", "extend type", "extend interface", "extend union", "extend enum", "extend input",
        ]
        #expect(definitionKinds == expected)
        #expect(locations == Set(DirectiveLocation.allCases))
        #expect(sawRepeatable)
    }

    @Test func schemaKitchenSinkPrintsInTheExpectedLayout() throws {
        // given
        let text = #"""
            "A type"
            type Foo implements Bar & Baz @onObject {
              "Described field"
              one(
                "An argument"
                argument: InputType! = {key: "value"}
              ): [Type!]
              two(a: Int = 1, b: [String] = ["x"]): Type @deprecated(reason: "no")
            }

            """
            Multi-line
              description
            """
            enum Site {
              DESKTOP
              MOBILE @onEnumValue
            }

            directive @skip(if: Boolean!) repeatable on FIELD | FRAGMENT_SPREAD
            """#

        // when
        let printed = GraphQLPrinter.print(try GraphQLParser.parseDocument(Source(name: "a.graphql", text: text)))

        // then
        #expect(printed == text)
    }

    @Test func executableKitchenSinkPrintsInTheExpectedLayout() throws {
        // given
        let text = #"""
            # Finds a node.
            query Q($id: ID! = "1", $n: Int @onVariableDefinition) @onQuery {
              # The node.
              node: find(id: $id, filter: {a: [1, 2.5, ENUM], b: null}) @include(if: true) {
                ...F
                ... on User {
                  name
                }
                ... @skip(if: false) {
                  id
                }
              }
            }

            fragment F on Node @onFragmentDefinition {
              id
            }

            {
              a
            }
            """#

        // when
        let printed = GraphQLPrinter.print(try GraphQLParser.parseDocument(Source(name: "a.graphql", text: text)))

        // then
        #expect(printed == text)
    }

    private static func kind(of type: TypeDefinition) -> String {
        switch type {
        case .scalar: "scalar"
        case .object: "type"
        case .interface: "interface"
        case .union: "union"
        case .enum: "enum"
        case .inputObject: "input"
        }
    }
}

/// Records which syntactic forms a document uses.
private struct Census {
    var valueKinds: [String] = []
    var sawAlias = false
    var sawSpread = false
    var sawTypedInlineFragment = false
    var sawUntypedInlineFragment = false
    var sawDefaultValue = false
    var sawVariableDirective = false
    var sawListType = false
    var sawNonNullType = false

    mutating func visit(_ document: Document) {
        for definition in document.definitions {
            switch definition {
            case .operation(let operation):
                for variable in operation.variables {
                    if let value = variable.defaultValue {
                        sawDefaultValue = true
                        visit(value)
                    }
                    sawVariableDirective = sawVariableDirective || !variable.directives.isEmpty
                    visit(variable.type)
                }
                visit(operation.directives)
                visit(operation.selectionSet)
            case .fragment(let fragment):
                visit(fragment.directives)
                visit(fragment.selectionSet)
            default:
                break
            }
        }
        let order = ["variable", "int", "float", "string", "block", "boolean", "null", "enum", "list", "object"]
        valueKinds = order.filter(Set(valueKinds).contains)
    }

    mutating func visit(_ type: TypeReference) {
        switch type {
        case .named: break
        case .list(let inner, _):
            sawListType = true
            visit(inner)
        case .nonNull(let inner, _):
            sawNonNullType = true
            visit(inner)
        }
    }

    mutating func visit(_ directives: [Directive]) {
        for directive in directives {
            for argument in directive.arguments { visit(argument.value) }
        }
    }

    mutating func visit(_ selectionSet: SelectionSet) {
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                sawAlias = sawAlias || field.alias != nil
                for argument in field.arguments { visit(argument.value) }
                visit(field.directives)
                if let nested = field.selectionSet { visit(nested) }
            case .fragmentSpread(let spread):
                sawSpread = true
                visit(spread.directives)
            case .inlineFragment(let fragment):
                if fragment.typeCondition == nil {
                    sawUntypedInlineFragment = true
                } else {
                    sawTypedInlineFragment = true
                }
                visit(fragment.directives)
                visit(fragment.selectionSet)
            }
        }
    }

    mutating func visit(_ value: Value) {
        switch value {
        case .variable: valueKinds.append("variable")
        case .int: valueKinds.append("int")
        case .float: valueKinds.append("float")
        case .string(let string): valueKinds.append(string.isBlock ? "block" : "string")
        case .boolean: valueKinds.append("boolean")
        case .null: valueKinds.append("null")
        case .enum: valueKinds.append("enum")
        case .list(let values, _):
            valueKinds.append("list")
            values.forEach { visit($0) }
        case .object(let fields, _):
            valueKinds.append("object")
            fields.forEach { visit($0.value) }
        }
    }
}

/// Documents that use every production of the grammar.
enum KitchenSink {
    /// Operations and fragments.
    static let executable = #"""
        # The main query.
        # It has two comment lines.
        query queryName(
          $foo: ComplexType
          $site: Site = MOBILE
          # A list of numbers.
          $list: [Int!]! = [1, -2, 0]
          $withDirective: String @onVariableDefinition
        ) @onQuery {
          whoever123is: node(id: [123, 456]) {
            id ,
            ... on User @onInlineFragment {
              field2 {
                id
                alias: field1(first: 10, after: $foo) @include(if: $foo) {
                  id
                  ...frag @onFragmentSpread
                }
              }
            }
            ... @skip(unless: $foo) {
              id
            }
            ... {
              id
            }
          }
        }

        mutation likeStory @onMutation {
          like(story: 123) @onField {
            story {
              id @onField
            }
          }
        }

        subscription StoryLikeSubscription($input: StoryLikeSubscribeInput @onVariableDefinition) @onSubscription {
          storyLikeSubscribe(input: $input) {
            story {
              likers {
                count
              }
              likeSentence {
                text
              }
            }
          }
        }

        fragment frag on Friend @onFragmentDefinition {
          foo(
            size: $size
            bar: $b
            obj: {key: "value", block: """
              block string uses \"""
            """, nested: {list: [[], [{}], [$var, ENUM_VALUE, 1.5e-3, -0.25, 6E10]]}}
            escapes: "\"\\\/\b\f\n\r\t\u00e9\uD83D\uDE00\u{1F600}"
            empty: ""
          )
        }

        {
          unnamed(truthy: true, falsy: false, nullish: null)
          query
        }

        query {
          __typename
        }

        "Finds the current user."
        query currentUser {
          me {
            id
          }
        }
        """#

    /// Type-system definitions and extensions.
    static let schema = #"""
        """This is a description of the schema as a whole."""
        schema @onSchema {
          query: QueryType
          mutation: MutationType
          subscription: SubscriptionType
        }

        """
        This is a description
        of the `Foo` type.
        """
        type Foo implements Bar & Baz & Two {
          "Description of the `one` field."
          one: Type
          """This is a description of the `two` field."""
          two(
            """This is a description of the `argument` argument."""
            argument: InputType!
          ): Type
          """This is a description of the `three` field."""
          three(argument: InputType, other: String): Int
          four(argument: String = "string"): String
          five(argument: [String] = ["string", "string"]): String
          six(argument: InputType = {key: "value"}): Type
          seven(argument: Int = null): Type
        }

        # An object type with directives.
        type AnnotatedObject @onObject(arg: "value") {
          annotatedField(arg: Type = "default" @onArgumentDefinition): Type @onField
        }

        type UndefinedType

        type LeadingAmpersand implements & Bar & Baz

        extend type Foo {
          seven(argument: [String]): Type
        }

        extend type Foo @onObject

        extend type Foo implements Two

        interface Bar {
          one: Type
          four(argument: String = "string"): String
        }

        interface AnnotatedInterface @onInterface {
          annotatedField(arg: Type @onArgumentDefinition): Type @onFieldDefinition
        }

        interface UndefinedInterface

        extend interface Bar implements Two {
          two(argument: InputType!): Type
        }

        extend interface Bar @onInterface

        interface Baz implements Bar & Two {
          one: Type
          two(argument: InputType!): Type
          four(argument: String = "string"): String
        }

        union Feed =
          | Story
          | Article
          | Advert

        union AnnotatedUnion @onUnion = A | B

        union AnnotatedUnionTwo @onUnion = | A | B

        union UndefinedUnion

        extend union Feed = Photo | Video

        extend union Feed @onUnion

        scalar CustomScalar

        scalar AnnotatedScalar @onScalar

        extend scalar CustomScalar @onScalar

        # The sites.
        enum Site {
          """This is a description of the `DESKTOP` value"""
          DESKTOP

          """This is a description of the `MOBILE` value"""
          MOBILE

          "This is a description of the `WEB` value"
          WEB
        }

        enum AnnotatedEnum @onEnum {
          ANNOTATED_VALUE @onEnumValue
          OTHER_VALUE
        }

        enum UndefinedEnum

        extend enum Site {
          VR
        }

        extend enum Site @onEnum

        input InputType {
          key: String!
          answer: Int = 42
        }

        input AnnotatedInput @onInputObject {
          annotatedField: Type @onInputFieldDefinition
        }

        input UndefinedInput

        extend input InputType {
          other: Float = 1.23e4 @onInputFieldDefinition
        }

        extend input InputType @onInputObject

        """This is a description of the `@skip` directive"""
        directive @skip(
          """This is a description of the `if` argument"""
          if: Boolean! @onArgumentDefinition
        ) on FIELD | FRAGMENT_SPREAD | INLINE_FRAGMENT

        directive @include(if: Boolean!)
          on FIELD
           | FRAGMENT_SPREAD
           | INLINE_FRAGMENT

        directive @include2(if: Boolean!) on
          | FIELD
          | FRAGMENT_SPREAD
          | INLINE_FRAGMENT

        directive @myRepeatableDir(name: String!) repeatable on
          | OBJECT
          | INTERFACE

        directive @everywhere on QUERY | MUTATION | SUBSCRIPTION | FIELD | FRAGMENT_DEFINITION | FRAGMENT_SPREAD
          | INLINE_FRAGMENT | VARIABLE_DEFINITION | SCHEMA | SCALAR | OBJECT | FIELD_DEFINITION | ARGUMENT_DEFINITION
          | INTERFACE | UNION | ENUM | ENUM_VALUE | INPUT_OBJECT | INPUT_FIELD_DEFINITION

        extend schema @onSchema

        extend schema @onSchema {
          subscription: SubscriptionType
        }
        """#
}
