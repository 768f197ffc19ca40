import GraphQLLanguage
import Testing

/// SplitMix64: a small, fast, seedable generator, so failures reproduce.
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Bytes that matter to the grammar, inserted more often than arbitrary ones.
private let interestingBytes =
    Array("{}()[]\"\\$@!:=|&.#,\n\r\t -0123456789eEuxon_aZ".utf8) + [0xEF, 0xBB, 0xBF, 0xC3, 0xA9, 0x00]

/// Parses `text`; when it parses, checks that the printed form parses back to the same tree.
///
/// Returns whether the text parsed.
private func parseAndCheckRoundTrip(_ text: String, context: String) -> Bool {
    guard let document = try? GraphQLParser.parseDocument(Source(name: "fuzz.graphql", text: text)) else {
        return false
    }
    let printed = GraphQLPrinter.print(document)
    do {
        let reparsed = try GraphQLParser.parseDocument(Source(name: "printed.graphql", text: printed))
        #expect(reparsed == document, "\(context)\n--- input\n\(text)\n--- printed\n\(printed)")
        #expect(GraphQLPrinter.print(reparsed) == printed, "\(context)")
    } catch {
        Issue.record("printed form does not parse: \(error)\n\(context)\n--- input\n\(text)\n--- printed\n\(printed)")
    }
    return true
}

@Suite struct RobustnessTests {
    /// The time limit is a hang guard for a debug build on a busy machine, not a speed target.
    @Test(.timeLimit(.minutes(10)))
    func randomMutationsOfTheKitchenSinksNeverCrashOrHang() {
        // given
        var generator = SeededGenerator(state: 0x5EED_2021)
        let sources = [Array(KitchenSink.executable.utf8), Array(KitchenSink.schema.utf8)]
        var parsed = 0
        var failed = 0

        for iteration in 0..<2_000 {
            var bytes = sources[iteration % sources.count]
            let mutations = Int.random(in: 1...3, using: &generator)
            for _ in 0..<mutations {
                let index = Int.random(in: 0..<max(1, bytes.count), using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0 where !bytes.isEmpty:
                    let length = min(Int.random(in: 1...8, using: &generator), bytes.count - index)
                    bytes.removeSubrange(index..<(index + length))
                case 1 where !bytes.isEmpty:
                    let length = min(Int.random(in: 1...16, using: &generator), bytes.count - index)
                    bytes.insert(contentsOf: bytes[index..<(index + length)], at: index)
                default:
                    let byte =
                        Bool.random(using: &generator)
                        ? interestingBytes[Int.random(in: 0..<interestingBytes.count, using: &generator)]
                        : UInt8.random(in: 0...255, using: &generator)
                    bytes.insert(byte, at: min(index, bytes.count))
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)

            // when
            let didParse = parseAndCheckRoundTrip(text, context: "iteration \(iteration)")

            // then
            if didParse { parsed += 1 } else { failed += 1 }
        }
        #expect(parsed + failed == 2_000)
        #expect(parsed > 0 && failed > 0)
    }

    @Test func everyPrefixOfTheKitchenSinksParsesOrThrows() {
        // given
        let sources = [KitchenSink.executable, KitchenSink.schema]

        for source in sources {
            let bytes = Array(source.utf8)
            for length in 0...bytes.count {
                // when
                let text = String(decoding: bytes[0..<length], as: UTF8.self)

                // then
                _ = parseAndCheckRoundTrip(text, context: "prefix of length \(length)")
            }
        }
    }

    @Test func randomTokenSoupParsesOrThrows() {
        // given
        var generator = SeededGenerator(state: 42)
        let words = [
            "{", "}", "(", ")", "[", "]", "...", "on", "query", "type", "extend", "schema", "$", "a", ":", "=", "@",
            "!",
            "|", "&", "1", "-2.5e3", "\"s\"", "\"\"\"b\"\"\"", "true", "null", "enum", "input", "directive",
            "repeatable",
            "FIELD", "implements", "union", "scalar", "interface", "fragment", "#c\n", ",", "\n",
        ]

        for iteration in 0..<1_000 {
            let count = Int.random(in: 0...40, using: &generator)
            let text = (0..<count).map { _ in words[Int.random(in: 0..<words.count, using: &generator)] }
                .joined(separator: " ")

            // when / then
            _ = parseAndCheckRoundTrip(text, context: "soup \(iteration)")
        }
    }

    @Test func deepNestingThrowsInsteadOfOverflowingTheStack() {
        // given
        let depth = 100_000
        let inputs: [(String, (Source) throws(Diagnostic) -> Void)] = [
            (
                String(repeating: "{a", count: depth),
                { source throws(Diagnostic) in _ = try GraphQLParser.parseDocument(source) }
            ),
            (
                String(repeating: "{...", count: depth),
                { source throws(Diagnostic) in _ = try GraphQLParser.parseDocument(source) }
            ),
            (
                String(repeating: "[", count: depth),
                { source throws(Diagnostic) in _ = try GraphQLParser.parseValue(source) }
            ),
            (
                String(repeating: "{a:", count: depth),
                { source throws(Diagnostic) in _ = try GraphQLParser.parseValue(source) }
            ),
            (
                String(repeating: "[", count: depth),
                { source throws(Diagnostic) in _ = try GraphQLParser.parseType(source) }
            ),
            (
                "query($v: " + String(repeating: "[", count: depth),
                { source throws(Diagnostic) in _ = try GraphQLParser.parseDocument(source) }
            ),
            (
                "{ f(a: " + String(repeating: "{b: [", count: depth),
                { source throws(Diagnostic) in _ = try GraphQLParser.parseDocument(source) }
            ),
        ]

        for (text, parse) in inputs {
            // when
            var message: String?
            do {
                try parse(Source(name: "deep.graphql", text: text))
            } catch {
                message = error.message
            }

            // then
            #expect(message == "syntax error: nesting is too deep (more than 256 levels)", "\(text.prefix(20))")
        }
    }

    @Test func nestingUpToTheLimitParses() throws {
        // given
        let limit = GraphQLParser.maximumNestingDepth
        let selections = String(repeating: "{a", count: limit) + String(repeating: "}", count: limit)
        let lists = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        let types = String(repeating: "[", count: limit) + "Int" + String(repeating: "]", count: limit)

        // when
        let document = try GraphQLParser.parseDocument(Source(name: "deep", text: selections))
        let value = try GraphQLParser.parseValue(Source(name: "deep", text: lists))
        let type = try GraphQLParser.parseType(Source(name: "deep", text: types))
        let tooDeep = Result { () throws(Diagnostic) in
            try GraphQLParser.parseValue(Source(name: "deep", text: "[" + lists + "]"))
        }

        // then
        #expect(try GraphQLParser.parseDocument(Source(name: "p", text: GraphQLPrinter.print(document))) == document)
        #expect(GraphQLPrinter.print(value) == lists)
        #expect(type.namedType.value == "Int")
        #expect(throws: Diagnostic.self) { try tooDeep.get() }
    }
}
