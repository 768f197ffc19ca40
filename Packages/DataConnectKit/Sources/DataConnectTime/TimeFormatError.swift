/// Why a text is not a date or a timestamp in the form required.
///
/// The reason is a short lower-case phrase naming the first problem found, without the text itself, so callers
/// can put it into their own messages.
///
/// ```swift
/// do {
///     _ = try RFC3339Timestamp(parsing: "2024-05-01T24:00:00Z")
/// } catch {
///     error.reason  // "hour 24 is out of range 00-23"
/// }
/// ```
public struct TimeFormatError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with the text, e.g. `missing the time zone ('Z' or an offset like +02:00)`.
    public let reason: String

    /// Creates an error.
    ///
    /// - Parameter reason: What is wrong with the text.
    public init(reason: String) {
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }
}
