import DataConnectEngine
import DataConnectWire
import Foundation
import GraphQLLanguage

/// A seed file (`--seed`, usually `dataconnect/seed_data.gql`): an admin GraphQL document the emulator runs at
/// start, once, on an empty database.
///
/// Its failures name the file as given and, where the failing mutation field can be found, its line and column:
/// `dataconnect/seed_data.gql:3:3: duplicate key value violates unique constraint "user_pkey"`.
struct SeedFile {
    /// The path as given, as messages print it.
    let path: String
    /// The file's text.
    let text: String

    /// Reads a seed file.
    ///
    /// - Throws: ``EmulatorError`` when the file cannot be read.
    init(path: String) throws(EmulatorError) {
        self.path = path
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw EmulatorError("cannot read the seed file \(path): \(error.localizedDescription)")
        }
    }

    /// Creates a seed file from its text.
    init(path: String, text: String) {
        self.path = path
        self.text = text
    }

    /// The errors of a failed run, one line each: `path:line:col: message` where the error gives a location, or
    /// its path names a mutation field of the file; `path: message` otherwise.
    ///
    /// The fields rolled back or not run because another field failed (code `ABORTED`) are left out when some
    /// other error says what failed.
    ///
    /// - Parameter errors: The `errors` of the response.
    /// - Returns: One line per error kept.
    func failureLines(_ errors: [JSONValue]) -> [String] {
        let decoded = errors.compactMap { try? GraphQLError(json: $0) }
        let causes = decoded.filter { $0.effectiveCode != .aborted }
        let fields = mutationFieldLocations()
        return (causes.isEmpty ? decoded : causes).map { error in
            if let location = error.locations.first {
                return "\(path):\(location.line):\(location.column): \(error.message)"
            }
            if case .field(let key)? = error.path.first, let location = fields[key] {
                return "\(path):\(location.line):\(location.column): \(error.message)"
            }
            return "\(path): \(error.message)"
        }
    }

    /// Where each top-level field of the file's mutations starts, by response key (the first one written wins).
    private func mutationFieldLocations() -> [String: SourceLocation] {
        guard let document = try? GraphQLParser.parseDocument(Source(name: path, text: text)) else { return [:] }
        var locations: [String: SourceLocation] = [:]
        for operation in document.operations where operation.operation == .mutation {
            for case .field(let field) in operation.selectionSet.selections where locations[field.responseKey] == nil {
                locations[field.responseKey] = field.location.start
            }
        }
        return locations
    }
}

extension Emulator {
    /// Runs a seed file when the database is empty: when no table of the served schema has a row (the
    /// emulator's own bookkeeping tables do not count). Otherwise logs one line saying why the seed is skipped,
    /// and returns.
    ///
    /// This is what `--seed` does at start, so that a persistent database (`--data-dir`, `--postgres`) started
    /// again with the same seed file keeps its data instead of failing on duplicate keys. The check and the seed
    /// run inside ``DataStore/whileSeeding(_:)``: emulators starting at once on one PostgreSQL database seed once.
    ///
    /// ```swift
    /// try emulator.seedIfEmpty(fromFile: "dataconnect/seed_data.gql")
    /// // log: seed skipped: table Movie has rows; dataconnect/seed_data.gql runs only on an empty database
    /// ```
    ///
    /// - Parameter path: The seed file, as messages print it.
    /// - Returns: Whether the seed ran.
    /// - Throws: ``EmulatorError`` when the file cannot be read, the database cannot be read, or the seed fails
    ///   (see ``seed(fromFile:)``).
    @discardableResult
    public func seedIfEmpty(fromFile path: String) throws(EmulatorError) -> Bool {
        let store = self.store
        do {
            // Emulators starting at once on one PostgreSQL database check and seed one after the other.
            return try store.whileSeeding { () throws(EmulatorError) -> Bool in
                let ddl = SchemaDDL(model: engine.service.api.model, dialect: store.dialect)
                let occupied: TableDDL?
                do {
                    occupied = try ddl.firstTableWithRows(in: store.access)
                } catch {
                    throw EmulatorError("cannot tell whether the database is empty to seed it from \(path): \(error)")
                }
                if let occupied {
                    options.log(
                        "seed skipped: table \(occupied.typeName) has rows; \(path) runs only on an empty database")
                    return false
                }
                try seed(fromFile: path)
                return true
            }
        } catch let error as EmulatorError {
            throw error
        } catch {
            throw EmulatorError("cannot lock the database to seed it from \(path): \(error)")
        }
    }
}
