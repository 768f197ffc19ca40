import FirebaseCore
import Foundation

/// Writes the SDK's log lines to standard error, filtered by `FirebaseConfiguration.shared`'s logger level.
///
/// Each line starts with `[FirebaseDataConnect]` and the level, as upstream prefixes its lines with the SDK's
/// name. What is logged at which level:
/// - `.notice`: an answer from the cache because the server could not be reached (`.staleIfOffline`);
/// - `.warning`: a client cache that cannot be opened or written (nothing is thrown for it);
/// - `.debug`: a request that failed (the error is thrown to the caller, who decides whether it deserves a
///   warning, so the SDK does not print one for an error the app handles), which source answered an execution,
///   and each realtime reconnect with its delay.
///
/// The level and the destination are passed in, so tests filter and record without touching the process's
/// configuration. Each ``DataConnect`` holds its logger (injected through its internal initializer), and its refs
/// log through it: that is the seam tests record an instance's log lines through.
struct DataConnectLogger: Sendable {
    /// The logger the SDK uses: the process's level, standard error.
    static let shared = DataConnectLogger()

    private let level: @Sendable () -> FirebaseLoggerLevel
    private let write: @Sendable (String) -> Void

    /// Creates a logger.
    ///
    /// - Parameters:
    ///   - level: The most verbose level written, read at each message.
    ///   - write: Where a line goes, without its trailing newline.
    init(
        level: @escaping @Sendable () -> FirebaseLoggerLevel = { FirebaseConfiguration.shared.loggerLevel },
        write: @escaping @Sendable (String) -> Void = DataConnectLogger.writeToStandardError
    ) {
        self.level = level
        self.write = write
    }

    /// Writes `message` when `messageLevel` is at most the configured level; the message is built only then.
    ///
    /// - Parameters:
    ///   - messageLevel: How important the message is.
    ///   - message: The text, without prefix.
    func log(_ messageLevel: FirebaseLoggerLevel, _ message: @autoclosure () -> String) {
        guard messageLevel <= level() else { return }
        write("[FirebaseDataConnect] \(messageLevel.name): \(message())")
    }

    /// Writes `line` and a newline to standard error.
    static func writeToStandardError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
