/// The six protobuf wire types, the low three bits of every field's tag.
public enum ProtobufWireType: UInt8, Hashable, Sendable {
    /// Integers, booleans and enums: a base-128 varint.
    case varint = 0
    /// `fixed64`, `sfixed64` and `double`: eight little-endian bytes.
    case fixed64 = 1
    /// Strings, bytes, embedded messages and packed repeated scalars: a varint length, then the bytes.
    case lengthDelimited = 2
    /// The start of a deprecated group; its fields follow until the matching ``endGroup``.
    case startGroup = 3
    /// The end of a deprecated group.
    case endGroup = 4
    /// `fixed32`, `sfixed32` and `float`: four little-endian bytes.
    case fixed32 = 5
}

/// Writes protobuf fields into one growable byte buffer.
///
/// A field is a tag (field number and wire type) followed by its value. Embedded messages open with
/// ``beginMessage(_:)`` and close with ``endMessage()``. Their length is not known until they close, so each one
/// reserves a byte for it: a message shorter than 128 bytes (most of them) gets its length written there in place;
/// a longer one needs a longer varint, and the writer notes where the extra bytes go and inserts them all in one
/// pass when the bytes are taken (``bytes``). No message body is ever copied to make room for its prefix, however
/// deep the nesting, so writing stays linear in the output's size.
///
/// The writer writes what it is told: leaving out fields that hold their default value (proto3's rule) is the
/// caller's choice.
///
/// ```swift
/// var writer = ProtobufWriter()
/// writer.writeString(1, "projects/p/locations/l/services/s/connectors/c")
/// writer.writeString(2, "ListMovies")
/// writer.beginMessage(3)  // variables: an empty Struct
/// writer.endMessage()
/// let bytes = writer.bytes
/// ```
public struct ProtobufWriter: ~Copyable, @unchecked Sendable {
    // The writer owns its buffers alone (it cannot be copied), so it writes through pointers with no
    // copy-on-write checks or reference counting on each byte: `@unchecked Sendable` is sound because a
    // noncopyable value moves between threads whole.

    /// The fields written, with one byte reserved for the length of each embedded message: `used` of `capacity`.
    private var storage: UnsafeMutablePointer<UInt8>
    private var used = 0
    private var capacity: Int
    /// The messages still open, two integers each: their reserved byte and the value of `insertedCount` when they
    /// opened; `openCount` pairs of `openCapacity`.
    private var open: UnsafeMutablePointer<Int>
    private var openCount = 0
    private var openCapacity = 16
    /// The embedded messages of 128 bytes or more: where their reserved byte is, and their length.
    private var longPrefixes: [(offset: Int, length: Int)] = []
    /// The bytes the long prefixes of the messages closed so far add beyond their reserved byte.
    private var insertedCount = 0

    /// Creates a writer, reserving `capacity` bytes.
    public init(capacity: Int = 256) {
        self.capacity = max(16, capacity)
        storage = .allocate(capacity: self.capacity)
        open = .allocate(capacity: 2 * openCapacity)
    }

    deinit {
        storage.deallocate()
        open.deallocate()
    }

    /// The size of the bytes written so far, length prefixes of closed messages included.
    public var count: Int { used + insertedCount }

    /// The message written, with every embedded message's length prefix in place.
    ///
    /// Every message opened with ``beginMessage(_:)`` must have been closed.
    public var bytes: [UInt8] {
        precondition(openCount == 0, "ProtobufWriter.bytes read with \(openCount) messages open")
        let input = UnsafeBufferPointer(start: storage, count: used)
        guard !longPrefixes.isEmpty else { return Array(input) }
        // Messages close inner first; the insertions go in offset order.
        let prefixes = longPrefixes.sorted { $0.offset < $1.offset }
        return [UInt8](unsafeUninitializedCapacity: used + insertedCount) { output, initialized in
            var written = 0
            var copied = 0
            for prefix in prefixes {
                let run = prefix.offset - copied
                if run > 0 {
                    (output.baseAddress! + written).initialize(from: input.baseAddress! + copied, count: run)
                    written += run
                }
                var length = UInt64(prefix.length)
                while length >= 0x80 {
                    output[written] = UInt8(truncatingIfNeeded: length) | 0x80
                    written += 1
                    length >>= 7
                }
                output[written] = UInt8(length)
                written += 1
                copied = prefix.offset + 1
            }
            let rest = input.count - copied
            if rest > 0 {
                (output.baseAddress! + written).initialize(from: input.baseAddress! + copied, count: rest)
                written += rest
            }
            initialized = written
        }
    }

    // MARK: The buffer

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if used + extra > capacity { grow(to: used + extra) }
    }

    private mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.initialize(from: storage, count: used)
        storage.deallocate()
        storage = grown
        capacity = newCapacity
    }

    @inline(__always)
    private mutating func appendByte(_ byte: UInt8) {
        reserve(1)
        storage[used] = byte
        used += 1
    }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        (storage + used).initialize(from: base, count: bytes.count)
        used += bytes.count
    }

    private mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    // MARK: Tags and raw values

    /// Writes a field's tag: `field << 3 | wireType`.
    public mutating func writeTag(_ field: Int, _ wireType: ProtobufWireType) {
        writeVarint(UInt64(field) << 3 | UInt64(wireType.rawValue))
    }

    /// Writes a base-128 varint, seven bits a byte, least significant first.
    public mutating func writeVarint(_ value: UInt64) {
        reserve(10)
        var value = value
        while value >= 0x80 {
            storage[used] = UInt8(truncatingIfNeeded: value) | 0x80
            used += 1
            value >>= 7
        }
        storage[used] = UInt8(value)
        used += 1
    }

    /// Writes four little-endian bytes.
    public mutating func writeFixed32(_ value: UInt32) {
        reserve(4)
        UnsafeMutableRawPointer(storage + used).storeBytes(of: value.littleEndian, as: UInt32.self)
        used += 4
    }

    /// Writes eight little-endian bytes.
    public mutating func writeFixed64(_ value: UInt64) {
        reserve(8)
        UnsafeMutableRawPointer(storage + used).storeBytes(of: value.littleEndian, as: UInt64.self)
        used += 8
    }

    /// Appends bytes that already are protobuf fields (of the message being written), as they are.
    ///
    /// A message is the concatenation of its fields, so fields encoded once can be shared by many messages.
    public mutating func writeRawFields(_ bytes: [UInt8]) {
        append(bytes)
    }

    // MARK: Fields

    /// Writes a varint field (`uint64`, `uint32`, or an enum's non-negative number).
    public mutating func writeUInt64(_ field: Int, _ value: UInt64) {
        writeTag(field, .varint)
        writeVarint(value)
    }

    /// Writes an `int32` or enum field; a negative value takes ten bytes, sign-extended to 64 bits as protobuf
    /// requires.
    public mutating func writeInt32(_ field: Int, _ value: Int32) {
        writeTag(field, .varint)
        writeVarint(UInt64(bitPattern: Int64(value)))
    }

    /// Writes an `int64` field; a negative value takes ten bytes.
    public mutating func writeInt64(_ field: Int, _ value: Int64) {
        writeTag(field, .varint)
        writeVarint(UInt64(bitPattern: value))
    }

    /// Writes a `bool` field: one byte, `0` or `1`.
    public mutating func writeBool(_ field: Int, _ value: Bool) {
        writeTag(field, .varint)
        appendByte(value ? 1 : 0)
    }

    /// Writes a `double` field: its IEEE 754 bits, little-endian.
    public mutating func writeDouble(_ field: Int, _ value: Double) {
        writeTag(field, .fixed64)
        writeFixed64(value.bitPattern)
    }

    /// Writes a `string` field: the UTF-8 length, then the bytes.
    public mutating func writeString(_ field: Int, _ value: String) {
        writeTag(field, .lengthDelimited)
        var value = value
        value.withUTF8 { utf8 in
            writeVarint(UInt64(utf8.count))
            append(utf8)
        }
    }

    /// Writes a `string` or `bytes` field from bytes: the length, then the bytes.
    public mutating func writeBytes(_ field: Int, _ value: UnsafeBufferPointer<UInt8>) {
        writeTag(field, .lengthDelimited)
        writeVarint(UInt64(value.count))
        append(value)
    }

    /// Writes a `bytes` field: the length, then the bytes.
    public mutating func writeBytes(_ field: Int, _ value: [UInt8]) {
        writeTag(field, .lengthDelimited)
        writeVarint(UInt64(value.count))
        append(value)
    }

    // MARK: Embedded messages

    /// Opens an embedded message field: writes its tag and reserves a byte for its length.
    ///
    /// The fields written next belong to the embedded message until ``endMessage()``.
    public mutating func beginMessage(_ field: Int) {
        writeTag(field, .lengthDelimited)
        if openCount == openCapacity {
            let grown = UnsafeMutablePointer<Int>.allocate(capacity: 4 * openCapacity)
            grown.initialize(from: open, count: 2 * openCount)
            open.deallocate()
            open = grown
            openCapacity *= 2
        }
        open[2 * openCount] = used
        open[2 * openCount + 1] = insertedCount
        openCount += 1
        appendByte(0)
    }

    /// Closes the embedded message opened last.
    public mutating func endMessage() {
        precondition(openCount > 0, "ProtobufWriter.endMessage() with no message open")
        openCount -= 1
        let offset = open[2 * openCount]
        let insertedBefore = open[2 * openCount + 1]
        let length = used - offset - 1 + insertedCount - insertedBefore
        if length < 0x80 {
            storage[offset] = UInt8(length)
        } else {
            longPrefixes.append((offset, length))
            insertedCount += Self.varintSize(UInt64(length)) - 1
        }
    }

    /// Writes an embedded message field whose fields `body` writes.
    ///
    /// ```swift
    /// writer.message(2) { location in
    ///     location.writeInt32(1, 3)  // line
    ///     location.writeInt32(2, 7)  // column
    /// }
    /// ```
    ///
    /// - Throws: What `body` throws; the message is closed either way.
    public mutating func message<E: Error>(_ field: Int, _ body: (inout ProtobufWriter) throws(E) -> Void) throws(E) {
        beginMessage(field)
        defer { endMessage() }
        try body(&self)
    }

    // MARK: Varints

    /// The number of bytes `value` takes as a varint, 1 to 10.
    public static func varintSize(_ value: UInt64) -> Int {
        // One byte per started group of seven significant bits; zero takes one byte.
        let bits = 64 - (value | 1).leadingZeroBitCount
        return (bits + 6) / 7
    }
}
