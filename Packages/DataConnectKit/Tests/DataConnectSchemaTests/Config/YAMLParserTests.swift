import GraphQLLanguage
import Testing

@testable import DataConnectSchema

@Suite struct YAMLParserTests {
    private func parse(_ text: String) throws -> YAMLNode {
        try YAMLParser.parse(text, file: "test.yaml")
    }

    private func parseError(_ text: String) -> Diagnostic? {
        do {
            _ = try YAMLParser.parse(text, file: "test.yaml")
            return nil
        } catch {
            return error
        }
    }

    @Test func readsBlockMappingInOrderWithLocations() throws {
        // given
        let text = """
            # a comment
            serviceId: movies
            location: "us-central1"
            connectorDirs:
              - ./connector
              - './other'
            """
        // when
        let root = try parse(text)
        // then
        #expect(root.location == SourceLocation(line: 2, column: 1))
        #expect(root.pairs?.map { $0.key.scalar } == ["serviceId", "location", "connectorDirs"])
        #expect(root["serviceId"] == YAMLNode(.scalar("movies", .plain), at: SourceLocation(line: 2, column: 12)))
        #expect(root["location"] == YAMLNode(.scalar("us-central1", .quoted), at: SourceLocation(line: 3, column: 11)))
        let dirs = try #require(root["connectorDirs"]?.items)
        #expect(dirs.map(\.scalar) == ["./connector", "./other"])
        #expect(dirs.map(\.location) == [SourceLocation(line: 5, column: 5), SourceLocation(line: 6, column: 5)])
    }

    @Test func countsColumnsInUnicodeScalars() throws {
        // given a key with non-ASCII characters before the value
        let text = "título: Amélie\n"
        // when
        let root = try parse(text)
        // then
        #expect(root["título"]?.scalar == "Amélie")
        #expect(root["título"]?.location == SourceLocation(line: 1, column: 9))
    }

    @Test func readsJSONWithLineNumbers() throws {
        // given JSON with tabs, no space after colons, escapes and nesting
        let text =
            "{\n\t\"emulators\":{\"dataconnect\": {\"port\":9399, \"host\": \"127.0.0.1\"}},\n\t\"list\": [1, \"\\u00e9\\/\", true, null]\n}\n"
        // when
        let root = try parse(text)
        // then
        #expect(root.location == SourceLocation(line: 1, column: 1))
        let port = try #require(root["emulators"]?["dataconnect"]?["port"])
        #expect(port.scalar == "9399")
        #expect(port.location == SourceLocation(line: 2, column: 38))
        let list = try #require(root["list"]?.items)
        #expect(list.map(\.scalar) == ["1", "é/", "true", "null"])
        #expect(list[3].isNull)
        #expect(list[1].isNull == false)
    }

    @Test func distinguishesPlainFromQuotedScalars() throws {
        // given
        let text = "a: ~\nb: \"~\"\nc:\nd: 'null'\ne: |\n  block\n"
        // when
        let root = try parse(text)
        // then
        #expect(root["a"]?.isNull == true)
        #expect(root["b"]?.isNull == false)
        #expect(root["c"]?.isNull == true)
        #expect(root["d"]?.isNull == false)
        #expect(root["e"] == YAMLNode(.scalar("block\n", .quoted), at: SourceLocation(line: 5, column: 4)))
    }

    @Test func describesNodeKindsForMessages() throws {
        // given
        let root = try parse("m: {}\nl: []\nn: null\ni: 12\nf: 1.5\nb: true\ns: text\nq: \"12\"\n")
        // when
        let descriptions = root.pairs?.map(\.value.kindDescription)
        // then
        #expect(
            descriptions == [
                "a mapping", "a list", "null", "a number", "a number", "a boolean", "a string", "a string",
            ])
    }

    @Test func emptyDocumentIsNullAtStart() throws {
        // given / when
        let empty = try parse("")
        let comments = try parse("# only a comment\n\n")
        // then
        #expect(empty.isNull)
        #expect(empty.location == SourceLocation(line: 1, column: 1))
        #expect(comments.isNull)
    }

    @Test func resolvesAnchorsAndAliases() throws {
        // given
        let text = """
            base: &cache
              maxAge: 30s
              storage: memory
            copy: *cache
            """
        // when
        let root = try parse(text)
        // then
        let copy = try #require(root["copy"])
        #expect(copy["maxAge"]?.scalar == "30s")
        #expect(copy["storage"]?.scalar == "memory")
        #expect(copy.location == SourceLocation(line: 4, column: 7))
    }

    @Test func reportsUnknownAliasWithPlace() {
        // given / when
        let error = parseError("a: *missing\n")
        // then
        #expect(error?.description == "test.yaml:1:4: error: yaml: unknown alias \"missing\"")
    }

    @Test func rejectsAliasBombs() {
        // given the classic "billion laughs" shape
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 {
            let refs = Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
            text += "a\(level): &a\(level) [\(refs)]\n"
        }
        // when
        let error = parseError(text)
        // then
        #expect(error?.message.hasPrefix("yaml: document too large") == true)
    }

    @Test func rejectsDeepNesting() {
        // given
        let text = String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
        // when
        let error = parseError(text)
        // then
        #expect(error?.message == "yaml: nesting deeper than \(YAMLParser.maximumDepth) levels")
    }

    @Test func reportsSyntaxErrorsWithLibyamlProblemAndPlace() {
        // given a value where a key is expected
        let text = "serviceId: movies\n  location: here\n"
        // when
        let error = parseError(text)
        // then
        #expect(error?.file == "test.yaml")
        #expect(error?.location == SourceLocation(line: 2, column: 11))
        #expect(error?.message.hasPrefix("yaml: mapping values are not allowed in this context") == true)
    }

    @Test func reportsUnclosedFlowCollections() {
        // given
        let text = "{\"a\": [1, 2\n"
        // when
        let error = parseError(text)
        // then
        #expect(error?.severity == .error)
        #expect(error?.message.hasPrefix("yaml: ") == true)
        #expect(error?.location != nil)
    }

    @Test func rejectsDuplicateKeys() {
        // given / when
        let error = parseError("a: 1\nb: 2\na: 3\n")
        // then
        #expect(error?.description == "test.yaml:3:1: error: yaml: duplicate key \"a\"")
    }

    @Test func rejectsSeveralDocuments() {
        // given / when
        let error = parseError("a: 1\n---\nb: 2\n")
        // then
        #expect(error?.description == "test.yaml:2:1: error: yaml: expected a single document, found a second one")
    }

    @Test func reportsControlCharacters() {
        // given a NUL byte in the middle of the text
        let error = parseError("a: 1\nb: \u{0}x\n")
        // then
        #expect(error?.message.hasPrefix("yaml: control characters are not allowed") == true)
        #expect(error?.location == SourceLocation(line: 2, column: 4))
    }

    @Test(arguments: [
        "{{{{", "]]]", ": : :", "- - - : - [", "\"unterminated", "key: 'x\n", "&a", "*", "!tag", "%YAML 9.9\n---\na",
        "\t- x", "a:\n\t- b", "? - a\n  - b\n: c", "{a: 1, a: 2}", "- !!binary xyz", "@@@", "`cmd`", "a: b: c",
        "[1, 2, {a: [3, {b: }]}", "\u{FEFF}a: 1", "\u{7}", "x: |\n bad\n  indent\n wrong", "--- |\n--- >\n",
    ])
    func survivesMalformedInput(text: String) {
        // given arbitrary malformed text
        // when
        let result = Result { () throws(Diagnostic) -> YAMLNode in try YAMLParser.parse(text, file: "garbage.yaml") }
        // then it either parses or reports a located yaml error, and never crashes
        if case .failure(let error) = result {
            #expect(error.file == "garbage.yaml")
            #expect(error.message.hasPrefix("yaml: "))
        }
    }

    @Test func survivesRandomBytes() {
        // given deterministic pseudo-random inputs built from YAML-ish characters
        var generator = SplitMix64(seed: 0x5EED)
        let alphabet = Array("ab:- \n\t[]{},'\"&*!|>#?%@`~\\0123456789é")
        for _ in 0..<500 {
            let length = Int(generator.next() % 60)
            let text = String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
            // when
            let service = ServiceConfig.parse(text, file: "random.yaml")
            let manifest = ConnectorManifest.parse(text, file: "random.yaml")
            // then
            #expect(service.config != nil || service.diagnostics.containsErrors)
            #expect(manifest.manifest != nil || manifest.diagnostics.containsErrors)
        }
    }
}

/// A tiny deterministic generator so fuzz-style tests repeat exactly.
private struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
