/// An optional operation variable that tells "not set" apart from "set to `nil`".
///
/// An unset variable is left out of the request, so the server uses its default; a variable set to `nil`
/// is sent as `null`. Any assignment, `nil` included, sets it.
///
/// ```swift
/// struct Variables: Encodable {
///     @OptionalVariable var genre: String?
///     @OptionalVariable var rating: Double?
/// }
/// var variables = Variables()
/// variables.genre = nil          // sent as "genre": null
/// // rating is never assigned: left out
/// ```
///
/// Inside a struct with synthesized `Encodable`, an unset variable is omitted (see the
/// `KeyedEncodingContainer` overload). Encoded on its own, an unset variable writes `null`.
@propertyWrapper
public struct OptionalVariable<Value: Encodable>: Encodable {
    /// Whether the variable has been assigned, `nil` included.
    public private(set) var isSet: Bool
    private var value: Value?

    /// Creates an unset variable.
    public init() {
        isSet = false
        value = nil
    }

    /// Creates a variable set to `initialValue`, which may be `nil`.
    public init(wrappedValue initialValue: Value?) {
        isSet = true
        value = initialValue
    }

    /// The value; assigning sets the variable.
    public var wrappedValue: Value? {
        get { value }
        set {
            value = newValue
            isSet = true
        }
    }

    /// The variable itself, for `$name.isSet`.
    public var projectedValue: Self {
        get { self }
        set { self = newValue }
    }

    /// Writes the value, or `null` when it is `nil` or unset.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value {
            try container.encode(value)
        } else {
            try container.encodeNil()
        }
    }
}

/// A variable that may be unset, seen without its value type.
protocol SettableVariable {
    /// Whether the variable has been assigned.
    var isSet: Bool { get }
    /// The value, or `nil` when it is `nil` or unset.
    var encodableValue: (any Encodable)? { get }
}

extension OptionalVariable: SettableVariable {
    var encodableValue: (any Encodable)? { wrappedValue }
}

extension OptionalVariable: Sendable where Value: Sendable {}
extension OptionalVariable: Equatable where Value: Equatable {}
extension OptionalVariable: Hashable where Value: Hashable {}

extension KeyedEncodingContainer {
    /// Writes a set variable (its value or `null`) and leaves an unset one out.
    ///
    /// Synthesized `Encodable` conformances pick this overload for `@OptionalVariable` properties.
    public mutating func encode<Value>(_ variable: OptionalVariable<Value>, forKey key: Key) throws {
        guard variable.isSet else { return }
        if let value = variable.wrappedValue {
            try encode(value, forKey: key)
        } else {
            try encodeNil(forKey: key)
        }
    }
}
