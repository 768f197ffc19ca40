import DataConnectEngine
import GraphQLLanguage

extension Emulator {
    /// Checks a seed file against the served schema before it runs, as `dataconnect validate --seed` does:
    /// parsed and validated as an admin document, its CEL checked and its operations compiled (to SQLite's SQL, as
    /// the start checks compile the connectors).
    ///
    /// The emulator checks `--seed` at start whether or not the database is empty, so a typo (an enum value
    /// `MEDUIM`) is reported at `seed_data.gql:14:30` on every start, not only on the first.
    ///
    /// - Parameter path: The seed file, as messages print it.
    /// - Throws: ``EmulatorError`` with the diagnostics when the file cannot be read or has errors.
    public func validateSeed(fromFile path: String) throws(EmulatorError) {
        let seed = try SeedFile(path: path)
        let diagnostics = StartChecks.diagnostics(
            forAdminDocument: Source(name: path, text: seed.text), service: engine.service,
            dialect: StoreConfiguration.startCheckDialect, limits: options.limits)
        for warning in diagnostics where warning.severity != .error { options.log(warning.description) }
        let errors = diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty else { throw EmulatorError(diagnostics: errors) }
    }
}
