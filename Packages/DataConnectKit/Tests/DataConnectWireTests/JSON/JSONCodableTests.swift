import DataConnectWire
import Foundation
import Testing

@Suite struct JSONCodableTests {
    private struct Envelope: Codable, Equatable {
        var operationName: String
        var variables: JSONValue
    }

    @Test func decodesInsideCodableTypes() throws {
        // given a body with free-form variables
        let body = #"{"operationName":"Get","variables":{"id":"m1","limit":10,"min":2.5,"flags":[true,null]}}"#

        // when decoded with JSONDecoder
        let envelope = try JSONDecoder().decode(Envelope.self, from: Data(body.utf8))

        // then the variables arrive as JSON values
        #expect(envelope.variables == ["id": "m1", "limit": 10, "min": 2.5, "flags": [true, nil]])
    }

    @Test func encodesThroughJSONEncoder() throws {
        // given a value holding every case
        let envelope = Envelope(operationName: "Get", variables: ["n": 1, "d": 0.5, "s": "x", "b": false, "z": nil])

        // when encoded and decoded again with Foundation
        let data = try JSONEncoder().encode(envelope)
        let decoded = try JSONDecoder().decode(Envelope.self, from: data)

        // then nothing changes, and our reader agrees with the encoder's bytes
        #expect(decoded == envelope)
        #expect(try JSONReader().parse(data)["variables"] == envelope.variables)
    }
}
