import DataConnectWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Takes the hidden entity-id members out of a result as the database rendered it, in one pass over its JSON
/// text, and writes the ids' properties as it goes: what
/// ``Execution/extractEntityIDs(_:path:into:node:derived:)`` does to a parsed value, without building one, and
/// without building a path, a string or a property per id.
///
/// An object's `_dc_eid` becomes a `GET` property at the object's path; the objects of a list, when every
/// element has one, become one `LIST` property at the list's path, listed before the properties found inside
/// the elements. For an object whose field node is in the plan's ``ReadPlan/derivedEntityIDs``, the id is the
/// type name, `/` and the text of its key value: the selected key field's, or the hidden member's bare key.
/// Paths and ids are copied as the JSON tokens they are in the text. The text is copied in runs between the
/// hidden members, white space included. Text that is not JSON as a database writes it (which does
/// not happen) answers `nil`, and the caller parses it instead.
struct EntityIDStripper: ~Copyable {
    private let input: UnsafeBufferPointer<UInt8>
    /// ``input``'s first byte.
    private let base: UnsafePointer<UInt8>
    private var position = 0
    /// Where the text without hidden members is written: never longer than ``input``.
    private let output: UnsafeMutablePointer<UInt8>
    private var outputCount = 0
    /// The input before this position is in ``output`` or cut out: the text is copied in runs between hidden
    /// members, not token by token.
    private var copiedUpTo = 0
    /// Whether a hidden member was cut out: when none was, the input is the output, and is not copied.
    private var cutAny = false
    /// The properties found, each one JSON object, in the order they were completed.
    private var rendered = ByteBuffer(capacity: 1024)
    /// Each property's bytes in ``rendered``, in response order: a slot is taken when its object or list
    /// starts, so that a list's property comes before those of its elements; an empty slot has no id.
    private var slots: [Range<Int>?] = []
    /// The JSON array of the path of the value being read, without its closing bracket.
    private var path = ByteBuffer(capacity: 256)
    /// The ids of the elements of the lists being read, the innermost list's last.
    private var elementIDs: [IDText] = []
    /// The field nodes of the text's objects, flattened from the root's (index 0), when ids are derived; a
    /// node is an index into this array, -1 for none.
    private var shape: [ShapeNode] = []
    /// The object-valued sub-fields of the nodes in ``shape``: their member name tokens and their nodes.
    private var shapeChildren: [(token: Range<Int>, node: Int)] = []
    /// How ids are read off key values, by index.
    private var derivations: [Derivation] = []
    /// The member name tokens and id openings that ``shapeChildren`` and ``derivations`` refer to.
    private var tokens = ByteBuffer(capacity: 256)

    /// A field node of the text: how its objects' ids are derived (an index into ``derivations``, or -1), and
    /// its object-valued sub-fields (a range of ``shapeChildren``).
    private struct ShapeNode {
        var derivation: Int
        var children: Range<Int>
    }

    /// How an object's id is written from a key value: the key field's name token in ``tokens`` (`nil` when
    /// the hidden member holds the bare key), and the id's opening there (`"Movie/`) before the value's text.
    private struct Derivation {
        let memberToken: Range<Int>?
        let opening: Range<Int>
    }

    /// Where an id's text is: a string token of the input, or a key field's value text after a derivation's
    /// opening (and before a closing quote).
    private struct IDText {
        let range: Range<Int>
        /// An index into ``derivations``, or -1 for a token of the input.
        let derivation: Int
    }

    /// The text without hidden members and the entity ids it held, or `nil` when it is not readable.
    ///
    /// - Parameters:
    ///   - path: The path of the text's value in the response.
    ///   - root: The field node whose result the text is, to find the nodes of objects in `derived`.
    ///   - derived: The objects whose ids are read off their key fields (no hidden member), by field node.
    static func strip(
        _ bytes: [UInt8], path: [PathSegment], root: FieldNode? = nil, derived: [Int: DerivedEntityID] = [:]
    ) -> (bytes: [UInt8], ids: RenderedProperties)? {
        guard !bytes.isEmpty else { return nil }
        var ids: RenderedProperties?
        var unchanged = false
        let stripped = bytes.withUnsafeBufferPointer { buffer in
            [UInt8](unsafeUninitializedCapacity: buffer.count) { output, written in
                written = 0
                guard let base = buffer.baseAddress, let outputBase = output.baseAddress else { return }
                var stripper = EntityIDStripper(
                    input: buffer, base: base, output: outputBase, root: path)
                do throws(Unreadable) {
                    stripper.skipSpaces()
                    if let root, !derived.isEmpty { _ = stripper.addShape(root, derived: derived) }
                    _ = try stripper.value(inList: false, node: stripper.shape.isEmpty ? -1 : 0)
                    stripper.skipSpaces()
                    guard stripper.position == buffer.count else { return }
                } catch {
                    return
                }
                if stripper.cutAny {
                    stripper.cut(buffer.count..<buffer.count)
                    written = stripper.outputCount
                } else {
                    unchanged = true
                }
                ids = RenderedProperties(bytes: stripper.rendered.array, ranges: stripper.slots.compactMap { $0 })
            }
        }
        guard let ids else { return nil }
        return (unchanged ? bytes : stripped, ids)
    }

    private init(
        input: UnsafeBufferPointer<UInt8>, base: UnsafePointer<UInt8>, output: UnsafeMutablePointer<UInt8>,
        root: [PathSegment]
    ) {
        self.input = input
        self.base = base
        self.output = output
        // Room for a list of objects and their ids without growing on the way.
        slots.reserveCapacity(32)
        elementIDs.reserveCapacity(32)
        var writer = JSONWriter(capacity: 64)
        writer.beginArray()
        for segment in root {
            switch segment {
            case .field(let name): writer.string(name)
            case .index(let index): writer.int(index)
            }
        }
        writer.bytes.withUnsafeBufferPointer { path.append($0) }
    }

    private struct Unreadable: Error {}

    /// Adds `node` and its object-valued descendants to ``shape``; answers its index.
    private mutating func addShape(_ node: FieldNode, derived: [Int: DerivedEntityID]) -> Int {
        var derivation = -1
        if let derived = derived[node.id] {
            let member = derived.member.map { appendToken($0, closing: UInt8(ascii: "\"")) }
            derivations.append(
                Derivation(memberToken: member, opening: appendToken(derived.typeName, closing: UInt8(ascii: "/"))))
            derivation = derivations.count - 1
        }
        let index = shape.count
        shape.append(ShapeNode(derivation: derivation, children: 0..<0))
        var children: [(token: Range<Int>, node: Int)] = []
        for child in node.children where !child.children.isEmpty {
            let token = appendToken(child.responseKey, closing: UInt8(ascii: "\""))
            children.append((token, addShape(child, derived: derived)))
        }
        shape[index].children = shapeChildren.count..<(shapeChildren.count + children.count)
        shapeChildren += children
        return index
    }

    /// Appends `"`, `text` and `closing` to ``tokens`` (no string is built for it) and answers their range.
    private mutating func appendToken(_ text: String, closing: UInt8) -> Range<Int> {
        let start = tokens.count
        tokens.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { tokens.append($0) }
        tokens.append(closing)
        return start..<tokens.count
    }

    /// Whether the input's `token` has the bytes of `expected` in ``tokens``.
    @inline(__always)
    private func matches(_ token: Range<Int>, _ expected: Range<Int>) -> Bool {
        token.count == expected.count
            && memcmp(base + token.lowerBound, tokens.pointer + expected.lowerBound, token.count) == 0
    }

    /// ``QueryBuilder/entityIDKey`` with its quotes, as the member's name token reads.
    static let hiddenKeyToken: StaticString = #""_dc_eid""#
    private static let pathOpening: StaticString = #"{"path":"#
    private static let entityIDMember: StaticString = #"],"entityId":"#
    private static let getClosing: StaticString = #","action":"GET"}"#
    private static let entityIDsMember: StaticString = #"],"entityIds":["#
    private static let listClosing: StaticString = #"],"action":"LIST"}"#

    private var current: UInt8? {
        @inline(__always) get { position < input.count ? base[position] : nil }
    }

    /// Whether the name token in `token` (quotes included) is the hidden member's.
    @inline(__always)
    private func isHiddenKey(_ token: Range<Int>) -> Bool {
        let key = Self.hiddenKeyToken
        return token.count == key.utf8CodeUnitCount && memcmp(base + token.lowerBound, key.utf8Start, token.count) == 0
    }

    private mutating func skipSpaces() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    @inline(__always)
    private mutating func expect(_ byte: UInt8) throws(Unreadable) {
        guard current == byte else { throw Unreadable() }
        position += 1
    }

    /// Copies the input up to `range` into ``output`` and leaves `range` out.
    private mutating func cut(_ range: Range<Int>) {
        if !range.isEmpty { cutAny = true }
        if range.lowerBound > copiedUpTo {
            let count = range.lowerBound - copiedUpTo
            (output + outputCount).update(from: base + copiedUpTo, count: count)
            outputCount += count
        }
        copiedUpTo = range.upperBound
    }

    /// Reads the value at the cursor; answers the id of an object read as a list element.
    ///
    /// - Parameter node: The node in ``shape`` of the value's objects, or -1.
    private mutating func value(inList: Bool, node: Int = -1) throws(Unreadable) -> IDText? {
        switch current {
        case UInt8(ascii: "{"): return try object(inList: inList, node: node)
        case UInt8(ascii: "["): try list(node: node)
        case UInt8(ascii: "\""): _ = try string()
        case nil: throw Unreadable()
        default:
            let start = position
            while let byte = current, !Self.endsScalar(byte) { position += 1 }
            guard position > start else { throw Unreadable() }
        }
        return nil
    }

    private static func endsScalar(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || byte == 0x20
            || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// The range of the string token at the cursor, quotes included; moves past it. The input is read eight
    /// bytes at a time for the first quote or backslash; a backslash's next byte is skipped.
    private mutating func string() throws(Unreadable) -> Range<Int> {
        let start = position
        try expect(UInt8(ascii: "\""))
        var index = position
        let count = input.count
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while true {
            while index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
                let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
                // A byte of `x` is zero where the high bit of (x - 1) & ~x is set; the lowest such byte is exact.
                let found = (((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes)) & highs
                if found != 0 {
                    index += found.trailingZeroBitCount >> 3
                    break
                }
                index += 8
            }
            guard index < count else { throw Unreadable() }
            switch base[index] {
            case UInt8(ascii: "\""):
                position = index + 1
                return start..<position
            case UInt8(ascii: "\\"): index += 2
            default: index += 1
            }
        }
    }

    /// Adds a segment to ``path`` (a member's name token, or an index) and answers the length to cut back to.
    private mutating func pushSegment(member token: Range<Int>?, index: Int = 0) -> Int {
        let saved = path.count
        if path.count > 1 { path.append(UInt8(ascii: ",")) }
        if let token {
            path.append(base + token.lowerBound, count: token.count)
        } else {
            path.appendDecimal(index)
        }
        return saved
    }

    private mutating func reserve() -> Int {
        slots.append(nil)
        return slots.count - 1
    }

    /// Starts a property at ``path`` in ``rendered``: `{"path":[…]`, before its id member.
    private mutating func beginProperty() -> Int {
        let start = rendered.count
        rendered.append(Self.pathOpening)
        rendered.append(path)
        return start
    }

    /// The node in ``shape`` of the sub-field of `node` answered under the member name `token`, or -1.
    private func child(of node: Int, named token: Range<Int>) -> Int {
        guard node >= 0 else { return -1 }
        for index in shape[node].children where matches(token, shapeChildren[index].token) {
            return shapeChildren[index].node
        }
        return -1
    }

    /// Writes an id's text, as a JSON string, into ``rendered``.
    private mutating func writeID(_ id: IDText) {
        if id.derivation < 0 {
            rendered.append(base + id.range.lowerBound, count: id.range.count)
            return
        }
        let opening = derivations[id.derivation].opening
        rendered.append(tokens.pointer + opening.lowerBound, count: opening.count)
        rendered.append(base + id.range.lowerBound, count: id.range.count)
        rendered.append(UInt8(ascii: "\""))
    }

    /// Reads a key value (a scalar) at the cursor: its text, a string's inside its quotes; `nil` for `null`.
    private mutating func keyValue(_ derivation: Int) throws(Unreadable) -> IDText? {
        let start = position
        let isString = current == UInt8(ascii: "\"")
        _ = try value(inList: false)
        if isString { return IDText(range: (start + 1)..<(position - 1), derivation: derivation) }
        if input[start] == UInt8(ascii: "n") { return nil }
        return IDText(range: start..<position, derivation: derivation)
    }

    private mutating func object(inList: Bool, node: Int) throws(Unreadable) -> IDText? {
        // An element's id belongs to its list's property, which the list writes.
        let slot = inList ? nil : reserve()
        try expect(UInt8(ascii: "{"))
        var id: IDText?
        let derivation = node >= 0 ? shape[node].derivation : -1
        var first = true
        // A hidden first member is cut with the comma after it, when a member follows.
        var cutNextComma = false
        while true {
            skipSpaces()
            if current == UInt8(ascii: "}") {
                position += 1
                break
            }
            // Where a hidden member's cut starts: its comma, or its name when it comes first.
            var memberStart = position
            if !first {
                let comma = position
                try expect(UInt8(ascii: ","))
                if cutNextComma {
                    cut(comma..<position)
                    cutNextComma = false
                }
                skipSpaces()
                memberStart = comma
            }
            let isFirst = first
            first = false
            let key = try string()
            skipSpaces()
            try expect(UInt8(ascii: ":"))
            skipSpaces()
            if isHiddenKey(key) {
                if derivation >= 0 {
                    id = try keyValue(derivation)
                } else if current == UInt8(ascii: "\"") {
                    id = IDText(range: try string(), derivation: -1)
                } else {
                    _ = try value(inList: false)
                }
                cut(memberStart..<position)
                if isFirst { cutNextComma = true }
                continue
            }
            // Only objects and lists can hold ids, so only they need the path.
            if current == UInt8(ascii: "{") || current == UInt8(ascii: "[") {
                let saved = pushSegment(member: key)
                _ = try value(inList: false, node: child(of: node, named: key))
                path.truncate(to: saved)
            } else if derivation >= 0, id == nil, let member = derivations[derivation].memberToken,
                matches(key, member)
            {
                id = try keyValue(derivation)
            } else {
                _ = try value(inList: false)
            }
        }
        if let slot, let id {
            let start = beginProperty()
            rendered.append(Self.entityIDMember)
            writeID(id)
            rendered.append(Self.getClosing)
            slots[slot] = start..<rendered.count
        }
        return id
    }

    private mutating func list(node: Int) throws(Unreadable) {
        let slot = reserve()
        let firstID = elementIDs.count
        try expect(UInt8(ascii: "["))
        var count = 0
        var everyElementHasAnID = true
        while true {
            skipSpaces()
            if current == UInt8(ascii: "]") {
                position += 1
                break
            }
            if count > 0 {
                try expect(UInt8(ascii: ","))
                skipSpaces()
            }
            let isObject = current == UInt8(ascii: "{")
            if isObject || current == UInt8(ascii: "[") {
                let saved = pushSegment(member: nil, index: count)
                let id = try value(inList: isObject, node: node)
                path.truncate(to: saved)
                if let id { elementIDs.append(id) } else { everyElementHasAnID = false }
            } else {
                _ = try value(inList: false)
                everyElementHasAnID = false
            }
            count += 1
        }
        if count > 0 && everyElementHasAnID {
            let start = beginProperty()
            rendered.append(Self.entityIDsMember)
            for index in firstID..<elementIDs.count {
                if index > firstID { rendered.append(UInt8(ascii: ",")) }
                writeID(elementIDs[index])
            }
            rendered.append(Self.listClosing)
            slots[slot] = start..<rendered.count
        }
        elementIDs.removeLast(elementIDs.count - firstID)
    }
}

/// A growable byte buffer for the stripper's small, frequent appends, without an array's uniqueness checks.
private struct ByteBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    /// The first byte; valid until the next append.
    var pointer: UnsafePointer<UInt8> { UnsafePointer(base) }
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes, copied into an array.
    var array: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    @inline(__always)
    mutating func append(_ bytes: UnsafePointer<UInt8>, count added: Int) {
        if count + added > capacity { grow(to: count + added) }
        (base + count).update(from: bytes, count: added)
        count += added
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        base[count] = byte
        count += 1
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress else { return }
        append(start, count: bytes.count)
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        append(text.utf8Start, count: text.utf8CodeUnitCount)
    }

    mutating func append(_ other: borrowing ByteBuffer) {
        append(other.base, count: other.count)
    }

    /// Appends `value` (not negative) in decimal.
    mutating func appendDecimal(_ value: Int) {
        if value < 10 {
            append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var length = 1
        var shorter = value / 10
        while shorter > 0 {
            length += 1
            shorter /= 10
        }
        if count + length > capacity { grow(to: count + length) }
        var rest = value
        for offset in stride(from: length - 1, through: 0, by: -1) {
            base[count + offset] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        count += length
    }

    mutating func truncate(to length: Int) {
        count = length
    }

    private mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }
}

/// Entity-id properties already written as JSON: one object per property, back to back in ``bytes``, in
/// response order.
struct RenderedProperties {
    /// The objects' text.
    var bytes: [UInt8]
    /// Where each object is in ``bytes``.
    var ranges: [Range<Int>]

    /// Writes each property as one element of the array being written.
    func write(to writer: inout JSONWriter) {
        bytes.withUnsafeBytes { buffer in
            for range in ranges {
                writer.raw(UnsafeRawBufferPointer(rebasing: buffer[range]))
            }
        }
    }

    /// The properties, read back (for tests and for callers that need values).
    func decoded() throws -> [DataConnectProperties] {
        try ranges.map { range in try DataConnectProperties(json: try JSONValue(parsing: Array(bytes[range]))) }
    }
}
