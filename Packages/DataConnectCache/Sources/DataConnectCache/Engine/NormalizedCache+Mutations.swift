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
        return try state.withLock { state in
            try changing(&state) { state in
                try storage.transaction { records, index in
                    let store = Store(records: records, index: index)
                    let changedFields = try store.mergeEntities(normalized.entities)
                    var changed = try store.readers(of: changedFields, excluding: nil)
                    var stale: Set<QueryKey.ID> = []
                    var reasons: [QueryKey.ID: [String: Set<String>]] = [:]
                    for property in properties {
                        guard let action = property.action, writes.contains(action) else { continue }
                        let ids = property.entityIds ?? property.entityId.map { [$0] } ?? []
                        if ids.isEmpty {
                            if let table = Self.table(ofBulkField: property.path) {
                                let affected = try index.queryIDs(showingTable: table).union(
                                    store.queriesListing(table: table))
                                stale.formUnion(affected)
                                for queryID in affected { reasons[queryID, default: [:]][Self.unknownReason] = [] }
                            }
                            continue
                        }
                        for id in ids {
                            switch action {
                            case .delete:
                                changed.formUnion(try store.deleteEverywhere(entity: id))
                            case .update, .upsert:
                                let carried = Set(normalized.entities[id]?.keys ?? [])
                                for (queryID, read) in try index.readers(ofEntity: id)
                                where !read.isSubset(of: carried) {
                                    stale.insert(queryID)
                                    reasons[queryID, default: [:]][id, default: []].formUnion(read.subtracting(carried))
                                }
                            default:
                                break
                            }
                            if action == .create || action == .upsert {
                                let listing = try store.queriesListing(table: EntityRecord.table(ofEntity: id))
                                stale.formUnion(listing)
                                for queryID in listing { reasons[queryID, default: [:]][Self.unknownReason] = [] }
                            }
                        }
                    }
                    try store.setStale(true, queryIDs: stale)
                    recordStaleness(reasons, state: &state)
                    // Entities only this mutation returned belong to no cached query.
                    try store.sweepOrphans(normalized.entities.keys)
                    let evicted = try evictIfNeeded(state: &state, store: store)
                    state.memo.forget(changed.union(stale))
                    return CacheUpdate(
                        changedQueries: changed.subtracting(evicted), staleQueries: stale.subtracting(evicted),
                        evictedQueries: evicted
                    )
                }
            }
        }
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

extension Store {
    /// The queries listing `table`, or listing an empty list whose table is unknown.
    func queriesListing(table: String) throws -> Set<QueryKey.ID> {
        try index.queryIDs(listingTable: table).union(index.queryIDs(listingTable: QueryDependencies.unknownTable))
    }

    /// Removes an entity from every query tree that shows it, then deletes its record.
    ///
    /// - Returns: The queries whose tree changed.
    func deleteEverywhere(entity id: String) throws -> Set<QueryKey.ID> {
        var changed: Set<QueryKey.ID> = []
        var orphanCandidates: Set<String> = []
        for queryID in try index.readers(ofEntity: id).keys {
            guard var record = try records.query(id: queryID),
                let tree = try? JSONValue(parsing: record.tree),
                let newTree = ResultTree.removing(entity: id, from: tree)
            else { continue }
            let oldDependencies = try index.dependencies(ofQuery: queryID)
            let dependencies = ResultTree.dependencies(of: newTree)
            record.tree = newTree.serialized()
            try records.save(record)
            try index.setDependencies(dependencies, ofQuery: queryID)
            orphanCandidates.formUnion(Set(oldDependencies.entities.keys).subtracting(dependencies.entities.keys))
            changed.insert(queryID)
        }
        try records.removeEntity(id: id)
        try sweepOrphans(orphanCandidates)
        return changed
    }
}
