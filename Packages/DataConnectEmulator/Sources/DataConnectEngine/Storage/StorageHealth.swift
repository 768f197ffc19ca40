import Synchronization

/// Damage found in the database the emulator serves from: where, what was found, and what the user can do.
public struct StorageFailure: Hashable, Sendable {
    /// The database file (or `host:port/database` on PostgreSQL).
    public var location: String
    /// What was found, in the database's words (`database disk image is malformed`).
    public var detail: String
    /// What to do about it.
    public var remedy: String

    /// Creates a failure.
    public init(location: String, detail: String, remedy: String) {
        self.location = location
        self.detail = detail
        self.remedy = remedy
    }

    /// The one message every request gets once the database is found damaged.
    public var message: String {
        "the database \(location) is damaged (\(detail)); the emulator stopped serving it and acknowledges no "
            + "more writes. \(remedy)"
    }
}

/// The one owner of whether the database the emulator serves from is still usable.
///
/// A storage error that means damage (SQLite's `SQLITE_CORRUPT` or `SQLITE_NOTADB`, PostgreSQL's `XX001` and
/// `XX002`), or the periodic integrity probe, records a ``StorageFailure`` here, once: from then on the engine
/// answers every request with `UNAVAILABLE` and the message of the failure, refuses to commit writes, and
/// `/emulator/info` reports it. The first failure recorded is kept; later ones are ignored.
///
/// ```swift
/// let health = StorageHealth(location: "data/dataconnect.sqlite", remedy: "restore a copy")
/// health.setObserver { failure in print("error: \(failure.message)") }
/// health.recordDamage("database disk image is malformed")
/// health.failure?.detail   // "database disk image is malformed"
/// ```
public final class StorageHealth: Sendable {
    private struct State {
        var location: String
        var failure: StorageFailure?
        var observer: (@Sendable (StorageFailure) -> Void)?
    }

    private let state: Mutex<State>
    /// Set with the failure, so that every request's check reads one atomic while the database is fine.
    private let failed = Atomic<Bool>(false)
    private let remedy: String

    /// Creates the health of a database that is fine so far.
    ///
    /// - Parameters:
    ///   - location: The database file, or `host:port/database`.
    ///   - remedy: What the user should do once it is damaged.
    public init(location: String, remedy: String) {
        state = Mutex(State(location: location))
        self.remedy = remedy
    }

    /// The damage found, or `nil` while none was.
    public var failure: StorageFailure? {
        guard failed.load(ordering: .acquiring) else { return nil }
        return state.withLock { $0.failure }
    }

    /// Names the database once it is known (PostgreSQL's location is read from the server after connecting).
    package func setLocation(_ location: String) {
        state.withLock { $0.location = location }
    }

    /// Calls `observer` once, when the first damage is recorded (at once when it already was).
    public func setObserver(_ observer: @escaping @Sendable (StorageFailure) -> Void) {
        let existing = state.withLock { state -> StorageFailure? in
            state.observer = observer
            return state.failure
        }
        if let existing { observer(existing) }
    }

    /// Records damage found in the database; only the first record counts.
    ///
    /// - Parameter detail: What was found (the database's message, or what the probe saw).
    /// - Returns: The failure in effect: this one, or the one recorded before.
    @discardableResult
    public func recordDamage(_ detail: String) -> StorageFailure {
        let (failure, observer) = state.withLock { state -> (StorageFailure, (@Sendable (StorageFailure) -> Void)?) in
            if let failure = state.failure { return (failure, nil) }
            let failure = StorageFailure(location: state.location, detail: detail, remedy: remedy)
            state.failure = failure
            failed.store(true, ordering: .releasing)
            return (failure, state.observer)
        }
        observer?(failure)
        return failure
    }

    /// Records the damage `error` reports, if it reports damage: a ``DatabaseError`` of kind
    /// ``DatabaseError/Kind/damaged``. A store whose driver throws errors of its own checks those itself.
    package func recordDamage(ifReportedBy error: any Error) {
        if let error = error as? DatabaseError, error.kind == .damaged {
            recordDamage(error.message)
        }
    }
}
