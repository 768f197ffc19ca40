import DataConnectWire
import Foundation
import Testing

@Suite struct JSONReaderTests {
    @Test func readsNestedDocument() throws {
        // given a GraphQL-like response
        let text = #"{"data": {"movies": [{"id": "m1", "rating": 8.5, "tags": ["a", "b"], "sequel": null}]}}"#

        // when it is parsed
        let value = try JSONValue(parsing: text)

        // then every level is reachable
        let movie = try #require(value["data"]?["movies"]?[0])
        #expect(movie["id"] == "m1")
        #expect(movie["rating"]?.doubleValue == 8.5)
        #expect(movie["tags"] == ["a", "b"])
        #expect(movie["sequel"] == .null)
        #expect(movie["missing"] == nil)
    }

    @Test func keepsKeyOrder() throws {
        // given an object whose keys are not sorted
        let text = #"{"zeta": 1, "alpha": 2, "mid": 3}"#

        // when it is parsed
        let object = try #require(try JSONValue(parsing: text).objectValue)

        // then the keys keep document order
        #expect(object.keys == ["zeta", "alpha", "mid"])
    }

    @Test func lastDuplicateKeyWinsAtFirstPosition() throws {
        // given an object that repeats a key
        let text = #"{"a": 1, "b": 2, "a": 3}"#

        // when it is parsed
        let object = try #require(try JSONValue(parsing: text).objectValue)

        // then the last value wins and the key keeps its first position, like JSON.parse
        #expect(object.keys == ["a", "b"])
        #expect(object["a"] == 3)
    }

    @Test func findsRepeatedKeysSpelledWithEscapes() throws {
        // given keys that are equal once their escapes are decoded
        let text = #"{"a": 1, "b": 2, "\u0061": 3, "\u0062": 4}"#

        // when parsed
        let object = try #require(try JSONValue(parsing: text).objectValue)

        // then they count as repeats, whichever spelling comes first
        #expect(object.keys == ["a", "b"])
        #expect(object["a"] == 3)
        #expect(object["b"] == 4)
        let reversed = try JSONValue(parsing: #"{"\u0061": 1, "\u00e9": 2, "a": 3, "é": 4, "": 5, "": 6}"#)
        #expect(reversed.objectValue?.keys == ["a", "é", ""])
        #expect(reversed == ["a": 3, "é": 4, "": 6])
    }

    @Test func findsRepeatedKeysAroundTheDictionaryThreshold() throws {
        // given objects of 15 to 18 distinct keys followed by a repeat of the first and last key
        for size in 15...18 {
            var members = (0..<size).map { #""key\#($0)":\#($0)"# }
            members.append(#""key0":"first again""#)
            members.append(#""key\#(size - 1)":"last again""#)

            // when parsed
            let object = try #require(try JSONValue(parsing: "{" + members.joined(separator: ",") + "}").objectValue)

            // then the repeats replace the originals in place
            #expect(object.count == size)
            #expect(object["key0"] == "first again")
            #expect(object["key\(size - 1)"] == "last again")
            #expect(object.keys.first == "key0")
        }
    }

    @Test func decodesEscapes() throws {
        // given a string with every escape
        let text = #""\" \\ \/ \b \f \n \r \t \u0041 \u00e9 \u6771""#

        // when it is parsed
        let value = try JSONValue(parsing: text)

        // then each escape becomes its character
        #expect(value == .string("\" \\ / \u{08} \u{0C} \n \r \t A é 東"))
    }

    @Test func decodesSurrogatePairs() throws {
        // given a clapper board emoji escaped as a UTF-16 surrogate pair, beside its raw UTF-8 form
        let escaped = #"["\ud83c\udfac", "\uD83C\uDFAC", "🎬"]"#

        // when it is parsed
        let value = try JSONValue(parsing: escaped)

        // then all three are the same single scalar
        #expect(value == ["🎬", "🎬", "🎬"])
        #expect(value[0]?.stringValue?.unicodeScalars.count == 1)
    }

    @Test func rejectsLoneSurrogates() {
        // given high and low surrogates that are not paired
        for text in [#""\ud83c""#, #""\udfac""#, #""\ud83c\ud83c""#, #""\ud83c x""#] {
            // when parsed, then the reader reports a lone surrogate
            #expect(throws: JSONError.self) { try JSONValue(parsing: text) }
            do {
                _ = try JSONValue(parsing: text)
            } catch {
                #expect(error.kind == .loneSurrogate)
                #expect(error.offset == 1)
            }
        }
    }

    @Test func reportsUnexpectedCharacterWithLineAndColumn() {
        // given an array with a bare word in it
        // when it is parsed
        let error = #expect(throws: JSONError.self) { try JSONValue(parsing: "[1, x]") }

        // then the message names the character and its place
        #expect(error?.message == #"unexpected character "x" at line 1, column 5"#)
        #expect(error?.offset == 4)
        #expect(error?.description == error?.message)
    }

    @Test func countsLinesAndUnicodeColumns() {
        // given an error on the second line, after a three-byte character
        let text = "{\n  \"東\": tru\n}"

        // when it is parsed
        let error = #expect(throws: JSONError.self) { try JSONValue(parsing: text) }

        // then the line counts newlines and the column counts characters, not bytes
        #expect(error?.line == 2)
        #expect(error?.column == 11)
        #expect(error?.reason == "unexpected character U+000A")
    }

    @Test func describesNonASCIICharacters() {
        // given a stray non-ASCII character and an ill-formed byte
        let stray = #expect(throws: JSONError.self) { try JSONValue(parsing: "[é]") }
        let broken = #expect(throws: JSONError.self) { try JSONReader().parse([0x5B, 0xFE, 0x5D]) }

        // then the first is shown as itself, the second as a byte
        #expect(stray?.reason == #"unexpected character "é""#)
        #expect(broken?.reason == "invalid UTF-8 byte 0xFE")
        #expect(broken?.kind == .invalidUTF8)
    }

    @Test func reportsTrailingCharacters() {
        // given a value followed by more input
        let error = #expect(throws: JSONError.self) { try JSONValue(parsing: "{} x") }

        // then the error says the input goes on after the value
        #expect(error?.message == #"unexpected character "x" after the top-level value at line 1, column 4"#)
    }

    @Test func reportsEndOfInputAtTheEnd() {
        // given an unterminated array
        let error = #expect(throws: JSONError.self) { try JSONValue(parsing: "[1,\n2") }

        // then the position is the end of the input
        #expect(error?.kind == .unexpectedEndOfInput)
        #expect(error?.offset == 5)
        #expect(error?.message == "unexpected end of input at line 2, column 2")
    }

    @Test func explainsNumberErrors() {
        // given numbers that break the grammar
        let leadingZero = #expect(throws: JSONError.self) { try JSONValue(parsing: "[01]") }
        let missingFraction = #expect(throws: JSONError.self) { try JSONValue(parsing: "[1.x]") }

        // then the messages explain the rule
        #expect(leadingZero?.reason == "invalid number: leading zeros are not allowed")
        #expect(leadingZero?.column == 2)
        #expect(missingFraction?.reason == #"invalid number: expected a digit, found "x""#)
    }

    @Test func limitsNestingDepth() throws {
        // given documents nested exactly at and just past a limit of 8
        let reader = JSONReader(options: .init(maxDepth: 8))
        let atLimit = String(repeating: "[", count: 8) + String(repeating: "]", count: 8)
        let pastLimit = "[" + String(repeating: #"{"a":"#, count: 8) + "1" + String(repeating: "}", count: 8) + "]"

        // when both are parsed
        _ = try reader.parse(atLimit)
        let error = #expect(throws: JSONError.self) { try reader.parse(pastLimit) }

        // then only the deeper one fails, pointing at the container that went too deep
        #expect(error?.kind == .nestingTooDeep)
        #expect(error?.reason == "nesting depth exceeds the limit of 8")
        #expect(error?.offset == 36)
    }

    @Test func deepInputThrowsInsteadOfOverflowingTheStack() {
        // given a hostile document nested a million levels deep
        let hostile = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)

        // when it is parsed with the default limit
        let error = #expect(throws: JSONError.self) { try JSONReader().parse(hostile) }

        // then it fails cleanly at level 513
        #expect(error?.kind == .nestingTooDeep)
        #expect(error?.offset == 512)
    }

    @Test func limitsInputSize() throws {
        // given a reader limited to 10 bytes
        let reader = JSONReader(options: .init(maxInputSize: 10))

        // when inputs of 10 and 11 bytes are parsed
        _ = try reader.parse("[1,2,3,45]")
        let error = #expect(throws: JSONError.self) { try reader.parse("[1,2,3,456]") }

        // then only the larger one fails
        #expect(error?.kind == .inputTooLarge)
        #expect(error?.reason == "input of 11 bytes exceeds the limit of 10 bytes")
    }

    @Test func readsFromSlicesAndData() throws {
        // given the same document as an array slice and as Data
        let bytes = Array(#"xx{"a":[1,2]}yy"#.utf8)
        let slice = bytes[2..<(bytes.count - 2)]
        let data = Data(slice)

        // when each is parsed
        let fromSlice = try JSONReader().parse(slice)
        let fromData = try JSONReader().parse(data)

        // then both give the same value
        #expect(fromSlice == ["a": [1, 2]])
        #expect(fromData == fromSlice)
    }

    @Test func acceptsEmbeddedNulEscape() throws {
        // given a string holding an escaped U+0000
        // when it is parsed and written back
        let value = try JSONValue(parsing: #""a\u0000b""#)

        // then the NUL survives and is escaped again
        #expect(value.stringValue?.utf8.count == 3)
        #expect(value.jsonString() == #""a\u0000b""#)
    }

    @Test func agreesWithFoundationOnAGraphQLDocument() throws {
        // given a document Foundation can also read
        let text = #"{"data":{"list":[{"n":1,"s":"é\n","f":2.5,"b":true,"z":null}],"count":1}}"#

        // when both parse it
        let ours = try JSONValue(parsing: text)
        let theirs = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]

        // then they see the same values
        let list = try #require((theirs?["data"] as? [String: Any])?["list"] as? [[String: Any]])
        #expect(ours["data"]?["list"]?[0]?["s"]?.stringValue == list[0]["s"] as? String)
        #expect(ours["data"]?["list"]?[0]?["f"]?.doubleValue == list[0]["f"] as? Double)
        #expect(ours["data"]?["count"]?.intValue == (theirs?["data"] as? [String: Any])?["count"] as? Int)
    }
}
