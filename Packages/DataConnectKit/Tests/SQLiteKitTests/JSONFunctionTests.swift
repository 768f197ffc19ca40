import Testing

@testable import SQLiteKit

/// The functions that hand JSON to SQLite's JSON functions without a parse: text marked as JSON (trusted, or
/// checked first as `json()` would check it) and numbers written as the shortest round-trip JSON.
@Suite struct JSONFunctionTests {
    static func connection() throws -> Connection {
        let connection = try Connection()
        try connection.createJSONTextFunction("embed", checked: false)
        try connection.createJSONTextFunction("stored", checked: true)
        try connection.createJSONNumberFunction("number")
        return connection
    }

    static func text(_ sql: String, _ bindings: [SQLiteValue] = []) throws -> SQLiteValue {
        try connection().query(sql, bindings).first?[0] ?? .null
    }

    @Test func aSubquerysObjectIsEmbeddedAsJSON() throws {
        let inner = "(SELECT json_object('name', 'Nolan', 'born', 1970))"

        #expect(
            try Self.text("SELECT json_object('director', embed(\(inner)))")
                == .text(#"{"director":{"name":"Nolan","born":1970}}"#))
        #expect(
            try Self.text("SELECT json_group_array(embed(j)) FROM (SELECT json_array(1, 2) AS j)") == .text("[[1,2]]"))
        #expect(try Self.text("SELECT json_array(embed(NULL), embed(7))") == .text("[null,7]"))
    }

    static let validTexts = [
        #"["a","b"]"#, #" { "k" : [1, -2.5e+3, 0, 0.25E-2, true, false, null, {}, []] } "#, #""\u00e9\n\"\\\/""#,
        "3", "-0", #"{"a":{"b":{"c":[[[]]]}}}"#,
    ]

    @Test(arguments: validTexts)
    func checkedTextThatIsJSONPassesAsItIs(_ text: String) throws {
        #expect(try Self.text("SELECT stored(?1)", [.text(text)]) == .text(text))
        #expect(
            try Self.text("SELECT json(json_array(stored(?1))) = json_array(json(?1))", [.text(text)]) == .integer(1))
    }

    static let invalidTexts = [
        "", " ", "[", "]", #"{"a" 1}"#, #"{"a":1,}"#, "[1,]", "[1 2]", "01", "1.", ".5", "1e", "+1", "-", "tru",
        "nul", #""unterminated"#, "\"raw\ttab\"", #""\x""#, #""\u12G4""#, "{1:2}", "[1]x", "NaN", "'a'",
        String(repeating: "[", count: 1001) + String(repeating: "]", count: 1001),
        String(repeating: #"{"a":"#, count: 1001) + "1" + String(repeating: "}", count: 1001),
    ]

    @Test(arguments: invalidTexts)
    func checkedTextThatIsNotJSONIsAnError(_ text: String) throws {
        #expect(throws: SQLiteError.self) { try Self.text("SELECT stored(?1)", [.text(text)]) }
    }

    @Test func checkedTextKeepsNullsAndNumbersAndRefusesBlobs() throws {
        #expect(try Self.text("SELECT stored(NULL)") == .null)
        #expect(try Self.text("SELECT json_array(stored(4), stored(2.5))") == .text("[4,2.5]"))
        #expect(throws: SQLiteError.self) { try Self.text("SELECT stored(x'00')") }
    }

    @Test func numbersAreTheShortestRoundTripJSON() throws {
        #expect(
            try Self.text("SELECT json_array(number(0.1), number(5), number(1e300), number(2.0))")
                == .text("[0.1,5,1e+300,2.0]"))
        #expect(try Self.text("SELECT json_array(number(1.0/3))") == .text("[\((1.0 / 3).description)]"))
        #expect(
            try Self.text("SELECT json_array(number(NULL), number('x'), number(9e999))") == .text("[null,null,null]"))
    }
}
