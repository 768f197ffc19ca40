import DataConnectEngine
import Foundation
import SQLiteKit
import Synchronization

/// The cheap, periodic check of a database file the emulator serves from, for damage no request has hit yet.
///
/// A write goes to the write-ahead log, so it succeeds even when pages of the database file are damaged; only
/// a later read of a damaged page, or the next start, would notice, and the writes acknowledged meanwhile
/// would be lost. The emulator runs the probe every few seconds (on its clock), and only when there were writes
/// since the last run. Each run, under the writer's lock so that it is ordered with the writes:
/// 1. reads the file's first 100 bytes from disk: the SQLite header, and a page size that divides the file's
///    size (the file changes size only at checkpoints, which run under the same lock);
/// 2. on a fresh read-only connection (no page cache to hide damage), runs `PRAGMA quick_check(1)` over the
///    whole database when the file is at most ``fullCheckLimit`` bytes, and otherwise `PRAGMA quick_check` of
///    one table (with its indexes), the next in turn at each run. `quick_check` reads every page of what it
///    checks but skips the costly cross-checks of `integrity_check`, so a run costs at most one sequential read
///    of a small file, or of one table of a big one.
final class IntegrityProbe: Sendable {
    /// Files up to this size are checked whole at each run: 64 MiB.
    static let fullCheckLimit = 64 << 20

    private struct State {
        var writesSeen = 0
        var nextTable = 0
    }

    private let state = Mutex(State())

    /// Runs the probe on `pool` when there were writes since the last run; records damage in its health.
    ///
    /// - Returns: The damage found, or `nil`.
    @discardableResult
    func run(_ pool: SQLitePool) -> String? {
        guard case .file(let file) = pool.location, pool.health.failure == nil else { return nil }
        let writes = pool.writes
        guard state.withLock({ $0.writesSeen != writes }) else { return nil }
        let problem: String? = pool.write { _ in
            state.withLock { $0.writesSeen = pool.writes + 1 }
            return headerProblem(file) ?? checkProblem(file)
        }
        if let problem { pool.health.recordDamage(problem) }
        return problem
    }

    /// What is wrong with the file's header on disk, if anything.
    func headerProblem(_ file: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: file) else { return "the file cannot be opened" }
        defer { try? handle.close() }
        let start = [UInt8]((try? handle.read(upToCount: 100)) ?? Data())
        let size = (try? handle.seekToEnd()).map(Int.init) ?? 0
        guard start.count == 100, Array(start[0..<16]) == DatabaseFileCheck.header else {
            return "the file no longer starts with the SQLite header"
        }
        let rawPageSize = Int(start[16]) << 8 | Int(start[17])
        let pageSize = rawPageSize == 1 ? 65_536 : rawPageSize
        guard pageSize >= 512, pageSize & (pageSize - 1) == 0, size % pageSize == 0 else {
            return "the header's page size (\(rawPageSize)) does not fit the file's size (\(size) bytes)"
        }
        return nil
    }

    /// What `PRAGMA quick_check` finds, if anything: on the whole file when it is small, else on one table.
    func checkProblem(_ file: String) -> String? {
        let size = ((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? NSNumber)?.intValue ?? 0
        do {
            let connection = try Connection(
                path: file, configuration: Connection.Configuration(mode: .readOnly, foreignKeys: false))
            var pragma = "PRAGMA quick_check(1)"
            if size > Self.fullCheckLimit {
                let tables = try connection.query(
                    "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name"
                ).compactMap { $0[0] as String? }
                guard !tables.isEmpty else { return nil }
                let index = state.withLock { state in
                    defer { state.nextTable += 1 }
                    return state.nextTable % tables.count
                }
                pragma = "PRAGMA quick_check('\(tables[index].replacingOccurrences(of: "'", with: "''"))')"
            }
            // Each row may hold several lines, under a `*** in database main ***` heading.
            let lines = try connection.query(pragma).compactMap { $0[0] as String? }
                .flatMap { $0.split(separator: "\n").map(String.init) }.filter { !$0.hasPrefix("***") }
            guard lines == ["ok"] else { return "PRAGMA quick_check found: " + lines.joined(separator: "; ") }
            return nil
        } catch {
            return error.message
        }
    }
}
