import Testing

@testable import SQLiteKit

/// The vector distance functions: each distance as pgvector defines it, computed from JSON text in place, with
/// the numbers read exactly as `Double(String)` reads them, and NULL for anything that is not a vector of the
/// compared size.
@Suite struct VectorFunctionTests {
    static func connection() throws -> Connection {
        let connection = try Connection()
        try connection.createVectorDistanceFunction("l2", distance: .euclidean)
        try connection.createVectorDistanceFunction("cosine", distance: .cosine)
        try connection.createVectorDistanceFunction("ip", distance: .negativeInnerProduct)
        return connection
    }

    static func distance(_ function: String, _ a: String, _ b: String) throws -> SQLiteValue {
        try connection().query("SELECT \(function)(?1, ?2)", [.text(a), .text(b)]).first?[0] ?? .null
    }

    /// The reference distances, from the numbers as Swift reads them.
    static func expected(_ a: [Double], _ b: [Double]) -> (l2: Double, cosine: Double, ip: Double) {
        var squares = 0.0
        var dot = 0.0
        var normA = 0.0
        var normB = 0.0
        for (x, y) in zip(a, b) {
            squares += (x - y) * (x - y)
            dot += x * y
            normA += x * x
            normB += y * y
        }
        return (squares.squareRoot(), 1 - dot / (normA * normB).squareRoot(), -dot)
    }

    @Test(arguments: [
        ["0.1", "-0.25", "3", "1e-3"],
        ["0.123456789012345", "-12345.678901", "6.02214076e23", "-1.5E-7"],
        ["0.1234567890123456789", "100000000000000000000", "4.9e-324", "0"],
        ["-0.0", "7", "0.000000000000000000000000123", "2.5e+2"],
    ])
    func readsEveryJSONNumberAsSwiftDoes(_ texts: [String]) throws {
        // given
        let a = texts.map { Double($0)! }
        let b: [Double] = [0.5, -1.25, 2, 8]
        let aText = "[" + texts.joined(separator: ", ") + "]"
        let bText = "[0.5,-1.25,2,8]"

        // when
        let reference = Self.expected(a, b)

        // then
        #expect(try Self.distance("l2", aText, bText) == .real(reference.l2))
        #expect(try Self.distance("cosine", aText, bText) == .real(reference.cosine))
        #expect(try Self.distance("ip", aText, bText) == .real(reference.ip))
    }

    @Test(arguments: [
        "[1, 2]", "[1, 2, 3, 4, 5]", "[1, \"2\", 3, 4]", "{}", "[1, 2, 3, 4", "[1,,2,3]", "[-, 1, 2, 3]",
        "[1e, 2, 3, 4]",
    ])
    func anythingButAVectorOfTheComparedSizeIsNull(_ text: String) throws {
        #expect(try Self.distance("l2", text, "[1, 2, 3, 4]") == .null)
    }

    @Test(arguments: [
        ("[0.1, -2.5, 3e-7, 42]", "[1, 2, 3, 4]"), ("[1e300, 1, 0, -0.0]", "[0.5, 0.25, 0.125, 0.0625]"),
        ("[0.30000000000000004, 1.7976931348623157e308, 5e-324, -1]", "[1, 1, 1, 1]"),
    ])
    func aBlobCopyHasTheDistancesOfItsText(_ a: String, _ b: String) throws {
        // given
        let connection = try Self.connection()
        try connection.createVectorBlobFunction("vector_blob")
        for function in ["l2", "cosine", "ip"] {
            // when
            let fromText = try connection.query("SELECT \(function)(?1, ?2)", [.text(a), .text(b)]).first?[0]
            let fromBlob = try connection.query(
                "SELECT \(function)(vector_blob(?1), ?2)", [.text(a), .text(b)]
            ).first?[0]
            // then: the same bits
            #expect(fromBlob == fromText, "\(function)(\(a), \(b))")
        }
        let size = try connection.query("SELECT length(vector_blob(?1))", [.text(a)]).first?[0]
        #expect(size == .integer(32))
    }

    @Test func aBlobOfAnythingButAVectorIsNullAndAMisSizedBlobHasNoDistance() throws {
        let connection = try Self.connection()
        try connection.createVectorBlobFunction("vector_blob")
        for text in ["{}", "[1, \"2\"]", "[1,,2]"] {
            #expect(try connection.query("SELECT vector_blob(?1)", [.text(text)]).first?[0] == .null, "\(text)")
        }
        #expect(try connection.query("SELECT vector_blob(NULL)").first?[0] == .null)
        let short = try connection.query("SELECT l2(vector_blob('[1, 2]'), '[1, 2, 3]')").first?[0]
        #expect(short == .null)
        let ragged = try connection.query("SELECT l2(x'0102030405', '[1]')").first?[0]
        #expect(ragged == .null)
    }

    @Test func theCosineOfAZeroVectorIsNull() throws {
        #expect(try Self.distance("cosine", "[0, 0]", "[1, 2]") == .null)
        #expect(try Self.distance("l2", "[0, 0]", "[3, 4]") == .real(5))
    }
}
