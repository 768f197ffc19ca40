import DataConnectCache
import DataConnectWire
import Foundation
import Synchronization

/// The SDK's side of the client cache: one normalized cache per host and signed-in user.
///
/// ``DataConnect`` owns one when it has ``CacheSettings``. Each user gets their own database (in memory, or a
/// SQLite file under ``CacheSettings/directory``), so signing in as someone else switches to their cache and
/// signing back in finds the old one again. A database that cannot be opened or is corrupt is set aside and
/// rebuilt by the storage with a warning; if even that fails, the SDK runs without a cache for that user.
final class ClientCache: Sendable {
    /// The settings in force.
    let settings: CacheSettings
    private let identity: CacheLocation
    private let warn: @Sendable (String) -> Void
    private let clock: @Sendable () -> Date
    private let engines = Mutex<[String: NormalizedCache]>([:])
    private let pins = Mutex<Set<QueryKey>>([])

    /// Creates the cache of one connector.
    ///
    /// - Parameters:
    ///   - settings: Storage, freshness, size and folder.
    ///   - projectID: The Firebase project.
    ///   - appName: The Firebase app's name.
    ///   - connectorConfig: The connector.
    ///   - warn: Where warnings go (a database set aside, a database that cannot be opened).
    ///   - clock: The current time; injected by tests.
    init(
        settings: CacheSettings, projectID: String, appName: String, connectorConfig: ConnectorConfig,
        warn: @escaping @Sendable (String) -> Void = ClientCache.printWarning,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.settings = settings
        self.identity = CacheLocation(
            storage: settings.storage == .memory ? "memory" : "persistent", projectID: projectID, appName: appName,
            serviceID: connectorConfig.serviceId, connector: connectorConfig.connector,
            location: connectorConfig.location, host: "", userID: nil)
        self.warn = warn
        self.clock = clock
    }

    /// Logs a warning through the SDK's logger (standard error, under `FirebaseConfiguration`'s level).
    static let printWarning: @Sendable (String) -> Void = { message in
        DataConnectLogger.shared.log(.warning, message)
    }

    /// The cache of `uid` on `host`, opened on first use; `nil` when it cannot be opened at all.
    func engine(host: String, uid: String?) -> NormalizedCache? {
        var location = identity
        location.host = host
        location.userID = uid
        let key = location.identity
        return engines.withLock { engines -> NormalizedCache? in
            if let existing = engines[key] { return existing }
            let storage: any CacheStorage
            switch settings.storage {
            case .memory:
                storage = MemoryCacheStorage()
            case .persistent:
                let directory = settings.directory ?? CacheLocation.defaultDirectory()
                do {
                    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                    storage = try SQLiteCacheStorage(path: location.filePath(in: directory), onWarning: warn)
                } catch {
                    warn("cannot open the cache in \(directory): \(error); continuing without a cache")
                    return nil
                }
            }
            let engine = NormalizedCache(
                storage: storage, maxSize: settings.maxSize, maxAge: settings.maxAge, clock: clock)
            for key in pins.withLock({ $0 }) { engine.pin(key) }
            engines[key] = engine
            return engine
        }
    }

    /// Protects an observed query from eviction in every open cache.
    func pin(_ key: QueryKey) {
        let inserted = pins.withLock { $0.insert(key).inserted }
        guard inserted else { return }
        for engine in engines.withLock({ Array($0.values) }) { engine.pin(key) }
    }

    /// Makes a query evictable again once its ref is released.
    func unpin(_ key: QueryKey) {
        pins.withLock { _ = $0.remove(key) }
        for engine in engines.withLock({ Array($0.values) }) { engine.unpin(key) }
    }
}

extension QueryKey {
    /// The cache key of an operation name and its encoded variables.
    init(_ operationName: String, _ variables: Result<JSONObject, DataConnectCodecError>) {
        switch variables {
        case .success(let object): self.init(operationName: operationName, variables: object)
        case .failure: self.init(operationName: operationName, variables: ["!": .string("unencodable")])
        }
    }
}
