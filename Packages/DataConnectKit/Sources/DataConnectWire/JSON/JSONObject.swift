/// A JSON object that keeps its keys in insertion order.
///
/// GraphQL responses are ordered (fields appear in selection order), so `JSONObject` stores its members as an
/// array of key-value pairs. Lookups scan that array while the object is small and use a hash index once it
/// grows past ``indexThreshold`` members.
///
/// Keys are unique. Assigning to an existing key replaces its value in place; when an input (a parsed document
/// or a dictionary literal) repeats a key, the **last value wins and the key keeps its first position**, as
/// JavaScript's `JSON.parse` does.
///
/// Equality ignores member order: two objects are equal when they have the same keys with equal values. Use
/// `elementsEqual(_:by:)` when order matters.
///
/// ```swift
/// var movie: JSONObject = ["id": "m1", "title": "Alien"]
/// movie["year"] = 1979
/// movie.keys  // ["id", "title", "year"]
/// ```
public struct JSONObject: Sendable {
    /// Members in insertion order.
    @usableFromInline
    var entries: [(key: String, value: JSONValue)]

    /// Positions of keys in `entries`, kept only for objects larger than ``indexThreshold``.
    @usableFromInline
    var index: [String: Int]?

    /// The member count above which lookups go through a hash index instead of a linear scan.
    public static let indexThreshold = 12

    /// Creates an empty object.
    @inlinable
    public init() {
        entries = []
        index = nil
    }

    /// Creates an object from key-value pairs in order; a repeated key keeps its first position and last value.
    public init<S: Sequence>(_ pairs: S) where S.Element == (String, JSONValue) {
        self.init()
        for (key, value) in pairs {
            self[key] = value
        }
    }

    /// Creates an object from members whose keys are known to be unique, with their index when one exists.
    init(uniqueEntries: [(key: String, value: JSONValue)], index: [String: Int]?) {
        entries = uniqueEntries
        self.index = index
        if index == nil && uniqueEntries.count > Self.indexThreshold {
            rebuildIndex()
        }
    }

    /// Reserves room for `capacity` members.
    public mutating func reserveCapacity(_ capacity: Int) {
        entries.reserveCapacity(capacity)
    }

    /// The keys in insertion order.
    public var keys: [String] {
        entries.map(\.key)
    }

    /// The values in insertion order.
    public var values: [JSONValue] {
        entries.map(\.value)
    }

    /// The value for `key`, or `nil` when absent; assigning `nil` removes the member.
    ///
    /// Assigning to an existing key replaces the value and keeps the key's position; a new key goes last.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let position = position(of: key) else { return nil }
            return entries[position].value
        }
        set {
            if let newValue {
                if let position = position(of: key) {
                    entries[position].value = newValue
                } else {
                    append(key, newValue)
                }
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Removes the member with `key` and returns its value, or `nil` when absent.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let position = position(of: key) else { return nil }
        let removed = entries.remove(at: position).value
        rebuildIndex()
        return removed
    }

    /// Whether the object has a member named `key`.
    public func contains(key: String) -> Bool {
        position(of: key) != nil
    }

    /// The position of `key` in insertion order.
    @inlinable
    public func position(of key: String) -> Int? {
        if let index {
            return index[key]
        }
        for position in entries.indices where entries[position].key == key {
            return position
        }
        return nil
    }

    /// Appends a member known to be new.
    @usableFromInline
    mutating func append(_ key: String, _ value: JSONValue) {
        entries.append((key, value))
        if index != nil {
            index?[key] = entries.count - 1
        } else if entries.count > Self.indexThreshold {
            rebuildIndex()
        }
    }

    private mutating func rebuildIndex() {
        guard entries.count > Self.indexThreshold else {
            index = nil
            return
        }
        var rebuilt: [String: Int] = [:]
        rebuilt.reserveCapacity(entries.count)
        for (position, entry) in entries.enumerated() {
            rebuilt[entry.key] = position
        }
        index = rebuilt
    }

    /// The members sorted by key, comparing UTF-8 bytes (which is Unicode scalar order).
    public var sortedByKey: [(key: String, value: JSONValue)] {
        entries.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }
}

extension JSONObject: RandomAccessCollection {
    public typealias Element = (key: String, value: JSONValue)

    public var startIndex: Int { 0 }

    public var endIndex: Int { entries.count }

    public subscript(position: Int) -> (key: String, value: JSONValue) {
        entries[position]
    }
}

extension JSONObject: Hashable {
    /// Whether both objects have the same keys with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.entries.count == rhs.entries.count else { return false }
        for (position, entry) in lhs.entries.enumerated() {
            // Same order is the common case: check the same position first.
            if rhs.entries[position].key == entry.key {
                guard rhs.entries[position].value == entry.value else { return false }
            } else {
                guard let other = rhs[entry.key], other == entry.value else { return false }
            }
        }
        return true
    }

    /// Hashes the members independently of their order.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for entry in entries {
            var memberHasher = Hasher()
            memberHasher.combine(entry.key)
            memberHasher.combine(entry.value)
            combined = combined &+ memberHasher.finalize()
        }
        hasher.combine(entries.count)
        hasher.combine(combined)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// Creates an object from a literal, keeping the literal's key order; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}

extension JSONObject: CustomStringConvertible {
    /// The object as compact JSON text.
    public var description: String {
        JSONValue.object(self).description
    }
}
