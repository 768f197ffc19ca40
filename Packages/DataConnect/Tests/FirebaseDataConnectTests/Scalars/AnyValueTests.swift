import DataConnectWire
import Foundation
import Testing

@testable import FirebaseDataConnect

@Suite struct AnyValueTests {
    struct Settings: Codable, Equatable {
        var theme: String
        var sizes: [Int]
        var nested: [String: Double]
    }

    @Test func roundTripsObjects() throws {
        // given
        let settings = Settings(theme: "dark", sizes: [1, 2, 3], nested: ["ratio": 1.5])

        // when
        let value = try AnyValue(codableValue: settings)
        let decoded = try value.decodeValue(Settings.self)

        // then
        #expect(decoded == settings)
        #expect(value.jsonValue["nested"]?["ratio"]?.doubleValue == 1.5)
    }

    @Test func roundTripsArraysNumbersAndNull() throws {
        // given
        let array = try AnyValue(codableValue: [1, 2, 3])
        let number = try AnyValue(codableValue: 8.25)
        let null = try AnyValue(codableValue: String?.none)

        // then
        #expect(try array.decodeValue([Int].self) == [1, 2, 3])
        #expect(try number.decodeValue(Double.self) == 8.25)
        #expect(try null.decodeValue(String.self) == nil)
        #expect(array.description == "[1,2,3]")
    }

    @Test func encodesAsPlainJSONInsideOtherValues() throws {
        // given
        struct Row: Codable, Equatable { var payload: AnyValue }
        let json = #"{"payload":{"a":[true,null,"x",-2]}}"#

        // when
        let row = try JSONDecoder().decode(Row.self, from: Data(json.utf8))
        let written = try JSONEncoder().encode(row)
        let reread = try JSONDecoder().decode(Row.self, from: written)

        // then
        #expect(row.payload.jsonValue == ["a": [true, nil, "x", -2]])
        #expect(reread == row)
        #expect(try JSONValue(parsing: Array(written)) == JSONValue(parsing: json))
    }

    @Test func comparesByJSONValueNotKeyOrder() throws {
        // given
        let first = AnyValue(jsonValue: try JSONValue(parsing: #"{"a":1,"b":2}"#))
        let second = AnyValue(jsonValue: try JSONValue(parsing: #"{"b":2,"a":1}"#))

        // then
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(first != AnyValue(jsonValue: ["a": 1]))
    }

    @Test func reportsTypeMismatchAsCodecError() throws {
        // given
        let value = try AnyValue(codableValue: "text")

        // when / then
        #expect {
            try value.decodeValue(Int.self)
        } throws: { error in
            (error as? DataConnectCodecError)?.code == .decodingFailed
        }
    }
}
