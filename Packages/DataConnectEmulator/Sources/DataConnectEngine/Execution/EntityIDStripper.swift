import DataConnectWire

/// Takes the hidden entity-id members out of a result as the database rendered it, in one pass over its JSON
/// text, and lists the ids: what ``Execution/extractEntityIDs(_:path:into:)`` does to a parsed value, without
/// building one.
///
/// An object's `_dc_eid` becomes a `GET` property at the object's path; the objects of a list, when every
/// element has one, become one `LIST` property at the list's path, listed before the properties found inside
/// the elements. The text is copied without insignificant white space. Text that is not JSON as a database
/// writes it (which does not happen) answers `nil`, and the caller parses it instead.
struct EntityIDStripper {
    private let input: UnsafeBufferPointer<UInt8>
    private let root: [PathSegment]
    private var position = 0
    private var output: [UInt8] = []
    private var found: [DataConnectProperties?] = []
    /// The path below `root` to the value being read: member names as their tokens, so that a name is decoded
    /// only for the path of an id found under it.
    private var segments: [Segment] = []

    private enum Segment {
        case member(Range<Int>)
        case index(Int)
    }

    /// The text without hidden members and the entity ids it held, or `nil` when it is not readable.
    static func strip(_ bytes: [UInt8], path: [PathSegment]) -> (bytes: [UInt8], ids: [DataConnectProperties])? {
        bytes.withUnsafeBufferPointer { buffer in
            var stripper = EntityIDStripper(input: buffer, root: path)
            stripper.output.reserveCapacity(buffer.count)
            do throws(Unreadable) {
                stripper.skipSpaces()
                _ = try stripper.value(inList: false)
                stripper.skipSpaces()
                guard stripper.position == buffer.count else { return nil }
            } catch {
                return nil
            }
            return (stripper.output, stripper.found.compactMap { $0 })
        }
    }

    private init(input: UnsafeBufferPointer<UInt8>, root: [PathSegment]) {
        self.input = input
        self.root = root
    }

    /// The path of the value being read.
    private func path() throws(Unreadable) -> [PathSegment] {
        var path = root
        for segment in segments {
            switch segment {
            case .member(let token): path.append(.field(try decoded(token)))
            case .index(let index): path.append(.index(index))
            }
        }
        return path
    }

    private struct Unreadable: Error {}

    private static let hiddenKey = Array(QueryBuilder.entityIDKey.utf8)

    private var current: UInt8? { position < input.count ? input[position] : nil }

    private mutating func skipSpaces() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    private mutating func expect(_ byte: UInt8) throws(Unreadable) {
        guard current == byte else { throw Unreadable() }
        position += 1
    }

    /// Copies the value at the cursor; answers the entity id of an object read as a list element.
    private mutating func value(inList: Bool) throws(Unreadable) -> String? {
        switch current {
        case UInt8(ascii: "{"): return try object(inList: inList)
        case UInt8(ascii: "["): try list()
        case UInt8(ascii: "\""): copy(try string())
        case nil: throw Unreadable()
        default:
            let start = position
            while let byte = current, !Self.endsScalar(byte) { position += 1 }
            guard position > start else { throw Unreadable() }
            copy(start..<position)
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
        while let byte = current {
            position += 1
            if byte == UInt8(ascii: "\\") {
                position += 1
            } else if byte == UInt8(ascii: "\"") {
                return start..<position
            }
        }
        throw Unreadable()
    }

    /// The text of a string token, escapes resolved.
    private func decoded(_ token: Range<Int>) throws(Unreadable) -> String {
        let content = UnsafeBufferPointer(rebasing: input[(token.lowerBound + 1)..<(token.upperBound - 1)])
        if !content.contains(UInt8(ascii: "\\")) { return String(decoding: content, as: UTF8.self) }
        guard case .string(let text)? = try? JSONValue(parsing: Array(UnsafeBufferPointer(rebasing: input[token])))
        else { throw Unreadable() }
        return text
    }

    private mutating func copy(_ range: Range<Int>) {
        output.append(contentsOf: UnsafeBufferPointer(rebasing: input[range]))
    }

    private mutating func reserve() -> Int {
        found.append(nil)
        return found.count - 1
    }

    private mutating func object(inList: Bool) throws(Unreadable) -> String? {
        // An element's id belongs to its list's property, which the list writes.
        let slot = inList ? nil : reserve()
        try expect(UInt8(ascii: "{"))
        output.append(UInt8(ascii: "{"))
        var id: String?
        var wroteMember = false
        var first = true
        while true {
            skipSpaces()
            if current == UInt8(ascii: "}") {
                position += 1
                break
            }
            if !first {
                try expect(UInt8(ascii: ","))
                skipSpaces()
            }
            first = false
            let key = try string()
            skipSpaces()
            try expect(UInt8(ascii: ":"))
            skipSpaces()
            if input[(key.lowerBound + 1)..<(key.upperBound - 1)].elementsEqual(Self.hiddenKey) {
                if current == UInt8(ascii: "\"") {
                    id = try decoded(try string())
                } else {
                    var ignored: [UInt8] = []
                    swap(&ignored, &output)
                    _ = try value(inList: false)
                    swap(&ignored, &output)
                }
                continue
            }
            if wroteMember { output.append(UInt8(ascii: ",")) }
            copy(key)
            output.append(UInt8(ascii: ":"))
            segments.append(.member(key))
            _ = try value(inList: false)
            segments.removeLast()
            wroteMember = true
        }
        output.append(UInt8(ascii: "}"))
        if let slot, let id { found[slot] = DataConnectProperties(path: try path(), entityId: id, action: .get) }
        return id
    }

    private mutating func list() throws(Unreadable) {
        let slot = reserve()
        try expect(UInt8(ascii: "["))
        output.append(UInt8(ascii: "["))
        var ids: [String] = []
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
                output.append(UInt8(ascii: ","))
            }
            let isObject = current == UInt8(ascii: "{")
            segments.append(.index(count))
            let id = try value(inList: isObject)
            segments.removeLast()
            if let id {
                ids.append(id)
            } else {
                everyElementHasAnID = false
            }
            count += 1
        }
        output.append(UInt8(ascii: "]"))
        if count > 0 && everyElementHasAnID {
            found[slot] = DataConnectProperties(path: try path(), entityIds: ids, action: .list)
        }
    }
}
