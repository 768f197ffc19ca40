/// How much the Firebase SDKs log, from errors only to everything.
///
/// The cases and their raw values are upstream's (`FIRLoggerLevel`, which follows the syslog levels): a message
/// is written when its level is at most the configured one, so `.debug` shows everything and `.error` only
/// errors. Set it with ``FirebaseConfiguration/setLoggerLevel(_:)``; the default is ``notice``.
///
/// ```swift
/// FirebaseConfiguration.shared.setLoggerLevel(.debug)
/// ```
public enum FirebaseLoggerLevel: Int, Sendable, Hashable, CaseIterable, Comparable {
    /// Errors: something failed and the app will see it.
    case error = 3
    /// Warnings: something failed and was recovered from, or is about to.
    case warning = 4
    /// Notices: normal but significant events, such as answering from the cache after a failure.
    case notice = 5
    /// Information about normal operation.
    case info = 6
    /// Detail for debugging the SDK.
    case debug = 7

    /// The least verbose level, ``error``.
    public static let min = FirebaseLoggerLevel.error
    /// The most verbose level, ``debug``.
    public static let max = FirebaseLoggerLevel.debug

    /// Orders levels from the least verbose (``error``) to the most (``debug``).
    public static func < (lhs: FirebaseLoggerLevel, rhs: FirebaseLoggerLevel) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// The lowercase name written in log lines, e.g. `warning`.
    public var name: String {
        switch self {
        case .error: "error"
        case .warning: "warning"
        case .notice: "notice"
        case .info: "info"
        case .debug: "debug"
        }
    }
}
