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
/// An object's hidden member (the empty name, which no field's response key can be) becomes a `GET` property at
/// the object's path; the objects of a list, when every element has one, become one `LIST` property at the list's
/// path, listed before the properties found inside the elements. A scalar field's value (a JSON value, a list) is
/// data, whatever its members are called. For an object whose field node is in the plan's
/// ``ReadPlan/derivedEntityIDs``, the id is the type name, `/` and the text of its key value: the selected key
/// field's, or the hidden member's bare key.
/// Paths and ids are copied as the JSON tokens they are in the text. The text is copied in runs between the
/// hidden members, white space included. Text that is not JSON as a database writes it (which does
/// not happen) answers `nil`, and the caller parses it instead.
struct EntityIDStripper: ~Copyable {
    /// The input's first byte.
    private let base: UnsafePointer<UInt8>
    /// The input's length.
    private let count: Int
    /// Where the text without hidden members is written: never longer than the input.
    private let output: UnsafeMutablePointer<UInt8>
    private var outputCount = 0
    /// The input before this position is in ``output`` or cut out: the text is copied in runs between hidden
    /// members, not token by token.
    private var copiedUpTo = 0
    /// Whether a hidden member was cut out: when none was, the input is the output, and is not copied.
    private var cutAny = false
    /// The properties found, each one JSON object, in the order they were completed. Their text is about as long
    /// as the input's when every object has an id (each path is written out), so it starts that large.
    private var rendered: ByteBuffer
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
                var stripper = EntityIDStripper(base: base, count: buffer.count, output: outputBase, root: path)
                do throws(Unreadable) {
                    if let root { _ = stripper.addShape(root, derived: derived) }
                    let start = stripper.skipSpaces(from: 0)
                    let end = try stripper.value(at: start, inList: false, node: stripper.shape.isEmpty ? -1 : 0).end
                    guard stripper.skipSpaces(from: end) == buffer.count else { return }
                } catch {
                    return
                }
                if stripper.cutAny {
                    stripper.cut(buffer.count..<buffer.count)
                    written = stripper.outputCount
                } else {
                    unchanged = true
                }
                ids = stripper.properties()
            }
        }
        guard let ids else { return nil }
        return (unchanged ? bytes : stripped, ids)
    }

    /// The properties in response order, separated by commas: each slot's bytes copied once, so that the answer
    /// takes them in one write.
    private func properties() -> RenderedProperties {
        var length = 0
        var count = 0
        for case let range? in slots {
            length += range.count + (count > 0 ? 1 : 0)
            count += 1
        }
        let bytes = [UInt8](unsafeUninitializedCapacity: length) { destination, written in
            written = 0
            guard let start = destination.baseAddress else { return }
            for case let range? in slots {
                if written > 0 {
                    start[written] = UInt8(ascii: ",")
                    written += 1
                }
                (start + written).update(from: rendered.pointer + range.lowerBound, count: range.count)
                written += range.count
            }
        }
        return RenderedProperties(bytes: bytes, count: count)
    }

    private init(base: UnsafePointer<UInt8>, count: Int, output: UnsafeMutablePointer<UInt8>, root: [PathSegment]) {
        self.base = base
        self.count = count
        self.output = output
        rendered = ByteBuffer(capacity: Swift.min(Swift.max(count + count / 4, 1024), 1 << 20))
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
    static let hiddenKeyToken: StaticString = #""""#
    private static let pathOpening: StaticString = #"{"path":"#
    private static let entityIDMember: StaticString = #"],"entityId":"#
    private static let getClosing: StaticString = #","action":"GET"}"#
    private static let entityIDsMember: StaticString = #"],"entityIds":["#
    private static let listClosing: StaticString = #"],"action":"LIST"}"#

    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")

    /// Whether `byte` is JSON white space.
    @inline(__always)
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// The index of the first byte at or after `index` that is not white space (``count`` at the end). Text from
    /// SQLite has none, PostgreSQL's has one space here and there: one comparison decides in most cases.
    @inline(__always)
    private func skipSpaces(from index: Int) -> Int {
        var index = index
        while index < count, base[index] <= 0x20, Self.isSpace(base[index]) { index += 1 }
        return index
    }

    /// The byte at `index`, or 0 past the end (0 is not valid JSON outside a string, so it never matches).
    @inline(__always)
    private func byte(at index: Int) -> UInt8 {
        index < count ? base[index] : 0
    }

    /// Whether the name token in `token` (quotes included) is the hidden member's: the empty name, two quotes.
    @inline(__always)
    private func isHiddenKey(_ token: Range<Int>) -> Bool {
        token.count == 2
    }

    /// Where the value starting at `start` ends, read as data: a scalar field's value (a JSON value or a list)
    /// holds no ids, whatever its members are called.
    private func endOfData(at start: Int) throws(Unreadable) -> Int {
        switch byte(at: start) {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < count {
                switch base[index] {
                case Self.quote:
                    index = try endOfString(at: index)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default:
                    break
                }
                index += 1
            }
            throw Unreadable()
        case Self.quote: return try endOfString(at: start)
        default: return try endOfScalar(at: start)
        }
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

    /// Reads the value starting at `start`; answers where it ends and, for an object read as a list element,
    /// its id.
    ///
    /// - Parameter node: The node in ``shape`` of the value's objects, or -1.
    private mutating func value(
        at start: Int, inList: Bool, node: Int
    ) throws(Unreadable) -> (
        end: Int, id: IDText?
    ) {
        switch byte(at: start) {
        case UInt8(ascii: "{"): return try object(at: start, inList: inList, node: node)
        case UInt8(ascii: "["): return (try list(at: start, node: node), nil)
        case Self.quote: return (try endOfString(at: start), nil)
        default: return (try endOfScalar(at: start), nil)
        }
    }

    /// Where the number, `true`, `false` or `null` starting at `start` ends.
    @inline(__always)
    private func endOfScalar(at start: Int) throws(Unreadable) -> Int {
        var index = start
        while index < count {
            let byte = base[index]
            // `,`, `]`, `}` and white space (and any other control byte, which the caller then refuses).
            if byte > UInt8(ascii: "]")
                ? byte == UInt8(ascii: "}")
                : byte == UInt8(ascii: ",") || byte <= 0x20
                    || byte == UInt8(ascii: "]")
            {
                break
            }
            index += 1
        }
        guard index > start else { throw Unreadable() }
        return index
    }

    /// Where the string token whose opening quote is at `start` ends (after its closing quote). A quote closes the
    /// string unless an odd run of backslashes comes right before it. The first eight bytes are looked at as one
    /// word (most member names and short values end there); the rest is searched with `memchr`, which reads
    /// many bytes at a time.
    @inline(__always)
    private func endOfString(at start: Int) throws(Unreadable) -> Int {
        guard byte(at: start) == Self.quote else { throw Unreadable() }
        var index = start + 1
        if index + 8 <= count {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) ^ (ones &* UInt64(Self.quote))
            // A byte of `word` is zero where the high bit of (word - 1) & ~word is set; the lowest such byte is exact.
            let found = (word &- ones) & ~word & 0x8080_8080_8080_8080
            if found != 0 {
                let at = index + found.trailingZeroBitCount >> 3
                if base[at - 1] != Self.backslash || isClosingQuote(at, stringStart: start) { return at + 1 }
                index = at + 1
            } else {
                index += 8
            }
        }
        while index < count {
            guard let found = memchr(base + index, Int32(Self.quote), count - index) else { break }
            let at = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - base
            if isClosingQuote(at, stringStart: start) { return at + 1 }
            index = at + 1
        }
        throw Unreadable()
    }

    /// Whether the quote at `index` closes the string opened at `stringStart`: an even run of backslashes
    /// (none, most often) precedes it.
    @inline(__always)
    private func isClosingQuote(_ index: Int, stringStart: Int) -> Bool {
        var before = index - 1
        while before > stringStart && base[before] == Self.backslash { before -= 1 }
        return (index - 1 - before) & 1 == 0
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
    @inline(__always)
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
        rendered.append(Self.quote)
    }

    /// Reads a key value (a scalar) starting at `start`: where it ends, and its text (a string's inside its
    /// quotes); `nil` for `null`.
    @inline(__always)
    private func keyValue(at start: Int, _ derivation: Int) throws(Unreadable) -> (end: Int, id: IDText?) {
        switch byte(at: start) {
        case Self.quote:
            let end = try endOfString(at: start)
            return (end, IDText(range: (start + 1)..<(end - 1), derivation: derivation))
        case UInt8(ascii: "{"), UInt8(ascii: "["): throw Unreadable()
        case let first:
            let end = try endOfScalar(at: start)
            return (end, first == UInt8(ascii: "n") ? nil : IDText(range: start..<end, derivation: derivation))
        }
    }

    /// Reads the object whose `{` is at `start`; answers where it ends and its id.
    private mutating func object(
        at start: Int, inList: Bool, node: Int
    ) throws(Unreadable) -> (
        end: Int, id: IDText?
    ) {
        // An element's id belongs to its list's property, which the list writes.
        let slot = inList ? -1 : reserve()
        var index = start + 1
        var id: IDText?
        let derivation = node >= 0 ? shape[node].derivation : -1
        var first = true
        // A hidden first member is cut with the comma after it, when a member follows.
        var cutNextComma = false
        while true {
            index = skipSpaces(from: index)
            if byte(at: index) == UInt8(ascii: "}") {
                index += 1
                break
            }
            // Where a hidden member's cut starts: its comma, or its name when it comes first.
            let memberStart = index
            if !first {
                guard byte(at: index) == UInt8(ascii: ",") else { throw Unreadable() }
                if cutNextComma {
                    cut(index..<(index + 1))
                    cutNextComma = false
                }
                index = skipSpaces(from: index + 1)
            }
            let isFirst = first
            first = false
            let keyStart = index
            index = try endOfString(at: index)
            let key = keyStart..<index
            index = skipSpaces(from: index)
            guard byte(at: index) == UInt8(ascii: ":") else { throw Unreadable() }
            index = skipSpaces(from: index + 1)
            let opening = byte(at: index)
            if isHiddenKey(key) {
                if derivation >= 0 {
                    (index, id) = try keyValue(at: index, derivation)
                } else if opening == Self.quote {
                    let end = try endOfString(at: index)
                    id = IDText(range: index..<end, derivation: -1)
                    index = end
                } else {
                    index = try value(at: index, inList: false, node: -1).end
                }
                cut(memberStart..<index)
                if isFirst { cutNextComma = true }
                continue
            }
            switch opening {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let member = child(of: node, named: key)
                if node >= 0 && member < 0 {
                    // Not an object of the selection: a scalar field's JSON value or list.
                    index = try endOfData(at: index)
                    continue
                }
                // Only objects and lists can hold ids, so only they need the path.
                let saved = pushSegment(member: key)
                index = try value(at: index, inList: false, node: member).end
                path.truncate(to: saved)
            default:
                if derivation >= 0, id == nil, let member = derivations[derivation].memberToken, matches(key, member) {
                    (index, id) = try keyValue(at: index, derivation)
                } else if opening == Self.quote {
                    index = try endOfString(at: index)
                } else {
                    index = try endOfScalar(at: index)
                }
            }
        }
        if slot >= 0, let id {
            let start = beginProperty()
            rendered.append(Self.entityIDMember)
            writeID(id)
            rendered.append(Self.getClosing)
            slots[slot] = start..<rendered.count
        }
        return (index, id)
    }

    /// Reads the list whose `[` is at `start`; answers where it ends.
    private mutating func list(at start: Int, node: Int) throws(Unreadable) -> Int {
        let slot = reserve()
        let firstID = elementIDs.count
        var index = start + 1
        var count = 0
        var everyElementHasAnID = true
        while true {
            index = skipSpaces(from: index)
            if byte(at: index) == UInt8(ascii: "]") {
                index += 1
                break
            }
            if count > 0 {
                guard byte(at: index) == UInt8(ascii: ",") else { throw Unreadable() }
                index = skipSpaces(from: index + 1)
            }
            let opening = byte(at: index)
            if opening == UInt8(ascii: "{") || opening == UInt8(ascii: "[") {
                let saved = pushSegment(member: nil, index: count)
                let element = try value(at: index, inList: opening == UInt8(ascii: "{"), node: node)
                path.truncate(to: saved)
                index = element.end
                if let id = element.id { elementIDs.append(id) } else { everyElementHasAnID = false }
            } else {
                index = try value(at: index, inList: false, node: -1).end
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
        return index
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

/// Entity-id properties already written as JSON: in response order, separated by commas.
struct RenderedProperties {
    /// The objects' text, separated by commas.
    var bytes: [UInt8]
    /// How many objects ``bytes`` holds.
    var count: Int

    /// Writes each property as one element of the array being written, all in one raw write: the writer puts a
    /// comma before the first when an element precedes it, and after the last when one follows.
    func write(to writer: inout JSONWriter) {
        if count > 0 { writer.raw(bytes) }
    }

    /// The properties, read back (for tests and for callers that need values).
    func decoded() throws -> [DataConnectProperties] {
        guard count > 0, case .array(let values) = try JSONValue(parsing: Array("[".utf8) + bytes + Array("]".utf8))
        else { return [] }
        return try values.map { try DataConnectProperties(json: $0) }
    }
}
