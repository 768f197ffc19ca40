/// An ordered list of HTTP header fields with case-insensitive lookup.
///
/// Headers keep the order and spelling they arrived (or were added) in; names compare ASCII
/// case-insensitively. A plain array of pairs is cheaper than a dictionary for the handful of headers a
/// request carries, and it keeps repeated fields.
///
/// ```swift
/// var headers: HTTPHeaders = ["Content-Type": "application/json"]
/// headers.add(name: "Cache-Control", value: "no-store")
/// headers["content-type"]  // "application/json"
/// ```
public struct HTTPHeaders: Sendable, Equatable {
    /// One header field.
    public struct Field: Sendable, Equatable {
        /// The field name as sent or added, for example `Content-Type`.
        public var name: String
        /// The field value.
        public var value: String

        /// Creates a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in order.
    public private(set) var fields: [Field]

    /// Creates an empty header list.
    public init() {
        fields = []
    }

    /// Creates a header list from fields, keeping their order.
    public init(_ fields: [Field]) {
        self.fields = fields
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// The value of the first field named `name` (case-insensitive), or `nil`.
    ///
    /// Setting a value replaces every field of that name with one field at the position of the first;
    /// setting `nil` removes them all.
    public subscript(name: String) -> String? {
        get {
            // By index: no field is copied (and retained) to be looked at.
            for index in fields.indices where Self.namesEqual(fields[index].name, name) {
                return fields[index].value
            }
            return nil
        }
        set {
            guard let newValue else {
                remove(name: name)
                return
            }
            if let index = fields.firstIndex(where: { Self.namesEqual($0.name, name) }) {
                fields[index].value = newValue
                var next = index + 1
                while next < fields.count {
                    if Self.namesEqual(fields[next].name, name) {
                        fields.remove(at: next)
                    } else {
                        next += 1
                    }
                }
            } else {
                fields.append(Field(name: name, value: newValue))
            }
        }
    }

    /// The values of every field named `name` (case-insensitive), in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.namesEqual($0.name, name) }.map(\.value)
    }

    /// Whether a field named `name` (case-insensitive) is present.
    public func contains(name: String) -> Bool {
        fields.contains { Self.namesEqual($0.name, name) }
    }

    /// Appends a field, keeping any existing fields of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field named `name` (case-insensitive).
    public mutating func remove(name: String) {
        fields.removeAll { Self.namesEqual($0.name, name) }
    }

    /// Compares two header names ASCII case-insensitively without allocating or copying either.
    static func namesEqual(_ lhs: String, _ rhs: String) -> Bool {
        // Most names differ in length: no bytes compared then.
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        let compared = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in bytesEqualIgnoringCase(left, right) }
        }
        if let compared, let result = compared { return result }
        // A string without contiguous UTF-8 (bridged): compared through its views.
        return zip(lhs.utf8, rhs.utf8).allSatisfy { asciiLowercased($0) == asciiLowercased($1) }
    }

    private static func bytesEqualIgnoringCase(
        _ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>
    )
        -> Bool
    {
        guard left.count == right.count else { return false }
        for index in 0..<left.count where asciiLowercased(left[index]) != asciiLowercased(right[index]) {
            return false
        }
        return true
    }

    @inline(__always)
    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}

extension HTTPHeaders: ExpressibleByDictionaryLiteral {
    /// Creates a header list from a literal, in the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }
}

extension HTTPHeaders: Sequence {
    /// Iterates over the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }
}
