import DataConnectWire

/// Where the Auth emulator keeps its accounts and settings between runs.
///
/// Everything is loaded once at start (``load()``); after that, each change is written through: one account upserted
/// or deleted, all of a project's accounts deleted, a project's settings saved. Accounts are stored as their
/// firebase-tools export record (``UserRecord/json``), so an export is a dump.
///
/// ```swift
/// let storage = try SQLiteAuthStorage(path: "/tmp/data/auth.sqlite")
/// let auth = try AuthEmulator(storage: storage)
/// ```
///
/// Implementations: ``MemoryAuthStorage``, ``SQLiteAuthStorage``, ``PostgreSQLAuthStorage``. Calls are made one at a
/// time (the emulator holds its state lock), so implementations need no locking of their own beyond `Sendable`.
public protocol AuthStorage: Sendable {
    /// Everything stored, by project.
    ///
    /// - Throws: Whatever the backing store throws.
    func load() throws -> [String: StoredAuthProject]

    /// Inserts or replaces one account.
    ///
    /// - Parameters:
    ///   - record: The account's export record (`localId` and the rest).
    ///   - localId: The account's user id.
    ///   - project: The project id.
    func upsertAccount(_ record: JSONValue, localId: String, project: String) throws

    /// Deletes one account.
    func deleteAccount(localId: String, project: String) throws

    /// Deletes every account of a project.
    func deleteAllAccounts(project: String) throws

    /// Saves a project's settings (`config.json`'s shape).
    func saveConfig(_ config: JSONValue, project: String) throws
}

/// What ``AuthStorage/load()`` returns for one project.
public struct StoredAuthProject: Sendable, Equatable {
    /// The accounts' export records, in no particular order.
    public var accounts: [JSONValue]
    /// The project's settings, when saved.
    public var config: JSONValue?

    /// Creates a stored project.
    public init(accounts: [JSONValue] = [], config: JSONValue? = nil) {
        self.accounts = accounts
        self.config = config
    }
}
