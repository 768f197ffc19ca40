import DataConnectWire

/// Turns the JSON body the engine answers (`{"data": …, "errors": […], "extensions": {"dataConnect": […]}}`)
/// straight into protobuf response bytes, without building a ``JSONValue`` tree for `data`.
///
/// `data`, the bulk of an answer, is read with ``JSONPullReader`` and written as a `Struct` as it is read; `errors`
/// and `extensions` are small and go through ``GraphQLResponse/init(json:)``, so they are checked exactly as the
/// JSON wire checks them. The bytes are those of
/// `GraphQLResponse(json: JSONValue(parsing: json)).protobufBytes()`, fields in the order the JSON has them, which
/// `make bench` (`kit-bench`) shows to be several times slower.
///
/// ```swift
/// let message = try ResponseTranscoder.executeResponse(json: engineAnswer)  // an ExecuteQueryResponse
/// let parts = try ResponseTranscoder.streamResponseParts(json: engineAnswer, dataEtag: etag, cancelled: false)
/// let forSubscriber = parts.message(requestId: "1")  // a StreamResponse
/// ```
public enum ResponseTranscoder {
    /// An `ExecuteQueryResponse` or `ExecuteMutationResponse` from a JSON response body.
    ///
    /// - Parameter json: The response body: an object with optional `data`, `errors` and `extensions`; other
    ///   members are ignored.
    /// - Returns: The serialized message.
    /// - Throws: ``ProtobufError`` of kind ``ProtobufError/Kind/invalidJSON`` for malformed JSON or members of the
    ///   wrong shape (`data` neither an object nor `null`); of kind ``ProtobufError/Kind/invalidValue`` for a
    ///   `maxAge` that is not a duration.
    public static func executeResponse(json: [UInt8]) throws(ProtobufError) -> [UInt8] {
        try transcode(json: json, layout: .execute) { _ in }
    }

    /// The fields of a `StreamResponse` that all subscribers of a result share, from a JSON response body.
    ///
    /// - Parameters:
    ///   - json: The response body, as for ``executeResponse(json:)``.
    ///   - dataEtag: The etag of `data`; `nil` or empty leaves it out.
    ///   - cancelled: Whether the server no longer serves the request; `false` leaves it out.
    /// - Returns: The shared fields; ``StreamResponseParts/message(requestId:)`` makes each subscriber's message.
    /// - Throws: ``ProtobufError`` as ``executeResponse(json:)`` does.
    public static func streamResponseParts(
        json: [UInt8], dataEtag: String?, cancelled: Bool
    ) throws(ProtobufError) -> StreamResponseParts {
        let fields = try transcode(json: json, layout: .stream) { writer in
            StreamResponseParts.writeEtagAndCancelled(dataEtag: dataEtag, cancelled: cancelled, to: &writer)
        }
        return StreamResponseParts(sharedFields: fields)
    }

    /// Transcodes a response body; `middle` writes the fields numbered between `errors` and `extensions`.
    static func transcode(
        json: [UInt8], layout: ResponseLayout, middle: (inout ProtobufWriter) -> Void
    ) throws(ProtobufError) -> [UInt8] {
        var writer = ProtobufWriter(capacity: json.count)
        let outcome = json.withUnsafeBufferPointer { buffer in
            Result { () throws(ProtobufError) -> Void in
                var reader = try TranscodingReader(buffer)
                var wroteMiddle = false
                guard try reader.peek() == .object else {
                    throw ProtobufError(.invalidJSON, "expected a response object")
                }
                try reader.beginObject()
                while let key = try reader.nextKey() {
                    switch key {
                    case "data":
                        try transcodeData(&reader, field: layout.data, to: &writer)
                    case "errors":
                        let value = try reader.readValue()
                        let response = try wireResponse(["errors": value])
                        for error in response.errors {
                            writer.beginMessage(layout.errors)
                            error.writeFields(to: &writer)
                            writer.endMessage()
                        }
                    case "extensions":
                        let value = try reader.readValue()
                        let response = try wireResponse(["extensions": value])
                        if !wroteMiddle {
                            middle(&writer)
                            wroteMiddle = true
                        }
                        if !response.extensions.dataConnect.isEmpty {
                            writer.beginMessage(layout.extensions)
                            defer { writer.endMessage() }
                            do throws(ProtobufError) {
                                try response.extensions.writeFields(to: &writer)
                            } catch {
                                throw error.within("extensions")
                            }
                        }
                    default:
                        try reader.skipValue()
                    }
                }
                try reader.finish()
                if !wroteMiddle { middle(&writer) }
            }
        }
        try outcome.get()
        return writer.bytes
    }

    /// Reads members through the JSON wire type, turning its errors into transcoding errors.
    private static func wireResponse(_ object: JSONObject) throws(ProtobufError) -> GraphQLResponse {
        do {
            return try GraphQLResponse(json: .object(object))
        } catch {
            throw ProtobufError(.invalidJSON, error.message, path: error.field.map { [$0] } ?? [])
        }
    }

    /// Writes `data` as a `Struct` field; `null` writes nothing.
    private static func transcodeData(
        _ reader: inout TranscodingReader, field: Int, to writer: inout ProtobufWriter
    ) throws(ProtobufError) {
        switch try reader.peek() {
        case .null:
            try reader.skipValue()
        case .object:
            writer.beginMessage(field)
            try transcodeStructFields(&reader, to: &writer)
            writer.endMessage()
        default:
            throw ProtobufError(.invalidJSON, "data must be an object or null", path: ["data"])
        }
    }

    /// Reads an object and writes it as the fields of a `Struct`.
    private static func transcodeStructFields(
        _ reader: inout TranscodingReader, to writer: inout ProtobufWriter
    ) throws(ProtobufError) {
        try reader.beginObject()
        while try reader.withNextKey({ key in
            writer.beginMessage(1)
            writer.writeBytes(1, key)
        }) != nil {
            writer.beginMessage(2)
            try transcodeValueFields(&reader, to: &writer)
            writer.endMessage()
            writer.endMessage()
        }
    }

    /// Reads a value and writes it as the one field of a `Value`.
    private static func transcodeValueFields(
        _ reader: inout TranscodingReader, to writer: inout ProtobufWriter
    ) throws(ProtobufError) {
        switch try reader.peek() {
        case .string:
            try reader.withStringBytes { writer.writeBytes(3, $0) }
        case .number:
            StructCodec.writeNumberValue(try reader.readNumber().doubleValue, to: &writer)
        case .object:
            writer.beginMessage(5)
            try transcodeStructFields(&reader, to: &writer)
            writer.endMessage()
        case .array:
            writer.beginMessage(6)
            try reader.beginArray()
            while try reader.nextElement() {
                writer.beginMessage(1)
                try transcodeValueFields(&reader, to: &writer)
                writer.endMessage()
            }
            writer.endMessage()
        case .bool:
            writer.writeBool(4, try reader.readBool())
        case .null:
            try reader.skipValue()
            writer.writeUInt64(1, 0)
        }
    }
}

/// ``JSONPullReader`` with its errors as ``ProtobufError``s.
private struct TranscodingReader {
    var json: JSONPullReader

    init(_ buffer: UnsafeBufferPointer<UInt8>) throws(ProtobufError) {
        do { json = try JSONPullReader(buffer) } catch { throw ProtobufError(json: error) }
    }

    mutating func peek() throws(ProtobufError) -> JSONPullReader.ValueKind {
        do { return try json.peek() } catch { throw ProtobufError(json: error) }
    }

    mutating func beginObject() throws(ProtobufError) {
        do { try json.beginObject() } catch { throw ProtobufError(json: error) }
    }

    mutating func nextKey() throws(ProtobufError) -> String? {
        do { return try json.nextKey() } catch { throw ProtobufError(json: error) }
    }

    mutating func withNextKey(_ body: (UnsafeBufferPointer<UInt8>) -> Void) throws(ProtobufError) -> Void? {
        do { return try json.withNextKey(body) } catch { throw ProtobufError(json: error) }
    }

    mutating func beginArray() throws(ProtobufError) {
        do { try json.beginArray() } catch { throw ProtobufError(json: error) }
    }

    mutating func nextElement() throws(ProtobufError) -> Bool {
        do { return try json.nextElement() } catch { throw ProtobufError(json: error) }
    }

    mutating func withStringBytes(_ body: (UnsafeBufferPointer<UInt8>) -> Void) throws(ProtobufError) {
        do { try json.withStringBytes(body) } catch { throw ProtobufError(json: error) }
    }

    mutating func readNumber() throws(ProtobufError) -> JSONNumber {
        do { return try json.readNumber() } catch { throw ProtobufError(json: error) }
    }

    mutating func readBool() throws(ProtobufError) -> Bool {
        do { return try json.readBool() } catch { throw ProtobufError(json: error) }
    }

    mutating func readValue() throws(ProtobufError) -> JSONValue {
        do { return try json.readValue() } catch { throw ProtobufError(json: error) }
    }

    mutating func skipValue() throws(ProtobufError) {
        do { try json.skipValue() } catch { throw ProtobufError(json: error) }
    }

    func finish() throws(ProtobufError) {
        do { try json.finish() } catch { throw ProtobufError(json: error) }
    }
}
