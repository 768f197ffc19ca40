import DataConnectWire
import Foundation
import Testing

@Suite struct JSONWriterTests {
    @Test func escapesStrings() {
        // given a string with quotes, backslashes, a slash, control characters and non-ASCII text
        let text = "\"\\/\u{08}\u{0C}\n\r\t\u{01}\u{1F}\u{7F}é東🎬"

        // when written
        var writer = JSONWriter()
        writer.string(text)

        // then only quote, backslash and controls are escaped; slash and UTF-8 pass through
        #expect(writer.text == #""\"\\/\b\f\n\r\t\u0001\u001f"# + "\u{7F}é東🎬\"")
    }

    @Test func escapesACharacterAtEveryPositionOfEveryWord() throws {
        // given every byte that needs an escape, and its neighbours that do not, at each position of texts long
        // enough to be read eight bytes at a time
        let special: [Character] = ["\"", "\\", "\u{00}", "\u{01}", "\u{1F}", " ", "!", "#", "[", "]", "\u{7F}", "é"]
        for length in 1...24 {
            for position in 0..<length {
                for character in special {
                    var text = String(repeating: "a", count: length)
                    let at = text.index(text.startIndex, offsetBy: position)
                    text.replaceSubrange(at...at, with: String(character))

                    // when written
                    var writer = JSONWriter()
                    writer.string(text)

                    // then it reads back as the same text, and is escaped only where JSON asks
                    #expect(try JSONValue(parsing: writer.bytes) == .string(text), "\(length) \(position)")
                    let escapes = writer.text.filter { $0 == "\\" }.count
                    let expected =
                        character == "\\" ? 2 : (character == "\"" || (character.asciiValue ?? 0x20) < 0x20 ? 1 : 0)
                    #expect(escapes == expected, "\(length) \(position) \(character)")
                }
            }
        }
    }

    @Test func escapedStringsReadBackAndFoundationAgrees() throws {
        // given every ASCII control character and a few others
        let text = String((0..<0x80).map { Character(Unicode.Scalar(UInt8($0))) }) + "é🎬"

        // when written and read back, by us and by Foundation
        let bytes = JSONValue.string(text).serialized()
        let ours = try JSONValue(parsing: bytes)
        let theirs = try JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed) as? String

        // then both see the original string
        #expect(ours == .string(text))
        #expect(theirs == text)
    }

    @Test func writesDoublesLikeJavaScript() {
        // given doubles of several kinds
        let cases: [(Double, String)] = [
            (1.0, "1"), (-0.0, "0"), (0.1, "0.1"), (-2.5, "-2.5"), (1e300, "1e+300"), (1e-7, "1e-07"),
            (9_007_199_254_740_992, "9007199254740992"), (18_014_398_509_481_984, "1.8014398509481984e+16"),
            (123_456_789.125, "123456789.125"), (.nan, "null"), (.infinity, "null"), (-.infinity, "null"),
        ]

        for (value, expected) in cases {
            // when written
            var writer = JSONWriter()
            writer.double(value)

            // then integral values within 2^53 lose the fraction, non-finite ones become null
            #expect(writer.text == expected, "\(value)")
        }
    }

    @Test func writesIntegers() {
        // given integers at the edges
        var writer = JSONWriter()
        writer.beginArray()
        for value: Int64 in [0, 7, -7, 10, 1_000_000, .max, .min] {
            writer.int64(value)
        }
        writer.int(-42)
        writer.endArray()

        // then each is written in decimal
        #expect(writer.text == "[0,7,-7,10,1000000,9223372036854775807,-9223372036854775808,-42]")
    }

    @Test func insertsCommasAndColons() {
        // given a document written call by call
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("a")
        writer.beginArray()
        writer.int(1)
        writer.beginObject()
        writer.endObject()
        writer.beginArray()
        writer.endArray()
        writer.null()
        writer.endArray()
        writer.key("b")
        writer.bool(true)
        writer.key("c")
        writer.raw(Array(#"{"x":[1]}"#.utf8))
        writer.key("d")
        writer.bool(false)
        writer.endObject()

        // then separators land exactly between siblings
        #expect(writer.text == #"{"a":[1,{},[],null],"b":true,"c":{"x":[1]},"d":false}"#)
    }

    @Test func writesRawBytesAndUnsafeText() {
        // given pre-encoded JSON and raw UTF-8 text, as a server reads them from storage
        let json = Array(#"[1,2]"#.utf8)
        let title = Array("Cléo \"5\"".utf8)

        // when written through the pointer-based calls
        var writer = JSONWriter()
        writer.beginObject()
        json.withUnsafeBytes { writer.key(utf8: UnsafeRawBufferPointer(start: $0.baseAddress, count: 0)) }
        json.withUnsafeBytes { writer.raw($0) }
        writer.key("title")
        title.withUnsafeBytes { writer.string(utf8: $0) }
        writer.endObject()

        // then raw bytes pass unchanged and text is escaped
        #expect(writer.text == #"{"":[1,2],"title":"Cléo \"5\""}"#)
    }

    @Test func writesCanonicalFormWithSortedKeys() throws {
        // given two objects with the same members in different orders and spellings
        let first = try JSONValue(parsing: #"{"b":1,"a":{"d":[],"c":2.0},"B":true,"é":0,"z":null}"#)
        let second = try JSONValue(parsing: #"{"z":null,"é":0e5,"B":true,"a":{"c":2,"d":[]},"b":1e0}"#)

        // when written in canonical form
        let firstText = first.jsonString(canonical: true)
        let secondText = second.jsonString(canonical: true)

        // then keys are sorted by UTF-8 bytes at every level and numbers normalized
        #expect(firstText == #"{"B":true,"a":{"c":2,"d":[]},"b":1,"z":null,"é":0}"#)
        #expect(secondText == firstText)
    }

    @Test func canonicalNumbersAreStable() throws {
        // given numbers that are equal but spelled differently
        let pairs: [(String, String)] = [
            ("1.50", "15e-1"), ("100", "1e2"), ("0.1", "1e-1"), ("1e300", "10e299"), ("-0", "0"),
            ("123456789012345678901234567890", "1.2345678901234567890123456789e29"),
        ]
        for (left, right) in pairs {
            // when written canonically
            let leftText = try JSONValue(parsing: left).jsonString(canonical: true)
            let rightText = try JSONValue(parsing: right).jsonString(canonical: true)

            // then the texts match
            #expect(leftText == rightText, "\(left) vs \(right)")
        }
        #expect(JSONValue(1.5).jsonString(canonical: true) == "1.5")
        #expect(try JSONValue(parsing: "1.50").jsonString(canonical: true) == "1.5")
    }

    @Test func roundTripsDocuments() throws {
        // given compact documents
        let documents = [
            #"{"data":{"movies":[{"id":"m1","title":"Cléo de 5 à 7","rating":8.25,"tags":["drama"],"x":null}]}}"#,
            #"[true,false,null,0,-1,1.5e-7,"\"\\\n",{},[],{"":{"":[]}}]"#,
            #""just a string""#,
            "12345678901234567890.5",
        ]
        for document in documents {
            // when parsed and written back
            let written = try JSONValue(parsing: document).jsonString()

            // then the text is identical
            #expect(written == document)
        }
    }

    @Test func resetKeepsCapacity() {
        // given a writer that wrote something
        var writer = JSONWriter(capacity: 16)
        writer.beginArray()
        writer.int(1)
        writer.endArray()

        // when reset and reused
        writer.reset()
        writer.string("x")

        // then only the new document remains
        #expect(writer.text == #""x""#)
        #expect(JSONWriter.serializeToString(["k": [1, "v"]]) == #"{"k":[1,"v"]}"#)
    }
}
