import GraphQLLanguage
import Testing

private func parse(_ text: String) throws(Diagnostic) -> Document {
    try GraphQLParser.parseDocument(Source(name: "doc.graphql", text: text))
}

/// A scalar type whose description is `value`, written as a block string or not.
private func describedScalar(_ value: String, isBlock: Bool) -> Document {
    Document(definitions: [
        .type(.scalar(ScalarTypeDefinition(description: StringValue(value, isBlock: isBlock), name: Name("S"))))
    ])
}

/// A query passing `value` as a string argument inside a nested selection.
private func queryWithStringArgument(_ value: String, isBlock: Bool) -> Document {
    let inner = Field(
        name: Name("f"), arguments: [Argument(name: Name("s"), value: .string(StringValue(value, isBlock: isBlock)))])
    let outer = Field(name: Name("o"), selectionSet: SelectionSet(selections: [.field(inner)]))
    return Document(definitions: [
        .operation(
            OperationDefinition(
                operation: .query, name: Name("Q"), selectionSet: SelectionSet(selections: [.field(outer)])))
    ])
}

/// Strings that stress quoting: blank edge lines, indentation, quotes, backslashes, controls, `\r`.
private let trickyStrings = [
    "", " ", "plain", "  leading", "trailing  ", "a\nb", "\nleading newline", "trailing newline\n", "\n", "\n\n",
    "  indented\n  block", "first\n  indented", "a\n\n\nb", "a\n \nb", "tab\tinside", "\tleading tab\nx",
    "quote\"", "\"quoted\"", "triple \"\"\" quotes", "\"\"\"", "ends with triple\"\"\"", "\"\"\"\"", "back\\slash",
    "ends with backslash\\", "\\\"\"\"", "cr\rinside", "crlf\r\nline", "bell\u{7} and nul\u{0}", "del\u{7F} c1\u{85}",
    "emoji 😀 é", String(repeating: "long ", count: 30), "a\n  b\n c", "  \n  x\n  ", "x\n  ", "line\u{2028}sep",
]

@Suite struct PrinterTests {
    // MARK: Executable documents

    @Test func printsShorthandQueryWithoutKeyword() throws {
        // given
        let document = try parse("query { a b { c } }")

        // when
        let printed = GraphQLPrinter.print(document)

        // then
        #expect(printed == "{\n  a\n  b {\n    c\n  }\n}")
    }

    @Test func keepsKeywordWhenTheQueryNeedsIt() throws {
        // given
        let document = try parse("query ($a: Int) { a } query @d { b } mutation { c } \"Doc\" query { d }")

        // when
        let printed = GraphQLPrinter.print(document)

        // then
        #expect(
            printed
                == "query ($a: Int) {\n  a\n}\n\nquery @d {\n  b\n}\n\nmutation {\n  c\n}\n\n\"Doc\"\nquery {\n  d\n}")
    }

    @Test func printsSelectionSetsAtAnIndentationLevel() throws {
        // given
        let operation = try #require(try parse("{ a { b ...F ... on T @d { c } } }").operations.first)

        // when
        let printed = GraphQLPrinter.print(operation.selectionSet, indent: 2)

        // then
        #expect(
            printed
                == "{\n      a {\n        b\n        ...F\n"
                + "        ... on T @d {\n          c\n        }\n      }\n    }"
        )
    }

    @Test func printsSingleDefinitions() throws {
        // given
        let document = try parse("fragment F on T @a(b: [1]) { x }")

        // when
        let printed = GraphQLPrinter.print(try #require(document.definitions.first))

        // then
        #expect(printed == "fragment F on T @a(b: [1]) {\n  x\n}")
    }

    @Test func printsVariablesWithDefaultsAndDirectives() throws {
        // given
        let document = try parse("query Q($a:[Int!]!=[1,2]@x,$b:In={k:ENUM,n:null}){f(a:$a,b:$b)}")

        // when
        let printed = GraphQLPrinter.print(document)

        // then
        #expect(printed == "query Q($a: [Int!]! = [1, 2] @x, $b: In = {k: ENUM, n: null}) {\n  f(a: $a, b: $b)\n}")
    }

    @Test func printsLeadingCommentsAboveTheirNodes() throws {
        // given
        let text = "# Query.\nquery Q {\n  # Field.\n  f\n}\n\n# Enum.\nenum E {\n  A\n}"
        let document = try parse(text)

        // when
        let printed = GraphQLPrinter.print(document)

        // then
        #expect(printed == text)
    }

    // MARK: Values and types

    @Test func printsValues() throws {
        // given
        let source = Source(
            name: "v",
            text: #"{int: -1, float: 1.0e-5, s: "x", b: """y""", t: true, f: false, n: null, e: E, v: $v, l: [[], {}]}"#
        )

        // when
        let printed = GraphQLPrinter.print(try GraphQLParser.parseValue(source))

        // then
        #expect(
            printed
                == #"{int: -1, float: 1.0e-5, s: "x", b: """y""", "#
                + #"t: true, f: false, n: null, e: E, v: $v, l: [[], {}]}"#
        )
    }

    @Test func printsTypes() throws {
        // given
        let types = ["Int", "Int!", "[Int]", "[Int!]!", "[[Int]!]"]

        for text in types {
            // when
            let printed = GraphQLPrinter.print(try GraphQLParser.parseType(Source(name: "t", text: text)))

            // then
            #expect(printed == text)
        }
    }

    @Test func escapesQuotedStrings() {
        // given
        let value = Value.string(StringValue("q\" b\\ s/ \u{8}\u{C}\n\r\t \u{0}\u{1F}\u{7F}\u{9F} é😀"))

        // when
        let printed = GraphQLPrinter.print(value)

        // then
        #expect(printed == #""q\" b\\ s/ \b\f\n\r\t \u0000\u001F\u007F\u009F é😀""#)
    }

    // MARK: Descriptions and block strings

    @Test func printsDescriptionsAsStringsOrBlockStrings() throws {
        // given
        let document = try parse(
            "\"One line.\" scalar A \"\"\"Block.\"\"\" scalar B \"Two\\nlines.\" scalar C "
                + "\"\"\"\n  Indented\n    more\n\"\"\" scalar D"
        )

        // when
        let printed = GraphQLPrinter.print(document)

        // then
        #expect(
            printed
                == "\"One line.\"\nscalar A\n\n\"\"\"Block.\"\"\"\nscalar B\n\n"
                + "\"\"\"\nTwo\nlines.\n\"\"\"\nscalar C\n\n\"\"\"\nIndented\n  more\n\"\"\"\nscalar D"
        )
    }

    @Test func indentsBlockStringsInsideDefinitions() throws {
        // given
        let text = "type T {\n  \"\"\"\n  Line one.\n\n  Line two.\n  \"\"\"\n  f: Int\n}"

        // when
        let printed = GraphQLPrinter.print(try parse(text))

        // then
        #expect(printed == text)
    }

    @Test func fallsBackToQuotedStringsWhenABlockStringCannotHoldTheValue() {
        // given
        let cases: [(String, String)] = [
            ("\nleading blank line", #""\nleading blank line""#),
            ("trailing blank line\n  ", #""trailing blank line\n  ""#),
            ("  common\n  indent", #""  common\n  indent""#),
            ("carriage\rreturn", #""carriage\rreturn""#),
            ("bell\u{7}", #""bell\u0007""#),
        ]

        for (value, expected) in cases {
            // when
            let printed = GraphQLPrinter.print(Value.string(StringValue(value, isBlock: true)))

            // then
            #expect(printed == expected, "\(value.debugDescription)")
        }
    }

    @Test func escapesTripleQuotesInBlockStrings() {
        // given
        let value = Value.string(StringValue("say \"\"\"hi\"\"\" now", isBlock: true))

        // when
        let printed = GraphQLPrinter.print(value)

        // then
        #expect(printed == "\"\"\"say \\\"\"\"hi\\\"\"\" now\"\"\"")
    }

    @Test func trickyStringsRoundTripInEveryPosition() throws {
        for value in trickyStrings {
            for isBlock in [false, true] {
                // given
                let documents = [
                    describedScalar(value, isBlock: isBlock), queryWithStringArgument(value, isBlock: isBlock),
                ]

                for document in documents {
                    // when
                    let printed = GraphQLPrinter.print(document)
                    let reparsed = try parse(printed)

                    // then
                    #expect(reparsed == document, "\(value.debugDescription) block: \(isBlock)\n\(printed)")
                    #expect(GraphQLPrinter.print(reparsed) == printed, "\(value.debugDescription)")
                }
            }
        }
    }

    // MARK: Type system

    @Test func printsTypeSystemDefinitionsAndExtensions() throws {
        // given
        let text = """
            schema @a {
              query: Q
            }

            extend schema @b

            extend schema {
              mutation: M
            }

            scalar S @d

            extend scalar S @e

            type T implements A & B @d {
              f(a: Int = 1 @x): [T!]! @y
            }

            extend type T implements C

            interface I implements A

            extend interface I {
              g: Int
            }

            union U @d = A | B

            extend union U = C

            enum E {
              A @deprecated
              B
            }

            extend enum E @d

            input In {
              a: Int = 1
              b: [String!] @d
            }

            extend input In {
              c: Float
            }

            directive @d(a: Int) repeatable on FIELD | OBJECT
            """

        // when
        let printed = GraphQLPrinter.print(try parse(text))

        // then
        #expect(printed == text)
    }

    @Test func printsArgumentDefinitionsOnePerLineWhenDescribed() throws {
        // given
        let text = "directive @d(\n  \"First.\"\n  a: Int\n  b: String\n) on FIELD"

        // when
        let printed = GraphQLPrinter.print(try parse(text))

        // then
        #expect(printed == text)
    }
}
