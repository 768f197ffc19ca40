import DataConnectWire

/// `GraphqlError`, `SourceLocation` and `GraphqlErrorExtensions` of `google.firebase.dataconnect.v1`.
///
/// | field | number | ``GraphQLError`` |
/// |---|---|---|
/// | `message` | 1 | ``GraphQLError/message`` |
/// | `locations` | 2 | ``GraphQLError/locations`` (`line = 1`, `column = 2`, `int32`) |
/// | `path` | 3 | ``GraphQLError/path``, a `ListValue` of strings and integral numbers |
/// | `extensions` | 4 | ``GraphQLError/extensions``, present or not |
///
/// In the extensions, `code = 2` is the `google.rpc.Code` number of ``GraphQLError/Extensions/code``,
/// `debug_details = 3` is ``GraphQLError/Extensions/debugDetails`` and `warning_level = 5` the enum number of
/// ``GraphQLError/Extensions/warningLevel``'s name (`LOG_ONLY` is 1). `file = 1`, `resource = 4` and
/// `workarounds = 6` have no property of their own: they travel in ``GraphQLError/Extensions/other`` under the names
/// REST gives them (`file`, `resource`, `workarounds` as `[{"description", "reason", "replace"}]`). Other members
/// of `other` have no field and are not written.
///
/// Defaults are not written, so they read back absent: code `OK`, an empty `debugDetails`, warning level
/// `WARNING_LEVEL_UNKNOWN`, an empty `file` or `resource`.
extension GraphQLError {
    /// The names of `GraphqlErrorExtensions.WarningLevel`, by number.
    static let warningLevelNames = [
        "WARNING_LEVEL_UNKNOWN", "LOG_ONLY", "INTERACTIVE_ACK", "REQUIRE_ACK", "REQUIRE_FORCE",
    ]

    /// Reads a serialized `GraphqlError`.
    ///
    /// - Throws: ``ProtobufError`` for malformed bytes, a path element that is neither a string nor an integer, or a
    ///   number a `Struct` cannot hold.
    public init(protobuf bytes: [UInt8]) throws(ProtobufError) {
        var reader = ProtobufReader(bytes)
        self.init(message: "")
        try merge(from: &reader)
    }

    /// The error as a serialized `GraphqlError`.
    public func protobufBytes() -> [UInt8] {
        var writer = ProtobufWriter()
        writeFields(to: &writer)
        return writer.bytes
    }

    // MARK: Writing

    /// Writes the fields of a `GraphqlError`.
    func writeFields(to writer: inout ProtobufWriter) {
        if !message.isEmpty { writer.writeString(1, message) }
        for location in locations {
            writer.beginMessage(2)
            if location.line != 0 { writer.writeInt32(1, Int32(clamping: location.line)) }
            if location.column != 0 { writer.writeInt32(2, Int32(clamping: location.column)) }
            writer.endMessage()
        }
        if !path.isEmpty {
            writer.beginMessage(3)
            PathSegment.writeListFields(path, to: &writer)
            writer.endMessage()
        }
        if let extensions {
            writer.beginMessage(4)
            extensions.writeFields(to: &writer)
            writer.endMessage()
        }
    }

    // MARK: Reading

    /// Reads the fields of a `GraphqlError` over what is already there.
    mutating func merge(from reader: inout ProtobufReader) throws(ProtobufError) {
        while let (field, wireType) = try reader.nextField() {
            do throws(ProtobufError) {
                switch (field, wireType) {
                case (1, .lengthDelimited):
                    message = try reader.readString()
                case (2, .lengthDelimited):
                    var locationReader = try reader.readMessage()
                    var location = SourceLocation(line: 0, column: 0)
                    while let (locationField, locationWireType) = try locationReader.nextField() {
                        switch (locationField, locationWireType) {
                        case (1, .varint): location.line = Int(try locationReader.readInt32())
                        case (2, .varint): location.column = Int(try locationReader.readInt32())
                        default: try locationReader.skipField(locationWireType)
                        }
                    }
                    locations.append(location)
                case (3, .lengthDelimited):
                    var listReader = try reader.readMessage()
                    path += try PathSegment.readList(from: &listReader)
                case (4, .lengthDelimited):
                    var extensionsReader = try reader.readMessage()
                    var merged = extensions ?? Extensions()
                    try merged.merge(from: &extensionsReader)
                    extensions = merged
                default:
                    try reader.skipField(wireType)
                }
            } catch {
                throw error.within(Self.fieldNames[field] ?? "\(field)")
            }
        }
    }

    private static let fieldNames = [1: "message", 2: "locations", 3: "path", 4: "extensions"]
}

extension GraphQLError.Extensions {
    /// Writes the fields of a `GraphqlErrorExtensions`.
    func writeFields(to writer: inout ProtobufWriter) {
        if case .string(let file)? = other["file"], !file.isEmpty { writer.writeString(1, file) }
        if let code, code != .ok { writer.writeUInt64(2, UInt64(code.rawValue)) }
        if let debugDetails, !debugDetails.isEmpty { writer.writeString(3, debugDetails) }
        if case .string(let resource)? = other["resource"], !resource.isEmpty { writer.writeString(4, resource) }
        if let warningLevel, let number = GraphQLError.warningLevelNames.firstIndex(of: warningLevel), number != 0 {
            writer.writeUInt64(5, UInt64(number))
        }
        if case .array(let workarounds)? = other["workarounds"] {
            for case .object(let workaround) in workarounds {
                writer.beginMessage(6)
                for (number, name) in [(1, "description"), (2, "reason"), (3, "replace")] {
                    if case .string(let text)? = workaround[name], !text.isEmpty { writer.writeString(number, text) }
                }
                writer.endMessage()
            }
        }
    }

    /// Reads the fields of a `GraphqlErrorExtensions` over what is already there.
    mutating func merge(from reader: inout ProtobufReader) throws(ProtobufError) {
        while let (field, wireType) = try reader.nextField() {
            do throws(ProtobufError) {
                switch (field, wireType) {
                case (1, .lengthDelimited):
                    other["file"] = .string(try reader.readString())
                case (2, .varint):
                    let number = try reader.readInt32()
                    code = StatusCode(rawValue: Int(number)) ?? .unknown
                case (3, .lengthDelimited):
                    debugDetails = try reader.readString()
                case (4, .lengthDelimited):
                    other["resource"] = .string(try reader.readString())
                case (5, .varint):
                    let number = Int(try reader.readInt32())
                    if number == 0 {
                        warningLevel = nil
                    } else {
                        warningLevel =
                            GraphQLError.warningLevelNames.indices.contains(number)
                            ? GraphQLError.warningLevelNames[number] : GraphQLError.warningLevelNames[0]
                    }
                case (6, .lengthDelimited):
                    var workaroundReader = try reader.readMessage()
                    var workaround = JSONObject()
                    while let (workaroundField, workaroundWireType) = try workaroundReader.nextField() {
                        switch (workaroundField, workaroundWireType) {
                        case (1, .lengthDelimited):
                            workaround["description"] = .string(try workaroundReader.readString())
                        case (2, .lengthDelimited): workaround["reason"] = .string(try workaroundReader.readString())
                        case (3, .lengthDelimited): workaround["replace"] = .string(try workaroundReader.readString())
                        default: try workaroundReader.skipField(workaroundWireType)
                        }
                    }
                    var workarounds = other["workarounds"]?.arrayValue ?? []
                    workarounds.append(.object(workaround))
                    other["workarounds"] = .array(workarounds)
                default:
                    try reader.skipField(wireType)
                }
            } catch {
                throw error.within(Self.fieldNames[field] ?? "\(field)")
            }
        }
    }

    private static let fieldNames = [
        1: "file", 2: "code", 3: "debug_details", 4: "resource", 5: "warning_level", 6: "workarounds",
    ]
}

extension PathSegment {
    /// Writes the fields of a `ListValue` holding a path: strings for fields, numbers for indices.
    static func writeListFields(_ path: [PathSegment], to writer: inout ProtobufWriter) {
        for segment in path {
            writer.beginMessage(1)
            switch segment {
            case .field(let name): writer.writeString(3, name)
            case .index(let index): writer.writeDouble(2, Double(index))
            }
            writer.endMessage()
        }
    }

    /// Reads a path from the fields of a `ListValue`.
    ///
    /// - Throws: ``ProtobufError`` for an element that is neither a string nor an integral number.
    static func readList(from reader: inout ProtobufReader) throws(ProtobufError) -> [PathSegment] {
        var values: [JSONValue] = []
        try StructCodec.mergeList(from: &reader, into: &values)
        var path: [PathSegment] = []
        path.reserveCapacity(values.count)
        for (position, value) in values.enumerated() {
            switch value {
            case .string(let name):
                path.append(.field(name))
            case .number(let number) where number.intValue != nil:
                path.append(.index(number.intValue ?? 0))
            default:
                throw ProtobufError(
                    .invalidValue, "a path element must be a string or an integral number, found \(value)",
                    path: ["values", "[\(position)]"])
            }
        }
        return path
    }
}
