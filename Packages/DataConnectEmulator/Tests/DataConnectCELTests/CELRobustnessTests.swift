import DataConnectCEL
import DataConnectWire
import Testing

/// SplitMix64: a small seedable generator, so a failing input reproduces.
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

private let seeds = [
    "auth.token.admin == true", "has(vars.status) && vars.status in ['DRAFT','PUBLISHED']", "this != null",
    "!(this in [null, []])", "auth.uid == vars.userId", "request.auth.token.email_verified",
    "response.movie_insert.id != null", "vars.tags.exists(t, t.startsWith('a')) ? size(vars.tags) * 2 : -1",
    "timestamp('2024-01-01T00:00:00Z') + duration('1h') < request.time",
    "{'a': [1, 2.5, 3u], \"b\": r'\\d+'}.a.map(x, x / 2).filter(y, y >= 1)", "int('7') % 3 - 0x10 + 1e3",
    "'''x''' + \"\\u00e9\\x41\\101\" + string(uuidV4().size())", "vars.movie['title'].matches('^A.*n$')",
]

/// Tokens worth splicing in, so mutations reach deep parser and evaluator paths.
private let fragments = [
    "(", ")", "[", "]", "{", "}", ".", ",", ":", "?", "!", "-", "+", "*", "/", "%", "<", "<=", "==", "!=", "&&",
    "||", " in ", "'", "\"", "\\", "r'", "0", "1u", "9223372036854775807", "-9223372036854775808", "1.5e308",
    "null", "true", "auth", "vars", "this", "request", "response", "mutation", "has(", "size(", ".all(x, ",
    ".map(", "uuidV4()", "timestamp(", "duration(", "'2024-01-01T00:00:00Z'", "é", "\n", "//", "0x",
]

@Suite struct CELRobustnessTests {
    /// The time limit is a hang guard for a debug build on a busy machine, not a speed target.
    @Test(.timeLimit(.minutes(10)))
    func randomMutationsNeverCrash() {
        // given
        var generator = SeededGenerator(state: 0xCE1_5EED)
        let bindingsList = [
            celTestBindings, CELBindings(), CELBindings(this: ["a": [1, nil]]),
            CELBindings(vars: ["tags": [], "status": nil, "movie": ["title": 1]], this: .null),
        ]
        var parsed = 0

        for iteration in 0..<4_000 {
            var scalars = Array(seeds[iteration % seeds.count].unicodeScalars)
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let position = Int.random(in: 0...scalars.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0 where !scalars.isEmpty:
                    let start = min(position, scalars.count - 1)
                    let length = min(Int.random(in: 1...6, using: &generator), scalars.count - start)
                    scalars.removeSubrange(start..<(start + length))
                case 1:
                    let fragment = fragments.randomElement(using: &generator)!
                    scalars.insert(contentsOf: fragment.unicodeScalars, at: position)
                default:
                    let scalar = Unicode.Scalar(UInt8.random(in: 0x20...0x7E, using: &generator))
                    scalars.insert(scalar, at: position)
                }
            }
            let source = String(String.UnicodeScalarView(scalars))

            // when
            guard let expression = try? CELExpression(parsing: source) else { continue }
            parsed += 1
            for bindings in bindingsList {
                _ = try? expression.evaluate(in: bindings)
                _ = try? expression.evaluateCondition(in: bindings)
            }

            // then: the printed form parses and prints the same
            let printed = expression.description
            do {
                let reparsed = try CELExpression(parsing: printed)
                #expect(reparsed.description == printed, "\(source)")
            } catch {
                Issue.record("printed form does not parse: \(error)\n--- source\n\(source)\n--- printed\n\(printed)")
            }
        }

        #expect(parsed > 400)
    }

    @Test func randomBytesNeverCrashTheParser() {
        // given
        var generator = SeededGenerator(state: 42)
        let alphabet = Array("()[]{}.,:?!-+*/%<>=&|'\"\\ rRbux0123456789eE_aZ\n\té".unicodeScalars)

        for _ in 0..<3_000 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...40, using: &generator) {
                scalars.append(alphabet.randomElement(using: &generator)!)
            }

            // when / then: no crash, and an error always has a position inside the text
            do {
                let expression = try CELExpression(parsing: String(scalars))
                _ = try? expression.evaluate(in: celTestBindings)
            } catch {
                if case .syntax(_, let line, let column) = error {
                    #expect(line >= 1 && column >= 1)
                }
            }
        }
    }
}
