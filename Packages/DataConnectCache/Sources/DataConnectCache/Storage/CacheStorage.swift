/// Where a ``NormalizedCache`` keeps its records: a ``RecordStore`` and a ``DependencyIndex`` behind one lock.
///
/// Storage knows nothing about JSON trees or normalization, so the same engine and the same tests run on every
/// backend: ``MemoryCacheStorage`` and ``SQLiteCacheStorage``.
///
/// The records and the index are reached only inside ``transaction(_:)``, which holds the storage's one lock
/// for the whole body, so every step of a cache operation sees the others' effects and no other thread's. SQLite
/// also commits the body's writes at once and rolls them back when it throws. The lock is not reentrant: a body
/// must not start another transaction on the same storage.
///
/// ```swift
/// let storage: any CacheStorage = MemoryCacheStorage()
/// try storage.transaction { records, index in
///     try records.save(EntityRecord(id: "Movie/m1", fields: Array(#"{"title":"Alien"}"#.utf8)))
/// }
/// ```
public protocol CacheStorage: AnyObject, Sendable {
    /// Runs `body` with the lock held, on the records and the dependency index, as one transaction.
    ///
    /// - Parameter body: The work; the store and the index must not escape it.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws (after rolling back, where the backend can), or a storage error.
    func transaction<T: Sendable>(_ body: (any RecordStore, any DependencyIndex) throws -> T) throws -> T

    /// Deletes every record and the whole index.
    ///
    /// - Throws: Storage errors.
    func clear() throws
}
