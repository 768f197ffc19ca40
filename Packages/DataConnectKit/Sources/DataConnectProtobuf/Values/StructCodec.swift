import DataConnectWire

/// `google.protobuf.Struct`, `Value` and `ListValue`, read into and written from ``JSONValue``.
///
/// - `Struct { map<string, Value> fields = 1 }` is a ``JSONObject``; its entries keep the order they arrive in, and
///   a repeated key keeps its first position and its last value.
/// - `Value` is one of `null_value = 1`, `number_value = 2` (a double), `string_value = 3`, `bool_value = 4`,
///   `struct_value = 5`, `list_value = 6`; a `Value` with none of them (an absent map value included) reads as
///   `null`.
/// - `ListValue { repeated Value values = 1 }` is an array.
///
/// Numbers are doubles on the wire. Reading, an integral double of magnitude at most 2^53 becomes an integer
/// ``JSONNumber`` (so `42.0` coerces like REST's `42`), any other finite double a double; NaN and the infinities
/// throw, since JSON cannot carry them. Writing, every number becomes its nearest double, and a non-finite one
/// (`1e400`) is written as `null`, as ``JSONWriter`` writes it.
///
/// ```swift
/// let movie: JSONObject = ["title": "Alien", "year": 1979]
/// let object = try JSONObject(protobufStruct: movie.protobufStructBytes())  // ["title": "Alien", "year": 1979]
/// ```
enum StructCodec {
    /// 2^53: above it, not every integer is a double.
    static let exactIntegerLimit = 9_007_199_254_740_992.0

    // MARK: Writing

    /// Writes the fields of a `Struct`: one map entry per member.
    static func writeStructFields(_ object: JSONObject, to writer: inout ProtobufWriter) {
        for (key, value) in object {
            writer.beginMessage(1)
            writer.writeString(1, key)
            writer.beginMessage(2)
            writeValueFields(value, to: &writer)
            writer.endMessage()
            writer.endMessage()
        }
    }

    /// Writes the fields of a `ListValue`: one `Value` per element.
    static func writeListFields(_ elements: [JSONValue], to writer: inout ProtobufWriter) {
        for element in elements {
            writer.beginMessage(1)
            writeValueFields(element, to: &writer)
            writer.endMessage()
        }
    }

    /// Writes the one field of a `Value`.
    static func writeValueFields(_ value: JSONValue, to writer: inout ProtobufWriter) {
        switch value {
        case .null:
            writer.writeUInt64(1, 0)
        case .number(let number):
            writeNumberValue(number.doubleValue, to: &writer)
        case .string(let text):
            writer.writeString(3, text)
        case .bool(let flag):
            writer.writeBool(4, flag)
        case .object(let object):
            writer.beginMessage(5)
            writeStructFields(object, to: &writer)
            writer.endMessage()
        case .array(let elements):
            writer.beginMessage(6)
            writeListFields(elements, to: &writer)
            writer.endMessage()
        }
    }

    /// Writes `number_value`, or `null_value` for a non-finite double.
    static func writeNumberValue(_ double: Double, to writer: inout ProtobufWriter) {
        if double.isFinite {
            writer.writeDouble(2, double)
        } else {
            writer.writeUInt64(1, 0)
        }
    }

    // MARK: Reading

    /// Reads the fields of a `Struct` into `object`; entries already there stay unless a key repeats.
    static func mergeStruct(from reader: inout ProtobufReader, into object: inout JSONObject) throws(ProtobufError) {
        while let (field, wireType) = try reader.nextField() {
            guard field == 1, wireType == .lengthDelimited else {
                try reader.skipField(wireType)
                continue
            }
            var entry = try reader.readMessage()
            var key = ""
            var value: JSONValue?
            while let (entryField, entryWireType) = try entry.nextField() {
                switch (entryField, entryWireType) {
                case (1, .lengthDelimited):
                    do throws(ProtobufError) {
                        key = try entry.readString()
                    } catch {
                        throw error.within("key").within("fields")
                    }
                case (2, .lengthDelimited):
                    do throws(ProtobufError) {
                        var valueReader = try entry.readMessage()
                        try mergeValue(from: &valueReader, into: &value)
                    } catch {
                        throw error.within("[\(quoted(key))]").within("fields")
                    }
                default:
                    try entry.skipField(entryWireType)
                }
            }
            object[key] = value ?? .null
        }
    }

    /// Reads the fields of a `ListValue`, appending to `elements`.
    static func mergeList(from reader: inout ProtobufReader, into elements: inout [JSONValue]) throws(ProtobufError) {
        while let (field, wireType) = try reader.nextField() {
            guard field == 1, wireType == .lengthDelimited else {
                try reader.skipField(wireType)
                continue
            }
            do throws(ProtobufError) {
                var valueReader = try reader.readMessage()
                var value: JSONValue?
                try mergeValue(from: &valueReader, into: &value)
                elements.append(value ?? .null)
            } catch {
                throw error.within("[\(elements.count)]").within("values")
            }
        }
    }

    /// Reads the fields of a `Value` into `value` (`nil` while no kind has been seen).
    ///
    /// The last kind wins; a `struct_value` or `list_value` following one of the same kind merges into it, as
    /// protobuf merges a repeated embedded message.
    static func mergeValue(from reader: inout ProtobufReader, into value: inout JSONValue?) throws(ProtobufError) {
        while let (field, wireType) = try reader.nextField() {
            switch (field, wireType) {
            case (1, .varint):
                _ = try reader.readVarint()
                value = .null
            case (2, .fixed64):
                value = .number(try number(from: reader.readDouble(), field: "number_value"))
            case (3, .lengthDelimited):
                do throws(ProtobufError) {
                    value = .string(try reader.readString())
                } catch {
                    throw error.within("string_value")
                }
            case (4, .varint):
                value = .bool(try reader.readBool())
            case (5, .lengthDelimited):
                var object = JSONObject()
                if case .object(let existing)? = value {
                    object = existing
                    value = nil
                }
                do throws(ProtobufError) {
                    var structReader = try reader.readMessage()
                    try mergeStruct(from: &structReader, into: &object)
                } catch {
                    throw error.within("struct_value")
                }
                value = .object(object)
            case (6, .lengthDelimited):
                var elements: [JSONValue] = []
                if case .array(let existing)? = value {
                    elements = existing
                    value = nil
                }
                do throws(ProtobufError) {
                    var listReader = try reader.readMessage()
                    try mergeList(from: &listReader, into: &elements)
                } catch {
                    throw error.within("list_value")
                }
                value = .array(elements)
            default:
                try reader.skipField(wireType)
            }
        }
    }

    /// The JSON number of a `number_value`.
    ///
    /// - Throws: ``ProtobufError`` for NaN and the infinities.
    static func number(from double: Double, field: String) throws(ProtobufError) -> JSONNumber {
        guard double.isFinite else {
            throw ProtobufError(
                .invalidValue, "\(double) cannot be a JSON number (NaN and infinities have no JSON form)",
                path: [field])
        }
        if double.rounded(.towardZero) == double && double.magnitude <= exactIntegerLimit {
            return JSONNumber(Int64(double))
        }
        return JSONNumber(double)
    }

    /// A map key as it appears in an error's path: JSON-quoted.
    static func quoted(_ key: String) -> String {
        JSONValue.string(key).description
    }
}

// MARK: - Public entry points

extension JSONObject {
    /// Reads a serialized `google.protobuf.Struct`.
    ///
    /// - Throws: ``ProtobufError`` for malformed bytes or a NaN or infinite number.
    public init(protobufStruct bytes: [UInt8]) throws(ProtobufError) {
        var reader = ProtobufReader(bytes)
        var object = JSONObject()
        try StructCodec.mergeStruct(from: &reader, into: &object)
        self = object
    }

    /// The object as a serialized `google.protobuf.Struct`, members in order.
    public func protobufStructBytes() -> [UInt8] {
        var writer = ProtobufWriter()
        StructCodec.writeStructFields(self, to: &writer)
        return writer.bytes
    }
}

extension JSONValue {
    /// Reads a serialized `google.protobuf.Value`; one without a kind reads as `null`.
    ///
    /// - Throws: ``ProtobufError`` for malformed bytes or a NaN or infinite number.
    public init(protobufValue bytes: [UInt8]) throws(ProtobufError) {
        var reader = ProtobufReader(bytes)
        var value: JSONValue?
        try StructCodec.mergeValue(from: &reader, into: &value)
        self = value ?? .null
    }

    /// The value as a serialized `google.protobuf.Value`.
    public func protobufValueBytes() -> [UInt8] {
        var writer = ProtobufWriter()
        StructCodec.writeValueFields(self, to: &writer)
        return writer.bytes
    }
}
