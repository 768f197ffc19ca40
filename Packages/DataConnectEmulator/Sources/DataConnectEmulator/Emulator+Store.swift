import DataConnectEngine
import DataConnectSchema

/// The database the emulator serves from: migrating it, sharing its changes, watching its health, and switching
/// to the PostgreSQL database a `POST /emulator/configure` names. Stores open through ``StoreConfiguration``.
extension Emulator {
    /// Serves from the PostgreSQL database `connectionString` names from now on: connects, migrates the
    /// served schema there, and closes the previous database (requests still running on it fail with
    /// `UNAVAILABLE`). Nothing changes when the database cannot be reached or migrated, nor when it is the one
    /// served already.
    func switchDatabase(to connectionString: String) throws(EmulatorError) {
        if storeConfiguration.isPostgreSQL(connectionString) { return }
        let configuration = StoreConfiguration.postgreSQL(
            connectionString: connectionString, connections: options.readers + 1)
        let next: any DataStore
        do throws(EmulatorError) {
            next = try configuration.open()
        } catch {
            throw EmulatorError(error.message, status: .failedPrecondition)
        }
        let service = engine.service
        try Self.migrate(service, store: next, log: options.log)
        let engine = Engine(
            service: service, database: next.access, dialect: next.dialect, limits: options.limits,
            executionLimits: options.executionLimits, embeddings: embeddings.provider(for: service),
            transport: options.transport)
        let previous = served.withLock { current in
            defer { current = (next, configuration) }
            return current.store
        }
        responder.replace(engine, database: next.summary)
        Self.connect(responder.hub, to: next)
        Self.logDamage(of: next, log: options.log)
        previous.beginClosing()
        try? previous.close()
        options.log("database: \(next.summary.description)")
    }

    /// Migrates the store to the service's schema, logging the issues that do not keep it from being served.
    ///
    /// - Throws: ``EmulatorError`` when the migration fails, or leaves blocking issues
    ///   (``MigrationIssue/isBlocking``): a column the schema needs could not be added, so the schema cannot be
    ///   served. The message lists each with what to do.
    static func migrate(
        _ service: CompiledService, store: any DataStore, log: @Sendable (String) -> Void
    ) throws(EmulatorError) {
        let report: MigrationReport
        do {
            report = try store.migrate(service.api.model)
        } catch {
            throw EmulatorError("failed to migrate the schema: \(error)")
        }
        let blocking = report.blockingIssues
        for issue in report.issues where !issue.isBlocking { log("migration issue: \(issue)") }
        guard blocking.isEmpty else {
            throw EmulatorError(
                "cannot migrate the database to the schema, the data does not allow it:\n"
                    + blocking.map { "  \($0)" }.joined(separator: "\n"))
        }
    }

    /// Shares the hub's changes with the other processes serving from the store's database, and theirs with
    /// the hub.
    static func connect(_ hub: SubscriptionHub, to store: any DataStore) {
        hub.setChangePublisher { [weak store] change in store?.publish(change) }
        store.observeChanges { [weak hub] change in hub?.changeCommittedElsewhere(change) }
    }

    /// Probes the database file for damage after ``Options/integrityProbeInterval``, then again, until stopped;
    /// nothing to probe in memory or on PostgreSQL (``DataStore/probesIntegrity``).
    func scheduleIntegrityProbe() {
        guard !stopped.load(ordering: .acquiring), store.probesIntegrity else { return }
        let action = options.clock.schedule(after: options.integrityProbeInterval) { [weak self] in
            guard let self, !self.stopped.load(ordering: .acquiring) else { return }
            self.store.probeIntegrity()
            if self.store.health.failure == nil { self.scheduleIntegrityProbe() }
        }
        nextProbe.withLock { $0 = action }
    }

    /// Logs, once, the damage found in the store's database.
    static func logDamage(of store: any DataStore, log: @escaping @Sendable (String) -> Void) {
        store.health.setObserver { failure in log("error: \(failure.message)") }
    }
}
