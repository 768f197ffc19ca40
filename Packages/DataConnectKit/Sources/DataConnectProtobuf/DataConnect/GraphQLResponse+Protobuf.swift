import DataConnectWire

/// Where `data`, `errors` and `extensions` go in a response message: `ExecuteQueryResponse` and
/// `ExecuteMutationResponse` number them 1, 2, 3; `StreamResponse` 2, 3, 6.
struct ResponseLayout: Sendable {
    /// `google.protobuf.Struct data`.
    var data: Int
    /// `repeated GraphqlError errors`.
    var errors: Int
    /// `GraphqlResponseExtensions extensions`.
    var extensions: Int
    /// The names of the message's other fields, for error paths.
    var otherNames: [Int: String] = [:]

    /// `ExecuteQueryResponse` and `ExecuteMutationResponse`.
    static let execute = ResponseLayout(data: 1, errors: 2, extensions: 3)
    /// `StreamResponse`.
    static let stream = ResponseLayout(
        data: 2, errors: 3, extensions: 6, otherNames: [1: "request_id", 4: "data_etag", 5: "cancelled"])

    /// The field name of `number`, for error paths.
    func name(of number: Int) -> String {
        switch number {
        case data: "data"
        case errors: "errors"
        case extensions: "extensions"
        default: otherNames[number] ?? "\(number)"
        }
    }
}

/// `ExecuteQueryResponse` and `ExecuteMutationResponse` of `google.firebase.dataconnect.v1` (the same fields):
/// `data = 1` (a `Struct`), `errors = 2` (repeated ``GraphQLError``), `extensions = 3` (``Extensions``).
///
/// An absent or `null` ``data`` is not written and reads back as `nil`; an empty `dataConnect` list leaves
/// `extensions` out.
///
/// ```swift
/// let bytes = try GraphQLResponse(data: ["movie": ["id": "m1"]]).protobufBytes()
/// let response = try GraphQLResponse(protobuf: bytes)
/// ```
extension GraphQLResponse {
    /// Reads a serialized `ExecuteQueryResponse` or `ExecuteMutationResponse`.
    ///
    /// - Throws: ``ProtobufError`` for malformed bytes, or values JSON cannot hold.
    public init(protobuf bytes: [UInt8]) throws(ProtobufError) {
        var reader = ProtobufReader(bytes)
        self.init(data: nil)
        try mergeFields(from: &reader, layout: .execute) { _, _, _ throws(ProtobufError) in false }
    }

    /// The response as a serialized `ExecuteQueryResponse` or `ExecuteMutationResponse`.
    ///
    /// - Throws: ``ProtobufError`` when ``data`` is neither an object nor `null`, or a `maxAge` is not a duration.
    public func protobufBytes() throws(ProtobufError) -> [UInt8] {
        var writer = ProtobufWriter()
        try writeFields(to: &writer, layout: .execute) { _ in }
        return writer.bytes
    }

    /// Writes `data`, `errors`, then whatever `middle` writes, then `extensions`, so that the fields of a
    /// `StreamResponse` stay in number order.
    func writeFields(
        to writer: inout ProtobufWriter, layout: ResponseLayout, middle: (inout ProtobufWriter) -> Void
    ) throws(ProtobufError) {
        try Self.writeData(data, field: layout.data, to: &writer)
        for error in errors {
            writer.beginMessage(layout.errors)
            error.writeFields(to: &writer)
            writer.endMessage()
        }
        middle(&writer)
        if !extensions.dataConnect.isEmpty {
            writer.beginMessage(layout.extensions)
            defer { writer.endMessage() }
            do throws(ProtobufError) {
                try extensions.writeFields(to: &writer)
            } catch {
                throw error.within("extensions")
            }
        }
    }

    /// Writes `data` as a `Struct` field; `nil` and `null` write nothing.
    static func writeData(_ data: JSONValue?, field: Int, to writer: inout ProtobufWriter) throws(ProtobufError) {
        switch data {
        case nil, .null?:
            return
        case .object(let object)?:
            writer.beginMessage(field)
            StructCodec.writeStructFields(object, to: &writer)
            writer.endMessage()
        case let other?:
            throw ProtobufError(
                .invalidValue, "data must be an object or null to travel as a Struct, found \(other)", path: ["data"])
        }
    }

    /// Reads the fields of a response message over what is already there; fields the layout does not name go to
    /// `other`, which returns whether it read them.
    mutating func mergeFields(
        from reader: inout ProtobufReader, layout: ResponseLayout,
        other: (Int, ProtobufWireType, inout ProtobufReader) throws(ProtobufError) -> Bool
    ) throws(ProtobufError) {
        while let (field, wireType) = try reader.nextField() {
            do throws(ProtobufError) {
                switch (field, wireType) {
                case (layout.data, .lengthDelimited):
                    var object = JSONObject()
                    if case .object(let existing)? = data {
                        object = existing
                        data = nil
                    }
                    var structReader = try reader.readMessage()
                    try StructCodec.mergeStruct(from: &structReader, into: &object)
                    data = .object(object)
                case (layout.errors, .lengthDelimited):
                    do throws(ProtobufError) {
                        var errorReader = try reader.readMessage()
                        var error = GraphQLError(message: "")
                        try error.merge(from: &errorReader)
                        errors.append(error)
                    } catch {
                        throw error.within("[\(errors.count)]")
                    }
                case (layout.extensions, .lengthDelimited):
                    var extensionsReader = try reader.readMessage()
                    try extensions.merge(from: &extensionsReader)
                default:
                    if try !other(field, wireType, &reader) {
                        try reader.skipField(wireType)
                    }
                }
            } catch {
                throw error.within(layout.name(of: field))
            }
        }
    }
}

/// `StreamResponse` of `google.firebase.dataconnect.v1`: `request_id = 1`, `data = 2`, `errors = 3`,
/// `data_etag = 4`, `cancelled = 5`, `extensions = 6`.
///
/// An empty or absent `dataEtag` is not written and reads back as `nil`; `cancelled` is written only when `true`.
extension StreamResponse {
    /// Reads a serialized `StreamResponse`.
    ///
    /// - Throws: ``ProtobufError`` for malformed bytes, or values JSON cannot hold.
    public init(protobuf bytes: [UInt8]) throws(ProtobufError) {
        var reader = ProtobufReader(bytes)
        var response = GraphQLResponse(data: nil)
        var requestId = ""
        var dataEtag: String?
        var cancelled = false
        try response.mergeFields(from: &reader, layout: .stream) {
            field, wireType, reader throws(ProtobufError) in
            switch (field, wireType) {
            case (1, .lengthDelimited):
                requestId = try reader.readString()
            case (4, .lengthDelimited):
                let etag = try reader.readString()
                dataEtag = etag.isEmpty ? nil : etag
            case (5, .varint):
                cancelled = try reader.readBool()
            default:
                return false
            }
            return true
        }
        self.init(
            requestId: requestId, data: response.data, errors: response.errors, extensions: response.extensions,
            dataEtag: dataEtag, cancelled: cancelled)
    }

    /// The response as a serialized `StreamResponse`.
    ///
    /// - Throws: ``ProtobufError`` when ``data`` is neither an object nor `null`, or a `maxAge` is not a duration.
    public func protobufBytes() throws(ProtobufError) -> [UInt8] {
        let parts = try StreamResponseParts(
            response: GraphQLResponse(data: data, errors: errors, extensions: extensions), dataEtag: dataEtag,
            cancelled: cancelled)
        return parts.message(requestId: requestId)
    }
}

/// The fields of a `StreamResponse` that every subscriber of a result shares, encoded once.
///
/// A protobuf message is the concatenation of its fields, so a result going to many subscribers is encoded once
/// (`data`, `errors`, `data_etag`, `cancelled`, `extensions`) and each subscriber's message is its own
/// `request_id` field followed by those bytes.
///
/// ```swift
/// let parts = try StreamResponseParts(response: result, dataEtag: etag, cancelled: false)
/// for subscriber in subscribers {
///     subscriber.send(parts.message(requestId: subscriber.requestId))
/// }
/// ```
public struct StreamResponseParts: Hashable, Sendable {
    /// Every field but `request_id`, in number order.
    public var sharedFields: [UInt8]

    /// Wraps shared fields already encoded (by ``ResponseTranscoder/streamResponseParts(json:dataEtag:cancelled:)``).
    public init(sharedFields: [UInt8]) {
        self.sharedFields = sharedFields
    }

    /// Encodes a result's shared fields.
    ///
    /// - Parameters:
    ///   - response: The result: `data`, `errors` and `extensions`.
    ///   - dataEtag: The etag of `data`; `nil` or empty leaves it out.
    ///   - cancelled: Whether the server no longer serves the request; `false` leaves it out.
    /// - Throws: ``ProtobufError`` when `data` is neither an object nor `null`, or a `maxAge` is not a duration.
    public init(response: GraphQLResponse, dataEtag: String?, cancelled: Bool) throws(ProtobufError) {
        var writer = ProtobufWriter()
        try response.writeFields(to: &writer, layout: .stream) { writer in
            Self.writeEtagAndCancelled(dataEtag: dataEtag, cancelled: cancelled, to: &writer)
        }
        sharedFields = writer.bytes
    }

    /// The `StreamResponse` for one request: its `request_id` (left out when empty), then the shared fields.
    public func message(requestId: String) -> [UInt8] {
        guard !requestId.isEmpty else { return sharedFields }
        var writer = ProtobufWriter(capacity: sharedFields.count + requestId.utf8.count + 8)
        writer.writeString(1, requestId)
        writer.writeRawFields(sharedFields)
        return writer.bytes
    }

    /// Writes `data_etag = 4` and `cancelled = 5`, leaving out defaults.
    static func writeEtagAndCancelled(dataEtag: String?, cancelled: Bool, to writer: inout ProtobufWriter) {
        if let dataEtag, !dataEtag.isEmpty { writer.writeString(4, dataEtag) }
        if cancelled { writer.writeBool(5, true) }
    }
}
