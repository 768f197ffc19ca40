import DataConnectEngine
import SQLiteKit

extension DatabaseError {
    /// An SQLite error, classified by its extended result code.
    public init(_ error: SQLiteError) {
        let kind: Kind =
            switch error.extendedCode {
            case .constraintUnique, .constraintPrimaryKey: .uniqueViolation
            case .constraintForeignKey: .foreignKeyViolation
            case .constraintNotNull: .notNullViolation
            case .constraintCheck: .checkViolation
            default:
                switch error.code {
                case .tooBig: .tooBig
                case .noMemory: .outOfMemory
                case .interrupt: .interrupted
                case .busy, .locked, .ioError, .cannotOpen: .unavailable
                case .corrupt, .notADatabase: .damaged
                default: .other
                }
            }
        self.init(kind, error.message)
    }

    /// Whether an SQLite error means the database is damaged: its primary code is `SQLITE_CORRUPT` or
    /// `SQLITE_NOTADB`, whatever the extended code (`SQLITE_CORRUPT_INDEX`, `SQLITE_CORRUPT_SEQUENCE`).
    static func isDamage(_ error: SQLiteError) -> Bool {
        error.code == .corrupt || error.code == .notADatabase
    }
}

extension StorageFailure {
    /// What to do with a damaged SQLite database file.
    static func sqliteRemedy(_ file: String) -> String {
        "Stop the emulator, copy \(file) and \(file)-wal aside, then restore an export (move the file away and "
            + "start with --import DIR) or recover the data with `sqlite3 \(file) .recover`"
    }
}

extension StorageHealth {
    /// Records the damage `error` reports, if it reports damage: an ``SQLiteError`` whose primary code is
    /// `SQLITE_CORRUPT` or `SQLITE_NOTADB` (extended codes such as `SQLITE_CORRUPT_INDEX` included), or a
    /// ``DatabaseError`` of kind ``DatabaseError/Kind/damaged``.
    func recordSQLiteDamage(ifReportedBy error: any Error) {
        if let error = error as? SQLiteError, DatabaseError.isDamage(error) {
            recordDamage(error.message)
        } else {
            recordDamage(ifReportedBy: error)
        }
    }
}
