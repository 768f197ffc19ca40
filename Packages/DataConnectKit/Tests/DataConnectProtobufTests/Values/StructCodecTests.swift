import DataConnectProtobuf
import DataConnectWire
import Testing

@Suite struct StructCodecTests {
    @Test func roundTripsEveryKindInOrder() throws {
        // given
        let object: JSONObject = [
            "null": nil, "true": true, "int": 42, "negative": -7, "fraction": 0.25, "big": 1e300, "string": "Ålien 🎬",
            "list": [1, "two", [3], ["four": 4]], "object": ["nested": ["deeper": []]], "empty": [:],
        ]
        // when
        let decoded = try JSONObject(protobufStruct: object.protobufStructBytes())
        // then
        #expect(decoded == object)
        #expect(decoded.keys == object.keys)
    }

    @Test func writesTheExactBytesProtobufDoes() {
        // Struct { fields { key: "a" value { number_value: 1 } } }
        let bytes = (["a": 1] as JSONObject).protobufStructBytes()
        #expect(bytes == [0x0A, 0x0E, 0x0A, 0x01, 0x61, 0x12, 0x09, 0x11, 0, 0, 0, 0, 0, 0, 0xF0, 0x3F])
        #expect(JSONValue.null.protobufValueBytes() == [0x08, 0x00])
        #expect(JSONValue.bool(false).protobufValueBytes() == [0x20, 0x00])
        #expect(JSONValue.object([:]).protobufValueBytes() == [0x2A, 0x00])
    }

    @Test func integralDoublesReadAsIntegers() throws {
        // given: 42.0 and 2^53 on the wire
        let value = try JSONValue(protobufValue: JSONValue(42.0).protobufValueBytes())
        let limit = try JSONValue(protobufValue: JSONValue(9_007_199_254_740_992.0).protobufValueBytes())
        let beyond = try JSONValue(protobufValue: JSONValue(18_014_398_509_481_984.0).protobufValueBytes())
        // then
        #expect(value.description == "42")
        #expect(value.int64Value == 42)
        #expect(limit.description == "9007199254740992")
        #expect(beyond == JSONValue(18_014_398_509_481_984.0))  // beyond 2^53: a double
        #expect(beyond.description == "1.8014398509481984e+16")
        #expect(try JSONValue(protobufValue: JSONValue(0.5).protobufValueBytes()).description == "0.5")
    }

    @Test func refusesNaNAndInfinity() {
        for bits in [Double.nan.bitPattern, Double.infinity.bitPattern, (-Double.infinity).bitPattern] {
            var writer = ProtobufWriter()
            writer.beginMessage(1)
            writer.writeString(1, "score")
            writer.beginMessage(2)
            writer.writeTag(2, .fixed64)
            writer.writeFixed64(bits)
            writer.endMessage()
            writer.endMessage()
            do {
                _ = try JSONObject(protobufStruct: writer.bytes)
                Issue.record("a non-finite number was accepted")
            } catch {
                #expect(error.kind == .invalidValue)
                #expect(error.fieldPath == #"fields["score"].number_value"#)
                #expect(error.reason.hasSuffix("cannot be a JSON number (NaN and infinities have no JSON form)"))
            }
        }
    }

    @Test func writesNonFiniteNumbersAsNull() throws {
        let value = try JSONValue(protobufValue: JSONValue(Double.infinity).protobufValueBytes())
        #expect(value == .null)
    }

    @Test func readsMissingKeyAndValueAsDefaults() throws {
        // entry without value, entry without key, Value without a kind
        let bytes: [UInt8] =
            [0x0A, 0x03, 0x0A, 0x01, 0x61, 0x0A, 0x04, 0x12, 0x02, 0x20, 0x01]
            + [0x0A, 0x05, 0x0A, 0x01, 0x62, 0x12, 0x00]
        #expect(try JSONObject(protobufStruct: bytes) == ["a": nil, "": true, "b": nil])
    }

    @Test func repeatedKeyKeepsFirstPositionAndLastValue() throws {
        let first = (["k": 1, "other": 2] as JSONObject).protobufStructBytes()
        let second = (["k": 3] as JSONObject).protobufStructBytes()
        let merged = try JSONObject(protobufStruct: first + second)
        #expect(merged.keys == ["k", "other"])
        #expect(merged["k"] == 3)
    }

    @Test func lastKindWinsAndMessagesMerge() throws {
        let bytes =
            JSONValue.string("s").protobufValueBytes() + JSONValue.object(["a": 1]).protobufValueBytes()
            + JSONValue.object(["b": 2]).protobufValueBytes()
        #expect(try JSONValue(protobufValue: bytes) == ["a": 1, "b": 2])
        let lists = JSONValue.array([1]).protobufValueBytes() + JSONValue.array([2]).protobufValueBytes()
        #expect(try JSONValue(protobufValue: lists) == [1, 2])
        let replaced = JSONValue.array([1]).protobufValueBytes() + JSONValue.bool(true).protobufValueBytes()
        #expect(try JSONValue(protobufValue: replaced) == true)
    }

    @Test func emptyValueReadsAsNull() throws {
        #expect(try JSONValue(protobufValue: []) == .null)
    }
}

@Suite struct ProtobufDurationTests {
    @Test(arguments: [
        ("30s", 30, 0), ("1.5s", 1, 500_000_000), ("0.000000001s", 0, 1), ("-3s", -3, 0),
        ("-0.25s", 0, -250_000_000), ("315576000000s", 315_576_000_000, 0),
    ])
    func readsJSONForm(text: String, seconds: Int64, nanos: Int32) {
        #expect(ProtobufDuration(text: text) == ProtobufDuration(seconds: seconds, nanos: nanos))
    }

    @Test(arguments: ["", "s", "30", "1.s", "1.1234567891s", "+1s", "1e3s", "315576000001s", "--1s", "1.-5s"])
    func refusesMalformedText(text: String) {
        #expect(ProtobufDuration(text: text) == nil)
    }

    @Test func writesJSONFormWithZeroThreeSixOrNineDigits() {
        #expect(ProtobufDuration(seconds: 30).text == "30s")
        #expect(ProtobufDuration(seconds: 1, nanos: 500_000_000).text == "1.500s")
        #expect(ProtobufDuration(seconds: 0, nanos: 1_500).text == "0.000001500s")
        #expect(ProtobufDuration(seconds: 0, nanos: 1_500_000).text == "0.001500s")
        #expect(ProtobufDuration(seconds: 0, nanos: 1).text == "0.000000001s")
        #expect(ProtobufDuration(seconds: -1, nanos: -100_000_000).text == "-1.100s")
        #expect(ProtobufDuration(seconds: 0, nanos: -250_000_000).text == "-0.250s")
    }
}
