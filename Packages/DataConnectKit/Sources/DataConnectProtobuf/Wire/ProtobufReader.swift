/// Reads the fields of one protobuf message, checking every length against the bytes that are there.
///
/// Message readers loop over ``nextField()``, read the fields they know with the typed reads, and pass the others to
/// ``skipField(_:)``, which skips unknown fields of every wire type, deprecated groups included. An embedded message
/// is read by a reader of its own (``readMessage()``) that shares the bytes and counts one more level of nesting;
/// beyond ``maxDepth`` levels reading throws, so hostile input cannot exhaust the stack.
///
/// Nothing here traps on bad input: every failure is a ``ProtobufError``.
///
/// ```swift
/// var reader = ProtobufReader(bytes)
/// while let (field, wireType) = try reader.nextField() {
///     switch (field, wireType) {
///     case (1, .lengthDelimited): name = try reader.readString()
///     default: try reader.skipField(wireType)
///     }
/// }
/// ```
public struct ProtobufReader: Sendable {
    /// The deepest nesting of embedded messages and groups accepted, as in Google's protobuf runtimes.
    public static let maxDepth = 100

    private let bytes: [UInt8]
    private var position: Int
    private let end: Int
    /// How many messages enclose this one (0 for the outermost).
    public let depth: Int
    /// The number of the field read last by ``nextField()``, for skipping a group.
    private var lastField = 0

    /// Creates a reader of a whole message.
    public init(_ bytes: [UInt8]) {
        self.init(bytes: bytes, position: 0, end: bytes.count, depth: 0)
    }

    private init(bytes: [UInt8], position: Int, end: Int, depth: Int) {
        self.bytes = bytes
        self.position = position
        self.end = end
        self.depth = depth
    }

    /// Whether every field has been read.
    public var isAtEnd: Bool { position >= end }

    /// Reads the next field's tag, or returns `nil` at the end of the message.
    ///
    /// - Throws: ``ProtobufError`` for a truncated tag, field number 0 or above 2^29 - 1, wire type 6 or 7, or an
    ///   end-group tag (this message is not a group).
    public mutating func nextField() throws(ProtobufError) -> (field: Int, wireType: ProtobufWireType)? {
        guard position < end else { return nil }
        let tag = try readVarint()
        let field = tag >> 3
        guard field > 0 && field <= 0x1FFF_FFFF else {
            throw ProtobufError(.invalidFieldNumber, "invalid field number \(field)")
        }
        guard let wireType = ProtobufWireType(rawValue: UInt8(tag & 7)) else {
            throw ProtobufError(.invalidWireType, "invalid wire type \(tag & 7) of field \(field)")
        }
        if wireType == .endGroup {
            throw ProtobufError(.invalidWireType, "end-group of field \(field) without its start-group")
        }
        lastField = Int(field)
        return (Int(field), wireType)
    }

    // MARK: Scalars

    /// Reads a varint of up to ten bytes.
    ///
    /// - Throws: ``ProtobufError`` when the input ends inside it or it is longer than ten bytes.
    public mutating func readVarint() throws(ProtobufError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while shift < 70 {
            guard position < end else { throw ProtobufError(.truncated, "varint runs past the end of the input") }
            let byte = bytes[position]
            position += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
        throw ProtobufError(.malformedVarint, "varint longer than ten bytes")
    }

    /// Reads an `int32` or enum: a varint truncated to 32 bits, so `-1` written in ten bytes reads back as `-1`.
    public mutating func readInt32() throws(ProtobufError) -> Int32 {
        Int32(truncatingIfNeeded: try readVarint())
    }

    /// Reads an `int64`.
    public mutating func readInt64() throws(ProtobufError) -> Int64 {
        Int64(bitPattern: try readVarint())
    }

    /// Reads a `bool`: any non-zero varint is `true`.
    public mutating func readBool() throws(ProtobufError) -> Bool {
        try readVarint() != 0
    }

    /// Reads four little-endian bytes.
    public mutating func readFixed32() throws(ProtobufError) -> UInt32 {
        guard end - position >= 4 else { throw ProtobufError(.truncated, "fixed32 runs past the end of the input") }
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(bytes[position + index]) << (8 * index) }
        position += 4
        return value
    }

    /// Reads eight little-endian bytes.
    public mutating func readFixed64() throws(ProtobufError) -> UInt64 {
        guard end - position >= 8 else { throw ProtobufError(.truncated, "fixed64 runs past the end of the input") }
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(bytes[position + index]) << (8 * index) }
        position += 8
        return value
    }

    /// Reads a `double`.
    public mutating func readDouble() throws(ProtobufError) -> Double {
        Double(bitPattern: try readFixed64())
    }

    // MARK: Length-delimited values

    /// Reads a length prefix and returns the range of the bytes it announces, moving past them.
    private mutating func readLengthDelimited() throws(ProtobufError) -> Range<Int> {
        let length = try readVarint()
        guard length <= UInt64(end - position) else {
            throw ProtobufError(
                .lengthOutOfBounds, "length \(length) runs past the end of the message (\(end - position) bytes left)")
        }
        let begin = position
        position += Int(length)
        return begin..<position
    }

    /// Reads a `string`, which must be well-formed UTF-8.
    ///
    /// - Throws: ``ProtobufError`` when the length runs past the end or the bytes are not UTF-8.
    public mutating func readString() throws(ProtobufError) -> String {
        let range = try readLengthDelimited()
        let text = bytes.withUnsafeBufferPointer { buffer in
            String(validating: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self)
        }
        guard let text else { throw ProtobufError(.invalidUTF8, "string field is not valid UTF-8") }
        return text
    }

    /// Reads a `bytes` field.
    ///
    /// - Throws: ``ProtobufError`` when the length runs past the end.
    public mutating func readBytes() throws(ProtobufError) -> [UInt8] {
        Array(bytes[try readLengthDelimited()])
    }

    /// Reads an embedded message: returns a reader of its fields, one level deeper, and moves past it.
    ///
    /// - Throws: ``ProtobufError`` when the length runs past the end or nesting goes beyond ``maxDepth``.
    public mutating func readMessage() throws(ProtobufError) -> ProtobufReader {
        guard depth < Self.maxDepth else {
            throw ProtobufError(.nestingTooDeep, "messages nested deeper than \(Self.maxDepth) levels")
        }
        let range = try readLengthDelimited()
        return ProtobufReader(bytes: bytes, position: range.lowerBound, end: range.upperBound, depth: depth + 1)
    }

    /// Reads a packed or unpacked repeated varint field's values (`repeated int32` and enums): a
    /// length-delimited run of varints, or one varint.
    ///
    /// - Throws: ``ProtobufError`` for a truncated value, or another wire type.
    public mutating func readRepeatedVarints(_ wireType: ProtobufWireType) throws(ProtobufError) -> [UInt64] {
        switch wireType {
        case .varint:
            return [try readVarint()]
        case .lengthDelimited:
            let range = try readLengthDelimited()
            var packed = ProtobufReader(bytes: bytes, position: range.lowerBound, end: range.upperBound, depth: depth)
            var values: [UInt64] = []
            while !packed.isAtEnd { values.append(try packed.readVarint()) }
            return values
        default:
            throw ProtobufError(.invalidWireType, "wire type \(wireType.rawValue) for a repeated varint field")
        }
    }

    // MARK: Unknown fields

    /// Skips the value of the field whose tag ``nextField()`` just read.
    ///
    /// A group is skipped with everything in it, nested groups included, up to its matching end-group.
    ///
    /// - Throws: ``ProtobufError`` for a truncated value, a group without its end-group (or ending with another
    ///   field's), or groups nested beyond ``maxDepth``.
    public mutating func skipField(_ wireType: ProtobufWireType) throws(ProtobufError) {
        switch wireType {
        case .varint: _ = try readVarint()
        case .fixed64: _ = try readFixed64()
        case .fixed32: _ = try readFixed32()
        case .lengthDelimited: _ = try readLengthDelimited()
        case .startGroup: try skipGroup(lastField)
        case .endGroup: throw ProtobufError(.invalidWireType, "end-group without its start-group")
        }
    }

    /// Skips a group's contents and its end-group, without recursion.
    private mutating func skipGroup(_ field: Int) throws(ProtobufError) {
        var open = [field]
        while let innermost = open.last {
            guard position < end else {
                throw ProtobufError(.unterminatedGroup, "group of field \(innermost) has no end-group")
            }
            let tag = try readVarint()
            let number = Int(tag >> 3)
            guard number > 0 && number <= 0x1FFF_FFFF else {
                throw ProtobufError(.invalidFieldNumber, "invalid field number \(number)")
            }
            switch tag & 7 {
            case 0: _ = try readVarint()
            case 1: _ = try readFixed64()
            case 2: _ = try readLengthDelimited()
            case 3:
                guard depth + open.count < Self.maxDepth else {
                    throw ProtobufError(.nestingTooDeep, "groups nested deeper than \(Self.maxDepth) levels")
                }
                open.append(number)
            case 4:
                guard number == innermost else {
                    throw ProtobufError(
                        .unterminatedGroup, "group of field \(innermost) ended by an end-group of field \(number)")
                }
                open.removeLast()
            case 5: _ = try readFixed32()
            default:
                throw ProtobufError(.invalidWireType, "invalid wire type \(tag & 7) of field \(number)")
            }
        }
    }
}
