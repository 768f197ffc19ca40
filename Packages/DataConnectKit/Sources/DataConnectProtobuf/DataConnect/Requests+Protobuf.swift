import DataConnectWire

/// `ExecuteQueryRequest` and `ExecuteMutationRequest` of `google.firebase.dataconnect.v1` (the same fields):
/// `name = 1`, `operation_name = 2`, `variables = 3` (a `Struct`).
///
/// Absent `variables` read as `{}` (protobuf cannot tell them apart); an empty `operation_name` is refused, as the
/// JSON reader refuses it.
///
/// ```swift
/// let request = try GraphQLRequest(protobuf: messageBytes)
/// request.operationName  // "ListMovies"
/// ```
extension GraphQLRequest {
    /// Reads a serialized `ExecuteQueryRequest` or `ExecuteMutationRequest`.
    ///
    /// - Throws: ``ProtobufError`` for malformed bytes, an empty `operation_name`, or a NaN or infinite number in
    ///   `variables`.
    public init(protobuf bytes: [UInt8]) throws(ProtobufError) {
        var reader = ProtobufReader(bytes)
        var name = ""
        var operationName = ""
        var variables = JSONObject()
        while let (field, wireType) = try reader.nextField() {
            do throws(ProtobufError) {
                switch (field, wireType) {
                case (1, .lengthDelimited):
                    name = try reader.readString()
                case (2, .lengthDelimited):
                    operationName = try reader.readString()
                case (3, .lengthDelimited):
                    var structReader = try reader.readMessage()
                    try StructCodec.mergeStruct(from: &structReader, into: &variables)
                default:
                    try reader.skipField(wireType)
                }
            } catch {
                throw error.within(Self.fieldNames[field] ?? "\(field)")
            }
        }
        guard !operationName.isEmpty else {
            throw ProtobufError(.invalidValue, "operation_name must not be empty", path: ["operation_name"])
        }
        self.init(name: name, operationName: operationName, variables: variables)
    }

    /// The request as a serialized `ExecuteQueryRequest` or `ExecuteMutationRequest`; `variables` is always
    /// written, as in JSON.
    public func protobufBytes() -> [UInt8] {
        var writer = ProtobufWriter()
        if !name.isEmpty { writer.writeString(1, name) }
        if !operationName.isEmpty { writer.writeString(2, operationName) }
        writer.beginMessage(3)
        StructCodec.writeStructFields(variables, to: &writer)
        writer.endMessage()
        return writer.bytes
    }

    private static let fieldNames = [1: "name", 2: "operation_name", 3: "variables"]
}

/// `StreamRequest` of `google.firebase.dataconnect.v1`: `name = 1`, `request_id = 2`, one of `subscribe = 3`,
/// `execute = 4` (both `ExecuteRequest { operation_name = 2, variables = 3 }`), `resume = 5` and `cancel = 6`
/// (both empty), then `data_etag = 8` and `headers = 10` (a `map<string, string>`).
///
/// Empty strings read as absent (`nil`), so the iOS client's opening message (only `name` and `request_id`) reads
/// as a request without a kind, and its token refresh (only `headers`) as a request with headers alone. When the
/// oneof arrives more than once the last one wins (a `subscribe` followed by another `subscribe` merges, as
/// protobuf merges messages). A map entry without a key or value reads them as `""`; a repeated key keeps the last
/// value. An empty `operation_name` in `subscribe` or `execute` is refused, as the JSON reader refuses it.
///
/// ```swift
/// let request = try StreamRequest(protobuf: messageBytes)
/// if case .subscribe(let operation)? = request.kind { print(operation.operationName) }
/// ```
extension StreamRequest {
    /// Reads a serialized `StreamRequest`.
    ///
    /// - Throws: ``ProtobufError`` for malformed bytes, an empty `operation_name`, or a NaN or infinite number in
    ///   `variables`.
    public init(protobuf bytes: [UInt8]) throws(ProtobufError) {
        var reader = ProtobufReader(bytes)
        self.init(requestId: nil, kind: nil)
        var headerFields: [String: String]?
        while let (field, wireType) = try reader.nextField() {
            do throws(ProtobufError) {
                switch (field, wireType) {
                case (1, .lengthDelimited):
                    let text = try reader.readString()
                    name = text.isEmpty ? nil : text
                case (2, .lengthDelimited):
                    let text = try reader.readString()
                    requestId = text.isEmpty ? nil : text
                case (3, .lengthDelimited):
                    var operation = StreamRequest.Operation(operationName: "")
                    if case .subscribe(let existing)? = kind { operation = existing }
                    var operationReader = try reader.readMessage()
                    try operation.merge(from: &operationReader)
                    kind = .subscribe(operation)
                case (4, .lengthDelimited):
                    var operation = StreamRequest.Operation(operationName: "")
                    if case .execute(let existing)? = kind { operation = existing }
                    var operationReader = try reader.readMessage()
                    try operation.merge(from: &operationReader)
                    kind = .execute(operation)
                case (5, .lengthDelimited):
                    var empty = try reader.readMessage()
                    try Self.skipAll(&empty)
                    kind = .resume
                case (6, .lengthDelimited):
                    var empty = try reader.readMessage()
                    try Self.skipAll(&empty)
                    kind = .cancel
                case (8, .lengthDelimited):
                    let text = try reader.readString()
                    dataEtag = text.isEmpty ? nil : text
                case (10, .lengthDelimited):
                    var entry = try reader.readMessage()
                    var key = ""
                    var value = ""
                    while let (entryField, entryWireType) = try entry.nextField() {
                        switch (entryField, entryWireType) {
                        case (1, .lengthDelimited): key = try entry.readString()
                        case (2, .lengthDelimited): value = try entry.readString()
                        default: try entry.skipField(entryWireType)
                        }
                    }
                    headerFields = headerFields ?? [:]
                    headerFields?[key] = value
                default:
                    try reader.skipField(wireType)
                }
            } catch {
                throw error.within(Self.fieldNames[field] ?? "\(field)")
            }
        }
        headers = headerFields
        switch kind {
        case .subscribe(let operation)? where operation.operationName.isEmpty:
            throw ProtobufError(
                .invalidValue, "operation_name must not be empty", path: ["subscribe", "operation_name"])
        case .execute(let operation)? where operation.operationName.isEmpty:
            throw ProtobufError(.invalidValue, "operation_name must not be empty", path: ["execute", "operation_name"])
        default:
            break
        }
    }

    /// The request as a serialized `StreamRequest`, fields in number order, headers sorted by name.
    public func protobufBytes() -> [UInt8] {
        var writer = ProtobufWriter()
        if let name, !name.isEmpty { writer.writeString(1, name) }
        if let requestId, !requestId.isEmpty { writer.writeString(2, requestId) }
        switch kind {
        case .subscribe(let operation)?:
            writer.beginMessage(3)
            operation.writeFields(to: &writer)
            writer.endMessage()
        case .execute(let operation)?:
            writer.beginMessage(4)
            operation.writeFields(to: &writer)
            writer.endMessage()
        case .resume?:
            writer.beginMessage(5)
            writer.endMessage()
        case .cancel?:
            writer.beginMessage(6)
            writer.endMessage()
        case nil:
            break
        }
        if let dataEtag, !dataEtag.isEmpty { writer.writeString(8, dataEtag) }
        for (key, value) in (headers ?? [:]).sorted(by: { $0.key < $1.key }) {
            writer.beginMessage(10)
            if !key.isEmpty { writer.writeString(1, key) }
            if !value.isEmpty { writer.writeString(2, value) }
            writer.endMessage()
        }
        return writer.bytes
    }

    /// Reads an empty message, skipping whatever unknown fields it carries.
    private static func skipAll(_ reader: inout ProtobufReader) throws(ProtobufError) {
        while let (_, wireType) = try reader.nextField() {
            try reader.skipField(wireType)
        }
    }

    private static let fieldNames = [
        1: "name", 2: "request_id", 3: "subscribe", 4: "execute", 5: "resume", 6: "cancel", 8: "data_etag",
        10: "headers",
    ]
}

extension StreamRequest.Operation {
    /// Writes the fields of an `ExecuteRequest`; `variables` always.
    func writeFields(to writer: inout ProtobufWriter) {
        if !operationName.isEmpty { writer.writeString(2, operationName) }
        writer.beginMessage(3)
        StructCodec.writeStructFields(variables, to: &writer)
        writer.endMessage()
    }

    /// Reads the fields of an `ExecuteRequest` over what is already there.
    mutating func merge(from reader: inout ProtobufReader) throws(ProtobufError) {
        while let (field, wireType) = try reader.nextField() {
            switch (field, wireType) {
            case (2, .lengthDelimited):
                do throws(ProtobufError) {
                    operationName = try reader.readString()
                } catch {
                    throw error.within("operation_name")
                }
            case (3, .lengthDelimited):
                do throws(ProtobufError) {
                    var structReader = try reader.readMessage()
                    try StructCodec.mergeStruct(from: &structReader, into: &variables)
                } catch {
                    throw error.within("variables")
                }
            default:
                try reader.skipField(wireType)
            }
        }
    }
}
