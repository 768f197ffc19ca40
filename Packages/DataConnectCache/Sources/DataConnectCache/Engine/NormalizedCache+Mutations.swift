import DataConnectWire

extension NormalizedCache {
    /// Applies a mutation's response to cached queries, using its entity ids and actions.
    ///
    /// - Entity values in the response (for example from a nested `query { ... }` field) are merged as in
    ///   ``write(query:response:properties:maxAge:)``; queries showing a changed field are in `changedQueries`.
    /// - `DELETE` of an id removes the entity from every cached list, sets single references to it to `null`
    ///   and deletes its record; those queries are in `changedQueries`, to republish without a refetch.
    /// - `UPDATE` or `UPSERT` of an id: queries reading fields of that entity the response did not carry
    ///   become stale.
    /// - `CREATE` or `UPSERT`: queries listing entities of that table (or an empty list of unknown table)
    ///   become stale.
    /// - `<table>_updateMany` and `<table>_deleteMany` carry no ids: every query showing or listing that table
    ///   (`movieActor` is table `MovieActor`) becomes stale.
    ///
    /// ```swift
    /// let update = try cache.applyMutation(response: data, properties: extensions.dataConnect)
    /// update.changedQueries  // republish from the cache
    /// update.staleQueries    // refetch the observed ones
    /// ```
    ///
    /// - Parameters:
    ///   - data: The mutation response's `data` object.
    ///   - properties: The mutation response's `extensions.dataConnect`.
    /// - Returns: The changed, stale and evicted queries.
    /// - Throws: Storage errors.
    @discardableResult
    public func applyMutation(response data: JSONObject, properties: [DataConnectProperties]) throws -> CacheUpdate {
        let writes: Set<DataConnectProperties.Action> = [.create, .update, .upsert, .delete]
        let normalized = Normalizer(properties: properties) { !writes.contains($0.action ?? .unspecified) }
            .normalize(data)
        return try pinned.withLock { pinned in
            try changing {
                try storage.transaction {
                    let changedFields = try mergeEntities(normalized.entities)
                    var changed = try readers(of: changedFields, excluding: nil)
                    var stale: Set<QueryKey.ID> = []
                    var reasons: [QueryKey.ID: [String: Set<String>]] = [:]
                    for property in properties {
                        guard let action = property.action, writes.contains(action) else { continue }
                        let ids = property.entityIds ?? property.entityId.map { [$0] } ?? []
                        if ids.isEmpty {
                            if let table = Self.table(ofBulkField: property.path) {
                                let affected = try storage.queryIDs(showingTable: table).union(
                                    queriesListing(table: table))
                                stale.formUnion(affected)
                                for queryID in affected { reasons[queryID, default: [:]][Self.unknownReason] = [] }
                            }
                            continue
                        }
                        for id in ids {
                            switch action {
                            case .delete:
                                changed.formUnion(try deleteEverywhere(entity: id))
                            case .update, .upsert:
                                let carried = Set(normalized.entities[id]?.keys ?? [])
                                for (queryID, read) in try storage.readers(ofEntity: id)
                                where !read.isSubset(of: carried) {
                                    stale.insert(queryID)
                                    reasons[queryID, default: [:]][id, default: []].formUnion(read.subtracting(carried))
                                }
                            default:
                                break
                            }
                            if action == .create || action == .upsert {
                                let listing = try queriesListing(table: EntityRecord.table(ofEntity: id))
                                stale.formUnion(listing)
                                for queryID in listing { reasons[queryID, default: [:]][Self.unknownReason] = [] }
                            }
                        }
                    }
                    try storage.markStale(queryIDs: stale)
                    recordStaleness(reasons)
                    // Entities only this mutation returned belong to no cached query.
                    try sweepOrphans(normalized.entities.keys)
                    let evicted = try evictIfNeeded(pinned: pinned)
                    forget(changed.union(stale))
                    return CacheUpdate(
                        changedQueries: changed.subtracting(evicted), staleQueries: stale.subtracting(evicted),
                        evictedQueries: evicted
                    )
                }
            }
        }
    }

    /// The queries listing `table`, or listing an empty list whose table is unknown.
    private func queriesListing(table: String) throws -> Set<QueryKey.ID> {
        try storage.queryIDs(listingTable: table).union(storage.queryIDs(listingTable: QueryDependencies.unknownTable))
    }

    /// Removes an entity from every query tree that shows it, then deletes its record.
    ///
    /// - Returns: The queries whose tree changed.
    private func deleteEverywhere(entity id: String) throws -> Set<QueryKey.ID> {
        var changed: Set<QueryKey.ID> = []
        var orphanCandidates: Set<String> = []
        for queryID in try storage.readers(ofEntity: id).keys {
            guard var record = try storage.query(id: queryID),
                let tree = try? JSONValue(parsing: record.tree),
                let newTree = ResultTree.removing(entity: id, from: tree)
            else { continue }
            let oldDependencies = try storage.dependencies(ofQuery: queryID)
            let dependencies = ResultTree.dependencies(of: newTree)
            record.tree = newTree.serialized()
            try storage.saveQuery(record, dependencies: dependencies)
            orphanCandidates.formUnion(Set(oldDependencies.entities.keys).subtracting(dependencies.entities.keys))
            changed.insert(queryID)
        }
        try storage.deleteEntity(id: id)
        try sweepOrphans(orphanCandidates)
        return changed
    }

    /// The table a bulk root field such as `movieActor_updateMany` acts on: `MovieActor`.
    static func table(ofBulkField path: [PathSegment]) -> String? {
        guard path.count == 1, case .field(let name) = path[0] else { return nil }
        for suffix in ["_updateMany", "_deleteMany", "_insertMany", "_upsertMany"] where name.hasSuffix(suffix) {
            let field = name.dropLast(suffix.count)
            guard let first = field.first else { return nil }
            return first.uppercased() + field.dropFirst()
        }
        return nil
    }
}
