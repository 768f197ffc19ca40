import DataConnectWire
import Synchronization

/// An ``AuthStorage`` that keeps nothing beyond the process: the default when the emulator has no data directory.
///
/// ```swift
/// let auth = try AuthEmulator(storage: MemoryAuthStorage())
/// ```
public final class MemoryAuthStorage: AuthStorage {
    private let projects = Mutex<[String: StoredProject]>([:])

    private struct StoredProject {
        var accounts: [String: JSONValue] = [:]
        var config: JSONValue?
    }

    /// Creates an empty storage.
    public init() {}

    public func load() throws -> [String: StoredAuthProject] {
        projects.withLock { projects in
            projects.mapValues { StoredAuthProject(accounts: Array($0.accounts.values), config: $0.config) }
        }
    }

    public func upsertAccount(_ record: JSONValue, localId: String, project: String) throws {
        projects.withLock { $0[project, default: StoredProject()].accounts[localId] = record }
    }

    public func deleteAccount(localId: String, project: String) throws {
        projects.withLock { _ = $0[project]?.accounts.removeValue(forKey: localId) }
    }

    public func deleteAllAccounts(project: String) throws {
        projects.withLock { $0[project]?.accounts = [:] }
    }

    public func saveConfig(_ config: JSONValue, project: String) throws {
        projects.withLock { $0[project, default: StoredProject()].config = config }
    }
}
