import Foundation

/// Parses protobuf JSON durations such as `30s`, `1.5s` or `-0.000001s` into seconds.
enum ProtobufDuration {
    /// The seconds a duration text stands for, or `nil` when it is not a duration.
    static func seconds(_ text: String) -> TimeInterval? {
        guard text.hasSuffix("s") else { return nil }
        guard let value = Double(text.dropLast()), value.isFinite else { return nil }
        return value
    }
}
