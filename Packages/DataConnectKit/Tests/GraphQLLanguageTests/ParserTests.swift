import GraphQLLanguage
import Testing

private func parse(_ text: String) throws(Diagnostic) -> Document {
    try GraphQLParser.parseDocument(Source(name: "doc.graphql", text: text))
}

/// The diagnostic `text` fails to parse with, printed as `file:line:col: error: message`.
private func parseError(_ text: String) -> String? {
    do {
        _ = try parse(text)
        return nil
    } catch {
        return error.description
    }
}

private func onlyOperation(_ text: String) throws -> OperationDefinition {
    let document = try parse(text)
    return try #require(document.operations.first)
}

private func fields(_ selectionSet: SelectionSet?) -> [Field] {
    selectionSet?.selections.compactMap { if case .field(let field) = $0 { field } else { nil } } ?? []
}

@Suite struct ParserTests {
    // MARK: Operations

    @Test func parsesAnonymousShorthandQuery() throws {
        // given
        let text = "{ hero { name } }"

        // when
        let operation = try onlyOperation(text)

        // then
        #expect(operation.operation == .query)
        #expect(operation.name == nil)
        #expect(fields(operation.selectionSet).map(\.name.value) == ["hero"])
        #expect(fields(fields(operation.selectionSet).first?.selectionSet).map(\.name.value) == ["name"])
    }

    @Test func parsesNamedOperationsWithVariablesAndDirectives() throws {
        // given
        let text = """
            mutation Update($id: ID!, $input: [Input!] = [{a: 1}] @deprecated, $flag: Boolean = true) @live {
              update(id: $id) { id }
            }
            """

        // when
        let operation = try onlyOperation(text)

        // then
        #expect(operation.operation == .mutation)
        #expect(operation.name?.value == "Update")
        #expect(operation.variables.map(\.name.value) == ["id", "input", "flag"])
        #expect(operation.variables.map(\.type.description) == ["ID!", "[Input!]", "Boolean"])
        #expect(
            operation.variables[1].defaultValue
                == .list(
                    [.object([ObjectField(name: Name("a"), value: .int("1", .synthesized))], .synthesized)],
                    .synthesized))
        #expect(operation.variables[1].directives.map(\.name.value) == ["deprecated"])
        #expect(operation.variables[2].defaultValue == .boolean(true, .synthesized))
        #expect(operation.directives.map(\.name.value) == ["live"])
    }

    @Test func parsesSubscriptionsAndOperationsWithoutNames() throws {
        // given
        let text = "subscription { a } query ($v: Int) { b(v: $v) } query @d { c }"

        // when
        let operations = try parse(text).operations

        // then
        #expect(operations.map(\.operation) == [.subscription, .query, .query])
        #expect(operations.allSatisfy { $0.name == nil })
        #expect(operations[1].variables.count == 1)
        #expect(operations[2].directives.count == 1)
    }

    @Test func parsesAliasesArgumentsAndNestedSelections() throws {
        // given
        let text = "{ small: picture(size: 64, crop: true) @include(if: $big) { url } large: picture(size: 1024) }"

        // when
        let selection = fields(try onlyOperation(text).selectionSet)

        // then
        #expect(selection.map(\.responseKey) == ["small", "large"])
        #expect(selection.map(\.name.value) == ["picture", "picture"])
        #expect(selection[0].arguments.map(\.name.value) == ["size", "crop"])
        #expect(selection[0].directives.first?.argument("if")?.value == .variable(Name("big")))
        #expect(fields(selection[0].selectionSet).map(\.name.value) == ["url"])
        #expect(selection[1].selectionSet == nil)
    }

    @Test func parsesFragmentsAndInlineFragments() throws {
        // given
        let text = """
            query { node { ...Parts @defer ... on User { name } ... @include(if: true) { id } ... { id } } }
            fragment Parts on Node @frag { id }
            """

        // when
        let document = try parse(text)
        let topFields = fields(document.operations.first?.selectionSet)
        let node = try #require(topFields.first)
        let selections = try #require(node.selectionSet?.selections)

        // then
        guard case .fragmentSpread(let spread) = selections[0],
            case .inlineFragment(let typed) = selections[1],
            case .inlineFragment(let directed) = selections[2],
            case .inlineFragment(let bare) = selections[3]
        else {
            Issue.record("unexpected selections \(selections)")
            return
        }
        #expect(spread.name.value == "Parts" && spread.directives.map(\.name.value) == ["defer"])
        #expect(typed.typeCondition?.value == "User" && typed.directives.isEmpty)
        #expect(directed.typeCondition == nil && directed.directives.map(\.name.value) == ["include"])
        #expect(bare.typeCondition == nil && bare.directives.isEmpty)
        let fragment = try #require(document.fragments.first)
        #expect(fragment.name.value == "Parts" && fragment.typeCondition.value == "Node")
        #expect(fragment.directives.map(\.name.value) == ["frag"])
    }

    @Test func fieldsMayBeNamedLikeKeywords() throws {
        // given
        let text = "{ query mutation fragment on type: schema(on: on, true: false) ...onFragment }"

        // when
        let operation = try onlyOperation(text)

        // then
        #expect(operation.selectionSet.selections.count == 6)
    }

    @Test func commasAreIgnoredEverywhere() throws {
        // given
        let text = ",query Q($a: Int,,,)@d{f(a: 1,,b: [1,2,],),,g,}"

        // when
        let operation = try onlyOperation(text)

        // then
        #expect(operation.variables.count == 1)
        #expect(fields(operation.selectionSet).map(\.name.value) == ["f", "g"])
        #expect(fields(operation.selectionSet).first?.arguments.count == 2)
    }

    @Test func parsesOperationDescriptions() throws {
        // given
        let text = "\"Lists users.\"\nquery Users { users { id } }\n\"\"\"\nBlock\n\"\"\"\nmutation M { m }"

        // when
        let operations = try parse(text).operations

        // then
        #expect(operations.map(\.description?.value) == ["Lists users.", "Block"])
        #expect(operations.map { $0.description?.isBlock } == [false, true])
        #expect(operations[0].location.start.description == "1:1")
    }

    // MARK: Values

    @Test func parsesEveryKindOfValue() throws {
        // given
        let text = #"[1, -0, 1.5e3, "s", """b""", true, false, null, RED, $v, [], {}, {a: {b: [$w]}}]"#

        // when
        let value = try GraphQLParser.parseValue(Source(name: "v", text: text))

        // then
        guard case .list(let values, _) = value else {
            Issue.record("not a list: \(value)")
            return
        }
        let none = NodeLocation.synthesized
        let expected: [Value] = [
            .int("1", none), .int("-0", none), .float("1.5e3", none), .string(StringValue("s")),
            .string(StringValue("b", isBlock: true)), .boolean(true, none), .boolean(false, none), .null(none),
            .enum(Name("RED")), .variable(Name("v")), .list([], none), .object([], none),
            .object(
                [
                    ObjectField(
                        name: Name("a"),
                        value: .object([ObjectField(name: Name("b"), value: .list([.variable(Name("w"))], none))], none)
                    )
                ],
                none
            ),
        ]
        #expect(values == expected)
        if case .string(let block) = values[4] { #expect(block.isBlock) }
    }

    @Test func trueFalseAndNullAreNotEnumValues() throws {
        // given
        let text = "{ f(a: true, b: false, c: null, d: True, e: NULL) }"

        // when
        let arguments = fields(try onlyOperation(text).selectionSet).first?.arguments.map(\.value) ?? []

        // then
        let none = NodeLocation.synthesized
        #expect(
            arguments == [
                .boolean(true, none), .boolean(false, none), .null(none), .enum(Name("True")), .enum(Name("NULL")),
            ])
    }

    @Test func constantContextsRejectVariables() {
        // given
        let cases: [(String, String)] = [
            ("query ($a: Int = $b) { f }", "1:18: error: syntax error: unexpected variable \"$b\" in constant value"),
            (
                "query ($a: Int @d(x: [$b])) { f }",
                "1:23: error: syntax error: unexpected variable \"$b\" in constant value"
            ),
            (
                "type T { f(a: Int = {x: $y}): Int }",
                "1:25: error: syntax error: unexpected variable \"$y\" in constant value"
            ),
            ("scalar S @d(a: $x)", "1:16: error: syntax error: unexpected variable \"$x\" in constant value"),
        ]

        for (text, expected) in cases {
            // when
            let message = parseError(text)

            // then
            #expect(message == "doc.graphql:" + expected, "\(text)")
        }
    }

    @Test func parsesStandaloneValuesAndTypes() throws {
        // given
        let valueSource = Source(name: "value", text: " {a: [1, $x]} ")
        let typeSource = Source(name: "type", text: "[[String!]]!")

        // when
        let value = try GraphQLParser.parseValue(valueSource)
        let type = try GraphQLParser.parseType(typeSource)

        // then
        #expect(GraphQLPrinter.print(value) == "{a: [1, $x]}")
        #expect(type.description == "[[String!]]!")
        #expect(type.namedType.value == "String")
        #expect(type.isNonNull && type.isList)
    }

    @Test func standaloneEntryPointsRejectTrailingTokens() {
        // given
        let value = Source(name: "value", text: "1 2")
        let type = Source(name: "type", text: "String!!")

        // when
        var valueError: Diagnostic?
        var typeError: Diagnostic?
        do { _ = try GraphQLParser.parseValue(value) } catch { valueError = error }
        do { _ = try GraphQLParser.parseType(type) } catch { typeError = error }

        // then
        #expect(valueError?.description == "value:1:3: error: syntax error: expected <EOF>, found Int \"2\"")
        #expect(typeError?.description == "type:1:8: error: syntax error: expected <EOF>, found \"!\"")
    }

    // MARK: Type system

    @Test func parsesSchemaDefinitionsAndExtensions() throws {
        // given
        let text = """
            "The schema."
            schema @a { query: Q mutation: M subscription: S }
            extend schema @b
            extend schema { mutation: M2 }
            """

        // when
        let definitions = try parse(text).definitions

        // then
        guard case .schema(let schema) = definitions[0], case .schemaExtension(let first) = definitions[1],
            case .schemaExtension(let second) = definitions[2]
        else {
            Issue.record("unexpected definitions \(definitions)")
            return
        }
        #expect(schema.description?.value == "The schema.")
        #expect(schema.operationTypes.map(\.operation) == [.query, .mutation, .subscription])
        #expect(schema.operationTypes.map(\.type.value) == ["Q", "M", "S"])
        #expect(first.directives.map(\.name.value) == ["b"] && first.operationTypes.isEmpty)
        #expect(second.operationTypes.map(\.type.value) == ["M2"])
    }

    @Test func parsesObjectTypesWithInterfacesFieldsAndArguments() throws {
        // given
        let text = """
            \"\"\"
            A person.
            \"\"\"
            type Person implements & Node & Named @key(fields: "id") {
              "The id."
              id: ID!
              friends(first: Int = 10 @lim, "Cursor." after: String): [Person!]! @paginated
            }
            """

        // when
        let document = try parse(text)

        // then
        guard case .type(.object(let person)) = document.definitions.first else {
            Issue.record("not an object type")
            return
        }
        #expect(person.description == StringValue("A person.", isBlock: true))
        #expect(person.interfaces.map(\.value) == ["Node", "Named"])
        #expect(person.directives.map(\.name.value) == ["key"])
        #expect(person.fields.map(\.name.value) == ["id", "friends"])
        #expect(person.fields[0].description?.value == "The id.")
        #expect(person.fields[1].type.description == "[Person!]!")
        #expect(person.fields[1].arguments.map(\.name.value) == ["first", "after"])
        #expect(person.fields[1].arguments[0].defaultValue == .int("10", .synthesized))
        #expect(person.fields[1].arguments[0].directives.map(\.name.value) == ["lim"])
        #expect(person.fields[1].arguments[1].description?.value == "Cursor.")
    }

    @Test func parsesInterfacesUnionsEnumsInputsAndScalars() throws {
        // given
        let text = """
            interface Node implements Entity { id: ID! }
            union Result @u = | A | B
            enum Color { RED @deprecated "Green." GREEN BLUE }
            input Filter { name: String = "x" @d, tags: [String!] }
            scalar Date @specifiedBy(url: "https://example.com")
            """

        // when
        let definitions = try parse(text).definitions

        // then
        guard case .type(.interface(let node)) = definitions[0], case .type(.union(let result)) = definitions[1],
            case .type(.enum(let color)) = definitions[2], case .type(.inputObject(let filter)) = definitions[3],
            case .type(.scalar(let date)) = definitions[4]
        else {
            Issue.record("unexpected definitions \(definitions)")
            return
        }
        #expect(node.interfaces.map(\.value) == ["Entity"] && node.fields.count == 1)
        #expect(result.types.map(\.value) == ["A", "B"] && result.directives.count == 1)
        #expect(color.values.map(\.name.value) == ["RED", "GREEN", "BLUE"])
        #expect(color.values[1].description?.value == "Green.")
        #expect(filter.fields.map(\.name.value) == ["name", "tags"])
        #expect(filter.fields[0].defaultValue == .string(StringValue("x")))
        #expect(date.directives.first?.argument("url") != nil)
    }

    @Test func parsesTypeExtensions() throws {
        // given
        let text = """
            extend scalar S @d
            extend type T implements I
            extend type T @d
            extend type T { f: Int }
            extend interface I @d
            extend union U = A
            extend union U @d
            extend enum E { V }
            extend enum E @d
            extend input In { f: Int }
            extend input In @d
            """

        // when
        let definitions = try parse(text).definitions

        // then
        #expect(definitions.count == 11)
        #expect(definitions.allSatisfy { if case .typeExtension = $0 { true } else { false } })
        #expect(
            definitions.map { if case .typeExtension(let t) = $0 { t.name.value } else { "" } } == [
                "S", "T", "T", "T", "I", "U", "U", "E", "E", "In", "In",
            ])
    }

    @Test func rejectsEmptyExtensions() {
        // given
        let cases: [(String, String)] = [
            ("extend scalar S", "1:16: error: syntax error: unexpected <EOF>"),
            ("extend type T\ntype U", "2:1: error: syntax error: unexpected Name \"type\""),
            ("extend interface I", "1:19: error: syntax error: unexpected <EOF>"),
            ("extend union U", "1:15: error: syntax error: unexpected <EOF>"),
            ("extend enum E", "1:14: error: syntax error: unexpected <EOF>"),
            ("extend input I", "1:15: error: syntax error: unexpected <EOF>"),
            ("extend schema", "1:14: error: syntax error: unexpected <EOF>"),
            ("extend foo", "1:8: error: syntax error: unexpected Name \"foo\""),
            (
                "\"d\" extend type T @d",
                "1:1: error: syntax error: unexpected description, descriptions are not supported on extensions"
            ),
        ]

        for (text, expected) in cases {
            // when
            let message = parseError(text)

            // then
            #expect(message == "doc.graphql:" + expected, "\(text)")
        }
    }

    @Test func parsesDirectiveDefinitions() throws {
        // given
        let text = """
            "Marks a key."
            directive @key(fields: String!, resolvable: Boolean = true) repeatable on | OBJECT | INTERFACE
            directive @skip(if: Boolean!) on FIELD | FRAGMENT_SPREAD | INLINE_FRAGMENT
            """

        // when
        let definitions = try parse(text).definitions

        // then
        guard case .directive(let key) = definitions[0], case .directive(let skip) = definitions[1] else {
            Issue.record("unexpected definitions \(definitions)")
            return
        }
        #expect(key.description?.value == "Marks a key.")
        #expect(key.isRepeatable && !skip.isRepeatable)
        #expect(key.arguments.map(\.name.value) == ["fields", "resolvable"])
        #expect(key.locations == [.object, .interface])
        #expect(skip.locations == [.field, .fragmentSpread, .inlineFragment])
    }

    @Test func rejectsUnknownDirectiveLocations() {
        // given
        let text = "directive @d on FIELD | Field"

        // when
        let message = parseError(text)

        // then
        #expect(message == "doc.graphql:1:25: error: syntax error: unknown directive location \"Field\"")
    }

    @Test func rejectsReservedEnumValues() {
        // given
        let cases = ["true", "false", "null"]

        for name in cases {
            // when
            let message = parseError("enum E {\n  A\n  \(name)\n}")

            // then
            #expect(
                message
                    == "doc.graphql:3:3: error: syntax error: name \"\(name)\" is reserved "
                    + "and cannot be used for an enum value"
            )
        }
    }

    // MARK: Errors

    @Test func reportsSyntaxErrorsAtTheOffendingToken() {
        // given
        let cases: [(String, String)] = [
            ("", "1:1: error: syntax error: unexpected <EOF>"),
            ("  # only a comment\n", "2:1: error: syntax error: unexpected <EOF>"),
            ("{", "1:2: error: syntax error: expected Name, found <EOF>"),
            ("{ a(", "1:5: error: syntax error: expected Name, found <EOF>"),
            ("query {}", "1:8: error: syntax error: expected Name, found \"}\""),
            ("{ a(b) }", "1:6: error: syntax error: expected \":\", found \")\""),
            ("{ a(b: ) }", "1:8: error: syntax error: unexpected \")\""),
            ("query Q(a: Int) { f }", "1:9: error: syntax error: expected \"$\", found Name \"a\""),
            ("query Q($a) { f }", "1:11: error: syntax error: expected \":\", found \")\""),
            ("{ ...on }", "1:9: error: syntax error: expected Name, found \"}\""),
            ("fragment on on T { f }", "1:10: error: syntax error: unexpected Name \"on\""),
            ("fragment F T { f }", "1:12: error: syntax error: expected \"on\", found Name \"T\""),
            ("fragment F on T", "1:16: error: syntax error: expected \"{\", found <EOF>"),
            (
                "\"d\" fragment F on T { f }",
                "1:1: error: syntax error: unexpected description, fragments cannot have descriptions"
            ),
            ("\"d\" { f }", "1:5: error: syntax error: unexpected \"{\" after a description, expected a definition"),
            ("notAKeyword { f }", "1:1: error: syntax error: unexpected Name \"notAKeyword\""),
            ("type T {}", "1:9: error: syntax error: expected Name, found \"}\""),
            ("type T { f(): Int }", "1:12: error: syntax error: expected Name, found \")\""),
            ("type T { f: }", "1:13: error: syntax error: expected Name, found \"}\""),
            ("type T implements { f: Int }", "1:19: error: syntax error: expected Name, found \"{\""),
            ("union U = ", "1:11: error: syntax error: expected Name, found <EOF>"),
            ("schema { query Q }", "1:16: error: syntax error: expected \":\", found Name \"Q\""),
            ("schema { other: Q }", "1:10: error: syntax error: unexpected Name \"other\""),
            ("directive @d on", "1:16: error: syntax error: expected Name, found <EOF>"),
            ("directive @d(a: Int) FIELD", "1:22: error: syntax error: expected \"on\", found Name \"FIELD\""),
            ("{ f(a: [1, 2) }", "1:13: error: syntax error: unexpected \")\""),
            ("{ f(a: {b}) }", "1:10: error: syntax error: expected \":\", found \"}\""),
            ("query ($a: [Int) { f }", "1:16: error: syntax error: expected \"]\", found \")\""),
            ("{ f(a: \"x\" \"y\") }", "1:12: error: syntax error: expected Name, found String \"y\""),
            ("{ f }\n}", "2:1: error: syntax error: unexpected \"}\""),
            ("{ f @ }", "1:7: error: syntax error: expected Name, found \"}\""),
        ]

        for (text, expected) in cases {
            // when
            let message = parseError(text)

            // then
            #expect(message == "doc.graphql:" + expected, "\(text)")
        }
    }

    @Test func lexicalErrorsSurfaceThroughTheParser() {
        // given
        let text = "{\n  f(a: \"\\q\")\n}"

        // when
        let message = parseError(text)

        // then
        #expect(message == "doc.graphql:2:9: error: syntax error: invalid character escape sequence \"\\q\"")
    }

    // MARK: Locations and comments

    @Test func recordsNodeLocations() throws {
        // given
        let text = "query Q($v: [Int!]) {\n  alias: f(a: {b: 1}) @d {\n    ... on T { g }\n  }\n}"

        // when
        let operation = try onlyOperation(text)
        let field = try #require(fields(operation.selectionSet).first)
        let inline = try #require(field.selectionSet?.selections.first)
        let argument = try #require(field.arguments.first)

        // then
        #expect(operation.location.file == "doc.graphql")
        #expect(operation.location.start == GraphQLLanguage.SourceLocation(line: 1, column: 1))
        #expect(operation.name?.location.start.description == "1:7")
        #expect(operation.variables[0].location.start.description == "1:9")
        #expect(operation.variables[0].name.location.start.description == "1:9")
        #expect(operation.variables[0].type.location.start.description == "1:13")
        if case .list(let inner, _) = operation.variables[0].type {
            #expect(inner.location.start.description == "1:14")
        }
        #expect(operation.selectionSet.location.start.description == "1:21")
        #expect(field.location.start.description == "2:3")
        #expect(field.name.location.start.description == "2:10")
        #expect(argument.location.start.description == "2:12")
        #expect(argument.value.location.start.description == "2:15")
        #expect(field.directives[0].location.start.description == "2:23")
        #expect(inline.location.start.description == "3:5")
        #expect(field.location.file == "doc.graphql")
    }

    @Test func attachesLeadingCommentsToDocumentedNodes() throws {
        // given
        let text = """
            # Gets a user.
            #   Indented.
            query User(
              # The id.
              $id: ID!
            ) {
              # The user.
              user(id: $id) {
                name # trailing
                # Detached.

                email
              }
            }

            # A person.
            "Described."
            type Person {
              # The name.
              name: String
            }

            # Colors.
            enum Color { RED }

            # An interface.
            interface Node { id: ID! }
            """

        // when
        let document = try parse(text)
        let operation = try #require(document.operations.first)
        let user = try #require(fields(operation.selectionSet).first)
        let inner = fields(user.selectionSet)

        // then
        #expect(operation.leadingComments == ["Gets a user.", "  Indented."])
        #expect(operation.variables[0].leadingComments == ["The id."])
        #expect(user.leadingComments == ["The user."])
        #expect(inner.map(\.leadingComments) == [[], []])
        guard case .type(.object(let person)) = document.definitions[1],
            case .type(.enum(let color)) = document.definitions[2],
            case .type(.interface(let node)) = document.definitions[3]
        else {
            Issue.record("unexpected definitions")
            return
        }
        #expect(person.leadingComments == ["A person."])
        #expect(person.fields[0].leadingComments == ["The name."])
        #expect(color.leadingComments == ["Colors."])
        #expect(node.leadingComments == ["An interface."])
    }

    @Test func documentAccessorsListOperationsAndFragments() throws {
        // given
        let text = "fragment A on T { a } query Q { ...A } fragment B on T { b } { c }"

        // when
        let document = try parse(text)

        // then
        #expect(document.fragments.map(\.name.value) == ["A", "B"])
        #expect(document.operations.map { $0.name?.value ?? "-" } == ["Q", "-"])
    }

    @Test func equalityIgnoresLocationsAndComments() throws {
        // given
        let compact = try parse("# c\nquery Q($a:Int=1){f(x:$a)}")
        let spread = try parse("\n\n  query   Q ( $a : Int = 1 )\n{\n  f ( x : $a ) }")

        // when
        let equal = compact == spread

        // then
        #expect(equal)
        #expect(compact.hashValue == spread.hashValue)
    }
}
