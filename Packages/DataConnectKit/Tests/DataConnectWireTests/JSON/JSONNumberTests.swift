import DataConnectWire
import Testing

@Suite struct JSONNumberTests {
    @Test func keepsIntegersBeyondDoublePrecision() throws {
        // given 2^53 + 1, which a Double cannot hold
        let value = try JSONValue(parsing: "9007199254740993")

        // when it is read back
        let number = try #require(value.numberValue)

        // then the integer is exact, the double rounded, and the text unchanged
        #expect(number.int64Value == 9_007_199_254_740_993)
        #expect(number.doubleValue == 9_007_199_254_740_992)
        #expect(value.jsonString() == "9007199254740993")
    }

    @Test func keepsHugeNumbersAsText() throws {
        // given integers and exponents beyond Int64 and Double
        let text = "[123456789012345678901234567890,-9223372036854775809,1e400,-1e400,1E-400]"

        // when parsed and written back
        let value = try JSONValue(parsing: text)

        // then the text survives exactly
        #expect(value.jsonString() == text)
        #expect(value[0]?.int64Value == nil)
        #expect(value[0]?.numberValue?.isInteger == true)
        #expect(value[1]?.int64Value == nil)
        #expect(value[2]?.doubleValue == .infinity)
        #expect(value[3]?.doubleValue == -.infinity)
        #expect(value[4]?.doubleValue == 0)
    }

    @Test func keepsNegativeZero() throws {
        // given negative zero as an integer and as a fraction
        let value = try JSONValue(parsing: "[-0,-0.0]")

        // when read back
        let integer = try #require(value[0]?.numberValue)

        // then it keeps its sign in text and as a double, and equals zero
        #expect(value.jsonString() == "[-0,-0.0]")
        #expect(integer.doubleValue == 0 && integer.doubleValue.sign == .minus)
        #expect(integer.int64Value == 0)
        #expect(integer == 0)
    }

    @Test func readsExponentsAndFractions() throws {
        // given numbers with exponents in every spelling
        let value = try JSONValue(parsing: "[1E-2,1e2,1.5e+1,2.50,1e007]")

        // then values and integer-ness follow the mathematics, and the text is kept
        #expect(value[0]?.doubleValue == 0.01)
        #expect(value[0]?.numberValue?.isInteger == false)
        #expect(value[1]?.int64Value == 100)
        #expect(value[2]?.int64Value == 15)
        #expect(value[3]?.doubleValue == 2.5)
        #expect(value[3]?.int64Value == nil)
        #expect(value[4]?.int64Value == 10_000_000)
        #expect(value.jsonString() == "[1E-2,1e2,1.5e+1,2.50,1e007]")
    }

    @Test func readsInt64Limits() throws {
        // given the smallest and largest Int64
        let value = try JSONValue(parsing: "[-9223372036854775808,9223372036854775807]")

        // then both are exact
        #expect(value[0]?.int64Value == .min)
        #expect(value[1]?.int64Value == .max)
        #expect(value.jsonString() == "[-9223372036854775808,9223372036854775807]")
    }

    @Test func comparesByValue() throws {
        // given spellings of the same values
        let one = try JSONValue(parsing: "[1,1.0,10e-1,0.1e1,1e0]")
        let elements = try #require(one.arrayValue)

        // then they are equal and hash alike; different values are not equal
        for element in elements {
            #expect(element == elements[0])
            #expect(element.hashValue == elements[0].hashValue)
        }
        #expect(JSONValue(0.1) == (try JSONValue(parsing: "0.1")))
        #expect(JSONValue(1.5) != (try JSONValue(parsing: "1.50001")))
        #expect(JSONValue(2) != JSONValue(3))
        #expect((try JSONValue(parsing: "9007199254740993")) != (try JSONValue(parsing: "9007199254740992")))
    }

    @Test func validatesLiterals() {
        // given candidate number texts
        // then only RFC 8259 numbers are accepted
        #expect(JSONNumber(literal: "1.5e3")?.int64Value == 1500)
        #expect(JSONNumber(literal: "-0")?.text == "-0")
        for bad in ["", "01", "+1", ".5", "1.", "1e", "--1", "1 ", "0x1", "inf", "NaN"] {
            #expect(JSONNumber(literal: bad) == nil, "\(bad)")
        }
    }

    @Test func convertsToInt() {
        // given numbers inside and outside Int range
        // then intValue is exact or nil
        #expect(JSONNumber(42).intValue == 42)
        #expect(JSONNumber(4.0).intValue == 4)
        #expect(JSONNumber(4.5).intValue == nil)
        #expect(JSONNumber(Double.nan).intValue == nil)
        #expect(JSONNumber(Double.infinity).isInteger == false)
    }
}
