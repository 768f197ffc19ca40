import Synchronization

/// Settings shared by every Firebase SDK in the process, such as how much they log.
///
/// As upstream, there is one instance, ``shared``. It is safe to use from any thread.
///
/// ```swift
/// FirebaseConfiguration.shared.setLoggerLevel(.debug)   // see every request, cache decision and reconnect
/// ```
public final class FirebaseConfiguration: Sendable {
    /// The process's configuration.
    public static let shared = FirebaseConfiguration()

    private let level = Mutex(FirebaseLoggerLevel.notice)

    /// Creates a configuration that logs at ``FirebaseLoggerLevel/notice``; tests use their own instance.
    init() {}

    /// Sets how much the Firebase SDKs log from now on.
    ///
    /// Messages at `loggerLevel` or less verbose are written to standard error, each prefixed with the SDK's
    /// name, e.g. `[FirebaseDataConnect]`. The default is ``FirebaseLoggerLevel/notice``.
    ///
    /// - Parameter loggerLevel: The most verbose level written.
    public func setLoggerLevel(_ loggerLevel: FirebaseLoggerLevel) {
        level.withLock { $0 = loggerLevel }
    }

    /// The most verbose level written **[ext]**: upstream keeps it private to its logger.
    public var loggerLevel: FirebaseLoggerLevel {
        level.withLock { $0 }
    }

    /// Whether a message at `messageLevel` is written under the current level **[ext]**.
    ///
    /// - Parameter messageLevel: The message's level.
    /// - Returns: `true` when `messageLevel` is at most ``loggerLevel``.
    public func isLoggable(_ messageLevel: FirebaseLoggerLevel) -> Bool {
        messageLevel <= loggerLevel
    }
}
