import DataConnectWire

/// `DataConnectProperties` and `GraphqlResponseExtensions` of `google.firebase.dataconnect.v1`.
///
/// | field | number | ``DataConnectProperties`` |
/// |---|---|---|
/// | `path` | 1 | ``DataConnectProperties/path``, a `ListValue` |
/// | `entity_id` | 2 | ``DataConnectProperties/entityId`` |
/// | `entity_ids` | 3 | ``DataConnectProperties/entityIds`` |
/// | `max_age` | 4 | ``DataConnectProperties/maxAge``: a `Duration`, its JSON form (`30s`) in the property |
/// | `action` | 5 | ``DataConnectProperties/action``, by enum number (`GET` is 1) |
///
/// Defaults are not written, so they read back absent: an empty entity id, an empty `entityIds` list, the action
/// `ACTION_UNSPECIFIED`. `GraphqlResponseExtensions` is `data_connect = 1`, repeated.
extension DataConnectProperties {
    /// The actions by enum number.
    static let actionsByNumber: [Action] = [.unspecified, .get, .list, .create, .update, .upsert, .delete]

    /// Reads a serialized `DataConnectProperties`.
    ///
    /// - Throws: ``ProtobufError`` for malformed bytes, a bad path element or an out-of-range duration.
    public init(protobuf bytes: [UInt8]) throws(ProtobufError) {
        var reader = ProtobufReader(bytes)
        self.init(path: [])
        try merge(from: &reader)
    }

    /// The properties as a serialized `DataConnectProperties`.
    ///
    /// - Throws: ``ProtobufError`` when ``maxAge`` is not a duration such as `30s`.
    public func protobufBytes() throws(ProtobufError) -> [UInt8] {
        var writer = ProtobufWriter()
        try writeFields(to: &writer)
        return writer.bytes
    }

    /// Writes the fields of a `DataConnectProperties`.
    func writeFields(to writer: inout ProtobufWriter) throws(ProtobufError) {
        if !path.isEmpty {
            writer.beginMessage(1)
            PathSegment.writeListFields(path, to: &writer)
            writer.endMessage()
        }
        if let entityId, !entityId.isEmpty { writer.writeString(2, entityId) }
        for id in entityIds ?? [] { writer.writeString(3, id) }
        if let maxAge {
            guard let duration = ProtobufDuration(text: maxAge) else {
                throw ProtobufError(
                    .invalidValue, "max age \(JSONValue.string(maxAge)) is not a duration such as \"30s\"",
                    path: ["max_age"])
            }
            writer.beginMessage(4)
            duration.writeFields(to: &writer)
            writer.endMessage()
        }
        if let action, let number = Self.actionsByNumber.firstIndex(of: action), number != 0 {
            writer.writeUInt64(5, UInt64(number))
        }
    }

    /// Reads the fields of a `DataConnectProperties` over what is already there.
    mutating func merge(from reader: inout ProtobufReader) throws(ProtobufError) {
        while let (field, wireType) = try reader.nextField() {
            do throws(ProtobufError) {
                switch (field, wireType) {
                case (1, .lengthDelimited):
                    var listReader = try reader.readMessage()
                    path += try PathSegment.readList(from: &listReader)
                case (2, .lengthDelimited):
                    let id = try reader.readString()
                    entityId = id.isEmpty ? nil : id
                case (3, .lengthDelimited):
                    entityIds = (entityIds ?? []) + [try reader.readString()]
                case (4, .lengthDelimited):
                    var durationReader = try reader.readMessage()
                    var duration = maxAge.flatMap(ProtobufDuration.init(text:)) ?? ProtobufDuration(seconds: 0)
                    try duration.merge(from: &durationReader)
                    guard duration.seconds.magnitude <= ProtobufDuration.maxSeconds.magnitude,
                        duration.nanos.magnitude < 1_000_000_000,
                        duration.seconds == 0 || duration.nanos == 0 || (duration.seconds < 0) == (duration.nanos < 0)
                    else {
                        throw ProtobufError(
                            .invalidValue,
                            "duration of \(duration.seconds) s and \(duration.nanos) ns is out of range or mixes signs")
                    }
                    maxAge = duration.text
                case (5, .varint):
                    let number = Int(try reader.readInt32())
                    let read =
                        Self.actionsByNumber.indices.contains(number) ? Self.actionsByNumber[number] : .unspecified
                    action = number == 0 ? nil : read
                default:
                    try reader.skipField(wireType)
                }
            } catch {
                throw error.within(Self.fieldNames[field] ?? "\(field)")
            }
        }
    }

    private static let fieldNames = [1: "path", 2: "entity_id", 3: "entity_ids", 4: "max_age", 5: "action"]
}

extension GraphQLResponse.Extensions {
    /// Writes the fields of a `GraphqlResponseExtensions`.
    func writeFields(to writer: inout ProtobufWriter) throws(ProtobufError) {
        for (position, properties) in dataConnect.enumerated() {
            writer.beginMessage(1)
            defer { writer.endMessage() }
            do throws(ProtobufError) {
                try properties.writeFields(to: &writer)
            } catch {
                throw error.within("[\(position)]").within("data_connect")
            }
        }
    }

    /// Reads the fields of a `GraphqlResponseExtensions`, appending to ``dataConnect``.
    mutating func merge(from reader: inout ProtobufReader) throws(ProtobufError) {
        while let (field, wireType) = try reader.nextField() {
            guard field == 1, wireType == .lengthDelimited else {
                try reader.skipField(wireType)
                continue
            }
            do throws(ProtobufError) {
                var propertiesReader = try reader.readMessage()
                var properties = DataConnectProperties(path: [])
                try properties.merge(from: &propertiesReader)
                dataConnect.append(properties)
            } catch {
                throw error.within("[\(dataConnect.count)]").within("data_connect")
            }
        }
    }
}
