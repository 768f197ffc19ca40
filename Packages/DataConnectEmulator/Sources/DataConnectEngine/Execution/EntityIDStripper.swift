import DataConnectWire

/// Takes the hidden entity-id members out of a result as the database rendered it, in one pass over its JSON
/// text, and writes the ids' properties as it goes: what ``Execution/extractEntityIDs(_:path:into:)`` does to
/// a parsed value, without building one, and without building a path, a string or a property per id.
///
/// An object's `_dc_eid` becomes a `GET` property at the object's path; the objects of a list, when every
/// element has one, become one `LIST` property at the list's path, listed before the properties found inside
/// the elements. Paths and ids are copied as the JSON tokens they are in the text. The text is copied in runs
/// between the hidden members, white space included. Text that is not JSON as a database writes it (which does
/// not happen) answers `nil`, and the caller parses it instead.
struct EntityIDStripper {
    private let input: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var output: [UInt8] = []
    /// The input before this position is in ``output`` or cut out: the text is copied in runs between hidden
    /// members, not token by token.
    private var copiedUpTo = 0
    /// The properties found, each one JSON object, in the order they were completed.
    private var rendered: [UInt8] = []
    /// Each property's bytes in ``rendered``, in response order: a slot is taken when its object or list
    /// starts, so that a list's property comes before those of its elements; an empty slot has no id.
    private var slots: [Range<Int>?] = []
    /// The JSON array of the path of the value being read, without its closing bracket.
    private var path: [UInt8]
    /// The id tokens of the elements of the lists being read, the innermost list's last.
    private var elementIDs: [Range<Int>] = []

    /// The text without hidden members and the entity ids it held, or `nil` when it is not readable.
    static func strip(_ bytes: [UInt8], path: [PathSegment]) -> (bytes: [UInt8], ids: RenderedProperties)? {
        bytes.withUnsafeBufferPointer { buffer in
            var stripper = EntityIDStripper(input: buffer, root: path)
            do throws(Unreadable) {
                stripper.skipSpaces()
                _ = try stripper.value(inList: false)
                stripper.skipSpaces()
                guard stripper.position == buffer.count else { return nil }
            } catch {
                return nil
            }
            stripper.cut(buffer.count..<buffer.count)
            return (
                stripper.output, RenderedProperties(bytes: stripper.rendered, ranges: stripper.slots.compactMap { $0 })
            )
        }
    }

    private init(input: UnsafeBufferPointer<UInt8>, root: [PathSegment]) {
        self.input = input
        output.reserveCapacity(input.count)
        var writer = JSONWriter(capacity: 64)
        writer.beginArray()
        for segment in root {
            switch segment {
            case .field(let name): writer.string(name)
            case .index(let index): writer.int(index)
            }
        }
        path = writer.bytes
    }

    private struct Unreadable: Error {}

    private static let hiddenKey = Array(QueryBuilder.entityIDKey.utf8)
    private static let pathOpening = Array(#"{"path":"#.utf8)
    private static let entityIDMember = Array(#"],"entityId":"#.utf8)
    private static let getClosing = Array(#","action":"GET"}"#.utf8)
    private static let entityIDsMember = Array(#"],"entityIds":["#.utf8)
    private static let listClosing = Array(#"],"action":"LIST"}"#.utf8)

    private var current: UInt8? { position < input.count ? input[position] : nil }

    private mutating func skipSpaces() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    private mutating func expect(_ byte: UInt8) throws(Unreadable) {
        guard current == byte else { throw Unreadable() }
        position += 1
    }

    /// Copies the input up to `range` into ``output`` and leaves `range` out.
    private mutating func cut(_ range: Range<Int>) {
        if range.lowerBound > copiedUpTo {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: input[copiedUpTo..<range.lowerBound]))
        }
        copiedUpTo = range.upperBound
    }

    /// Reads the value at the cursor; answers the id token of an object read as a list element.
    private mutating func value(inList: Bool) throws(Unreadable) -> Range<Int>? {
        switch current {
        case UInt8(ascii: "{"): return try object(inList: inList)
        case UInt8(ascii: "["): try list()
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

    /// The range of the string token at the cursor, quotes included; moves past it.
    private mutating func string() throws(Unreadable) -> Range<Int> {
        let start = position
        try expect(UInt8(ascii: "\""))
        var index = position
        let count = input.count
        guard let base = input.baseAddress else { throw Unreadable() }
        while index < count {
            let byte = base[index]
            if byte == UInt8(ascii: "\"") {
                position = index + 1
                return start..<position
            }
            index += byte == UInt8(ascii: "\\") ? 2 : 1
        }
        throw Unreadable()
    }

    /// Adds a segment to ``path`` (a member's name token, or an index) and answers the length to cut back to.
    private mutating func pushSegment(member token: Range<Int>?, index: Int = 0) -> Int {
        let saved = path.count
        if path.count > 1 { path.append(UInt8(ascii: ",")) }
        if let token {
            path.append(contentsOf: UnsafeBufferPointer(rebasing: input[token]))
        } else {
            Self.appendDecimal(index, to: &path)
        }
        return saved
    }

    private static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        if value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        bytes.append(contentsOf: String(value).utf8)
    }

    private mutating func reserve() -> Int {
        slots.append(nil)
        return slots.count - 1
    }

    /// Starts a property at ``path`` in ``rendered``: `{"path":[…]`, before its id member.
    private mutating func beginProperty() -> Int {
        let start = rendered.count
        rendered.append(contentsOf: Self.pathOpening)
        rendered.append(contentsOf: path)
        return start
    }

    private mutating func object(inList: Bool) throws(Unreadable) -> Range<Int>? {
        // An element's id belongs to its list's property, which the list writes.
        let slot = inList ? nil : reserve()
        try expect(UInt8(ascii: "{"))
        var id: Range<Int>?
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
            if input[(key.lowerBound + 1)..<(key.upperBound - 1)].elementsEqual(Self.hiddenKey) {
                if current == UInt8(ascii: "\"") {
                    id = try string()
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
                _ = try value(inList: false)
                path.removeLast(path.count - saved)
            } else {
                _ = try value(inList: false)
            }
        }
        if let slot, let id {
            let start = beginProperty()
            rendered.append(contentsOf: Self.entityIDMember)
            rendered.append(contentsOf: UnsafeBufferPointer(rebasing: input[id]))
            rendered.append(contentsOf: Self.getClosing)
            slots[slot] = start..<rendered.count
        }
        return id
    }

    private mutating func list() throws(Unreadable) {
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
                let id = try value(inList: isObject)
                path.removeLast(path.count - saved)
                if let id { elementIDs.append(id) } else { everyElementHasAnID = false }
            } else {
                _ = try value(inList: false)
                everyElementHasAnID = false
            }
            count += 1
        }
        if count > 0 && everyElementHasAnID {
            let start = beginProperty()
            rendered.append(contentsOf: Self.entityIDsMember)
            for index in firstID..<elementIDs.count {
                if index > firstID { rendered.append(UInt8(ascii: ",")) }
                rendered.append(contentsOf: UnsafeBufferPointer(rebasing: input[elementIDs[index]]))
            }
            rendered.append(contentsOf: Self.listClosing)
            slots[slot] = start..<rendered.count
        }
        elementIDs.removeLast(elementIDs.count - firstID)
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
