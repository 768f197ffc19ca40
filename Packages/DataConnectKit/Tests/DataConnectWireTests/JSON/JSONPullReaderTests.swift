import DataConnectWire
import Testing

@Suite struct JSONPullReaderTests {
    /// Reads `text` with `body`, then checks that nothing follows.
    func pull<T>(_ text: String, _ body: (inout JSONPullReader) throws(JSONError) -> T) throws(JSONError) -> T {
        let bytes = Array(text.utf8)
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONError) -> T in
                var reader = try JSONPullReader(buffer)
                let value = try body(&reader)
                try reader.finish()
                return value
            }
        }
        return try result.get()
    }

    /// Walks any document back into a value through the pull calls.
    func rebuild(_ reader: inout JSONPullReader) throws(JSONError) -> JSONValue {
        switch try reader.peek() {
        case .object:
            try reader.beginObject()
            var object = JSONObject()
            while let key = try reader.nextKey() { object[key] = try rebuild(&reader) }
            return .object(object)
        case .array:
            try reader.beginArray()
            var elements: [JSONValue] = []
            while try reader.nextElement() { elements.append(try rebuild(&reader)) }
            return .array(elements)
        case .string: return .string(try reader.readString())
        case .number: return .number(try reader.readNumber())
        case .bool: return .bool(try reader.readBool())
        case .null:
            try reader.readNull()
            return .null
        }
    }

    @Test func walksADocumentLikeTheReader() throws {
        let text = #" {"a": [1, -2.5e3, true, false, null, "x\ny", {}, []], "b": {"c\"": {"d": "é"}}} "#
        #expect(try pull(text) { reader throws(JSONError) in try rebuild(&reader) } == JSONValue(parsing: text))
    }

    @Test func mixesStreamedAndWholeValues() throws {
        let keys = try pull(#"{"skip": [1, {"deep": [2]}], "take": {"x": 1}, "k\u00e9y": "v"}"#) {
            reader throws(JSONError) in
            try reader.beginObject()
            var keys: [String] = []
            while let key = try reader.withNextKey({ String(decoding: $0, as: UTF8.self) }) {
                keys.append(key)
                if key == "take" {
                    #expect(try reader.readValue() == ["x": 1])
                } else if key == "kéy" {
                    #expect(try reader.withStringBytes { Array($0) } == [0x76])
                } else {
                    try reader.skipValue()
                }
            }
            return keys
        }
        #expect(keys == ["skip", "take", "kéy"])
    }

    @Test(arguments: [#"{"a":1,}"#, #"[1,]"#, #"{"a" 1}"#, #"[1 2]"#, #"{,}"#, #"[1"#, #"{"a":1} x"#, ""])
    func refusesWhatTheReaderRefuses(text: String) {
        #expect(throws: JSONError.self) { try pull(text) { reader throws(JSONError) in try rebuild(&reader) } }
        #expect(throws: JSONError.self) { try JSONValue(parsing: text) }
    }

    @Test func limitsNesting() {
        let text = String(repeating: "[", count: 20) + String(repeating: "]", count: 20)
        let bytes = Array(text.utf8)
        #expect(throws: JSONError.self) {
            try bytes.withUnsafeBufferPointer { buffer throws(JSONError) in
                var reader = try JSONPullReader(buffer, options: .init(maxDepth: 10))
                _ = try rebuild(&reader)
            }
        }
    }
}
