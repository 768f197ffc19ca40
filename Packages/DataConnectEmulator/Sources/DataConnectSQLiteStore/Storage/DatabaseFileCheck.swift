import DataConnectEngine
import Foundation
import SQLiteKit

/// Checks an existing database file before the emulator opens it for writing.
///
/// SQLite opens a damaged file without complaint and fails later, on the reads that reach a bad page, while
/// writes elsewhere keep succeeding. So the file is checked first, without writing to it: it must not be empty,
/// must start with the SQLite header, must be a whole number of pages, and `PRAGMA quick_check` (run on a
/// read-only connection) must find nothing wrong.
enum DatabaseFileCheck {
    /// The first 16 bytes of every SQLite database file.
    static let header = Array("SQLite format 3\u{0}".utf8)

    /// - Throws: ``StorageError/emptyDatabaseFile(_:)`` or ``StorageError/damagedDatabase(path:reason:)``.
    static func verify(_ path: String) throws(StorageError) {
        let size: Int
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        } catch {
            throw .damagedDatabase(path: path, reason: "it cannot be read (\(error.localizedDescription))")
        }
        if size == 0 { throw .emptyDatabaseFile(path) }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .damagedDatabase(path: path, reason: "it cannot be opened for reading")
        }
        let start = [UInt8]((try? handle.read(upToCount: 100)) ?? Data())
        try? handle.close()
        guard start.count == 100, Array(start[0..<16]) == header else {
            throw .damagedDatabase(
                path: path, reason: "it does not start with the SQLite header, so it is not a database")
        }
        // Bytes 16-17: the page size, big-endian; 1 stands for 65,536.
        let rawPageSize = Int(start[16]) << 8 | Int(start[17])
        let pageSize = rawPageSize == 1 ? 65_536 : rawPageSize
        guard pageSize >= 512, pageSize & (pageSize - 1) == 0 else {
            throw .damagedDatabase(path: path, reason: "its header gives an impossible page size (\(rawPageSize))")
        }
        guard size % pageSize == 0 else {
            throw .damagedDatabase(
                path: path,
                reason: "its size (\(size) bytes) is not a whole number of \(pageSize)-byte pages, so it was cut short "
                    + "or extended")
        }
        let problems: [String]
        do {
            let connection = try Connection(
                path: path, configuration: Connection.Configuration(mode: .readOnly, foreignKeys: false))
            // Each row may hold several lines, under a `*** in database main ***` heading.
            problems = try connection.query("PRAGMA quick_check(5)").compactMap { $0[0] as String? }
                .flatMap { $0.split(separator: "\n").map(String.init) }.filter { !$0.hasPrefix("***") }
        } catch {
            throw .damagedDatabase(path: path, reason: "SQLite cannot read it (\(error.message))")
        }
        guard problems == ["ok"] else {
            throw .damagedDatabase(
                path: path, reason: "PRAGMA quick_check found: \(problems.joined(separator: "; "))")
        }
    }
}
