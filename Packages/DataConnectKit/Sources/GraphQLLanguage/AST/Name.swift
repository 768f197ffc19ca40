/// A name with its location.
public struct Name: Hashable, Sendable, CustomStringConvertible {
    public var value: String
    public var location: NodeLocation

    public init(_ value: String, location: NodeLocation = .synthesized) {
        self.value = value
        self.location = location
    }

    public var description: String { value }
}
