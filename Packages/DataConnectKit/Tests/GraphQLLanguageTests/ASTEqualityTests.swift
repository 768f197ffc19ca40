import GraphQLLanguage
import Testing

private let here = NodeLocation(file: "a.graphql", start: SourceLocation(line: 1, column: 1))
private let there = NodeLocation(file: "b.graphql", start: SourceLocation(line: 7, column: 3))

/// Nodes compare by content: locations and trivia never tell them apart, every other field does.
@Suite struct ASTEqualityTests {
    private static let field = Field(
        alias: Name("a", location: here), name: Name("movie", location: here),
        arguments: [Argument(name: Name("id", location: here), value: .string(StringValue("1", location: here)))],
        directives: [Directive(name: Name("include", location: here), location: here)],
        selectionSet: SelectionSet(selections: [.field(Field(name: Name("title", location: here)))], location: here),
        leadingComments: ["the movie"], location: here)

    @Test func nodesDifferingOnlyInLocationOrTriviaAreEqual() {
        // given
        var moved = Self.field
        moved.location = there
        moved.alias?.location = there
        moved.name.location = there
        moved.arguments[0].location = there
        moved.arguments[0].value = .string(StringValue("1", isBlock: true, location: there))
        moved.directives[0].location = there
        moved.selectionSet?.location = there
        moved.leadingComments = ["another comment"]

        // when / then
        #expect(moved == Self.field)
        #expect(moved.hashValue == Self.field.hashValue)
        #expect(Value.int("1", here) == Value.int("1", there))
        #expect(
            TypeReference.nonNull(.named(Name("Int", location: here)), here) == .nonNull(.named(Name("Int")), there))
    }

    @Test func nodesDifferingInAnyOtherFieldAreNot() {
        // given
        let changes: [(String, (inout Field) -> Void)] = [
            ("alias", { $0.alias = nil }),
            ("alias name", { $0.alias = Name("b") }),
            ("name", { $0.name = Name("movies") }),
            ("argument name", { $0.arguments[0].name = Name("key") }),
            ("argument value", { $0.arguments[0].value = .string(StringValue("2")) }),
            ("argument kind", { $0.arguments[0].value = .int("1", here) }),
            ("arguments", { $0.arguments = [] }),
            ("directive", { $0.directives[0].name = Name("skip") }),
            (
                "directive arguments",
                { $0.directives[0].arguments = [Argument(name: Name("if"), value: .boolean(true, here))] }
            ),
            ("selection set", { $0.selectionSet = nil }),
            ("selection", { $0.selectionSet?.selections = [.field(Field(name: Name("year")))] }),
        ]

        for (what, change) in changes {
            // when
            var changed = Self.field
            change(&changed)

            // then
            #expect(changed != Self.field, "\(what)")
        }
    }

    @Test func definitionsCompareEveryContentField() {
        // given
        let type = ObjectTypeDefinition(
            description: StringValue("A film."), name: Name("Movie"), interfaces: [Name("Node")],
            directives: [Directive(name: Name("table"))],
            fields: [FieldDefinition(name: Name("title"), type: .nonNull(.named(Name("String")), here))],
            leadingComments: ["# one"], location: here)
        var moved = type
        moved.location = there
        moved.leadingComments = []
        moved.description = StringValue("A film.", isBlock: true, location: there)
        let changes: [(String, (inout ObjectTypeDefinition) -> Void)] = [
            ("description", { $0.description = nil }),
            ("name", { $0.name = Name("Film") }),
            ("interfaces", { $0.interfaces = [] }),
            ("directives", { $0.directives = [] }),
            ("field type", { $0.fields[0].type = .named(Name("String")) }),
            ("field name", { $0.fields[0].name = Name("name") }),
        ]

        // when / then
        #expect(moved == type)
        #expect(Set([moved, type]).count == 1)
        for (what, change) in changes {
            var changed = type
            change(&changed)
            #expect(changed != type, "\(what)")
        }
    }
}
