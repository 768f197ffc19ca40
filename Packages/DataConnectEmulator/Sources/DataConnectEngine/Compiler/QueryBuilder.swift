import DataConnectCEL
import DataConnectSchema
import DataConnectWire

/// Writes the SQL of read fields: one statement per root field that returns the field's JSON, built by
/// SQLite itself.
///
/// A list is two layers: the inner applies `where`, `orderBy`, `limit` and `offset` to the rows, carrying only
/// the columns the objects read (so nested subqueries run only for returned rows), and the outer renders each
/// row as a JSON object and aggregates them into an array in the inner's order. (A distinct list has a third
/// layer that drops duplicate objects before the page is cut.) Relations are correlated subqueries of the same
/// shape; aggregates group by the plain fields selected beside them.
struct QueryBuilder {
    let api: GeneratedAPI
    let dialect: any SQLDialect
    let resolution: Resolution
    private(set) var parameters: [ParameterSource] = []
    /// The tables (type names) the statement reads, recorded as FROM clauses are written.
    var tables: Set<String> = []
    private var aliasCounter = 0
    /// Whether each row object carries its entity id under ``entityIDKey`` (removed before the response).
    var includeEntityIDs = false
    /// With ``includeEntityIDs``: whether the statement leaves the joining of an id's type and key to the reader
    /// where the key is one `UUID` or `Int` column (see ``derivableEntityID(_:table:)``), recording those objects
    /// in ``derivedEntityIDs``.
    var derivesEntityIDs = false
    /// The objects whose entity ids are read off their key value, by field node.
    var derivedEntityIDs: [Int: DerivedEntityID] = [:]
    /// The most filter terms (fields and operators of `where` and `having` values) one statement may hold.
    var maximumFilterTerms = Int.max
    /// The filter terms compiled so far.
    var filterTerms = 0

    /// The operation's `_expr` server values, parsed once, by source text.
    var expressions: [String: CELExpression] = [:]
    /// How many list or single-row subqueries enclose the SQL being written.
    var nesting = 0
    /// Relations moved to statements of their own (deeper than the dialect allows), by marker index.
    var splits: [ReadPlan] = []
    /// Whether the JSON holds markers (split relations, object parts) to resolve before use.
    var needsAssembly = false

    /// The ranking of the next list written (a similarity or search field), and of the aliases written.
    var pendingRanking: RankingKind?
    var rankedAliases: [String: RankingKind] = [:]

    /// The hidden key that carries entity ids out of SQL: the empty name, which no field's response key (an alias
    /// or a name, GraphQL names being never empty) can be.
    static let entityIDKey = ""

    /// The columns read through each alias, so a list's innermost layer selects only what the rows' objects use.
    let references = ColumnReferences()
    /// The `LEFT JOIN` clauses of to-one relations read in each list's innermost layer, by the list's alias.
    var pendingJoins: [String: [String]] = [:]
    /// The aliases of lists that are relations of a parent row (their statement runs once per parent).
    var listsPerParentRow: Set<String> = []

    init(api: GeneratedAPI, dialect: any SQLDialect, resolution: Resolution) {
        self.api = api
        self.dialect = dialect
        self.resolution = resolution
    }

    var model: SchemaModel { api.model }

    /// Placeholders are numbered (`?N`), so parameters may be created in any order relative to the text.
    var parameterOffset = 0

    mutating func parameter(_ source: ParameterSource) -> String {
        parameters.append(source)
        return dialect.placeholder(parameterOffset + parameters.count, type: source.parameterType)
    }

    mutating func newAlias(_ prefix: String = "t") -> String {
        aliasCounter += 1
        return "\(prefix)\(aliasCounter)"
    }

    func table(_ name: String) throws(PlanError) -> Table {
        guard let table = model.table(name) else {
            throw PlanError(message: "unknown table \"\(name)\"", location: nil)
        }
        return table
    }

    /// `"table" AS alias` for a FROM clause, recording the table as read.
    mutating func tableSource(_ table: Table, _ alias: String) -> String {
        tables.insert(table.name)
        return "\(dialect.quote(table.sqlName)) AS \(alias)"
    }

    func column(_ alias: String, _ column: Column) -> String {
        references.column(alias, dialect.quote(column.sqlName))
    }

    func arguments(_ node: FieldNode) -> Resolved {
        resolution.arguments[node.id] ?? .object([])
    }

    // MARK: - Root fields

    /// The plan of a root read field: `SELECT <json>`, and the statements of relations split off.
    mutating func rootStatement(_ node: FieldNode) throws(PlanError) -> ReadPlan {
        let expression = try fieldValue(node, parentAlias: nil, parentTable: nil)
        return ReadPlan(
            statement: SQLStatementPlan(sql: "SELECT \(expression)", parameters: parameters, tables: tables),
            splits: splits, needsAssembly: needsAssembly, keyCount: 0, derivedEntityIDs: derivedEntityIDs)
    }

    /// A relation fetched by a statement of its own: the parent rows' keys in, one row per parent out.
    ///
    /// - Returns: The marker the current statement writes in the relation's place.
    mutating func split(
        _ node: FieldNode, relation: Relation, parentAlias: String, parentTable: Table
    ) throws(PlanError) -> String {
        var child = QueryBuilder(api: api, dialect: dialect, resolution: resolution)
        child.includeEntityIDs = includeEntityIDs
        child.maximumFilterTerms = maximumFilterTerms
        let alias = child.newAlias("p")
        let value = try child.relationValue(node, relation: relation, parentAlias: alias, parentTable: parentTable)
        let keyColumns = parentTable.keyColumns.map { column(alias, $0) }
        let keys = child.parameter(.rowKeys)
        // One key column compares with the keys as the column's type (so an index finds them), several as arrays.
        let match = keyColumns.count == 1 ? keyColumns[0] : dialect.jsonArray(keyColumns)
        let candidates =
            keyColumns.count == 1
            ? dialect.storageValues(keys, of: parentTable.keyColumns[0])
            : "SELECT value FROM \(dialect.jsonArrayElements(keys))"
        let sql =
            "SELECT \(dialect.jsonArray(keyColumns)), \(value) FROM \(child.tableSource(parentTable, alias)) "
            + "WHERE \(match) IN (\(candidates))"
        splits.append(
            ReadPlan(
                statement: SQLStatementPlan(sql: sql, parameters: child.parameters, tables: child.tables),
                splits: child.splits, needsAssembly: child.needsAssembly, keyCount: keyColumns.count))
        needsAssembly = true
        return dialect.jsonObject([
            (ReadPlan.splitKey, String(splits.count - 1)),
            (ReadPlan.parentKey, dialect.jsonArray(parentTable.keyColumns.map { column(parentAlias, $0) })),
        ])
    }

    /// A JSON object of any width: past the dialect's pair limit, an object of parts (``ReadPlan``).
    mutating func jsonObject(_ pairs: [(key: String, value: String)]) -> String {
        let limit = dialect.maximumJSONObjectPairs
        guard pairs.count > limit else { return dialect.jsonObject(pairs) }
        needsAssembly = true
        var parts: [(key: String, value: String)] = []
        var start = 0
        while start < pairs.count {
            let end = min(start + limit, pairs.count)
            parts.append((ReadPlan.partPrefix + String(parts.count), dialect.jsonObject(Array(pairs[start..<end]))))
            start = end
        }
        return jsonObject(parts)
    }

    /// A field's JSON value as an SQL expression, inside the object of `parentAlias` (nil at the root).
    mutating func fieldValue(_ node: FieldNode, parentAlias: String?, parentTable: Table?) throws(PlanError) -> String {
        guard let role = node.role else {
            return dialect.stringLiteral(node.parentType)  // __typename
        }
        switch role {
        case .lookup(let name):
            let target = try table(name)
            let alias = newAlias()
            let conditions = try selectorConditions(arguments(node), table: target, alias: alias)
            return try singleRow(
                node, table: target, alias: alias, from: tableSource(target, alias),
                conditions: conditions.conditions, orderBy: conditions.orderBy)
        case .list(let name):
            let target = try table(name)
            return try list(node, table: target, correlation: nil)
        case .column(_, let columnName):
            guard let parentAlias, let parentTable, let column = parentTable.column(columnName) else { return "NULL" }
            return dialect.jsonValue(self.column(parentAlias, column), of: column)
        case .entityId:
            guard let parentAlias, let parentTable else { return "NULL" }
            return entityID(parentTable, alias: parentAlias)
        case .relation(_, let relation):
            guard let parentAlias, let parentTable else { return "NULL" }
            if nesting >= dialect.maximumSubqueryNesting {
                if parentTable.isView {
                    throw PlanError(
                        message:
                            "relation \"\(node.name)\" of view \(parentTable.name) is nested too deeply: a view has no key to fetch it by",
                        location: node.location)
                }
                return try split(node, relation: relation, parentAlias: parentAlias, parentTable: parentTable)
            }
            return try relationValue(node, relation: relation, parentAlias: parentAlias, parentTable: parentTable)
        case .similarity, .search:
            return try rankedList(node, role: role)
        case .metadata:
            return metadataValue(node, parentAlias: parentAlias)
        case .rowCount, .aggregate:
            throw PlanError(
                message: "aggregate field \"\(node.name)\" must be selected inside a list", location: node.location)
        default:
            throw PlanError(message: "field \"\(node.name)\" cannot be read here", location: node.location)
        }
    }

    /// The opaque entity id: `Type/<key>[/<key>...]`, `%` and `/` escaped in text keys.
    func entityID(_ table: Table, alias: String) -> String {
        var parts = [dialect.stringLiteral(table.name)]
        for column in table.keyColumns {
            let value = dialect.storageText(self.column(alias, column), of: column)
            if column.type == .scalar(.string) {
                parts.append("replace(replace(\(value), '%', '%25'), '/', '%2F')")
            } else {
                parts.append(value)
            }
        }
        return parts.joined(separator: " || '/' || ")
    }

    // MARK: - Objects

    /// `json_object(...)` of the selected fields of a row: `node`'s children.
    mutating func object(_ node: FieldNode, table: Table, alias: String) throws(PlanError) -> String {
        var pairs: [(key: String, value: String)] = []
        for child in node.children where !resolution.skipped.contains(child.id) {
            pairs.append((child.responseKey, try fieldValue(child, parentAlias: alias, parentTable: table)))
        }
        // A view's rows have no key, so no entity id.
        if includeEntityIDs && !table.isView {
            if derivesEntityIDs, let derived = derivableEntityID(node, table: table) {
                derivedEntityIDs[node.id] = derived
                // An unselected key still travels, as its bare value: the type is added when the id is read.
                if derived.member == nil, let key = table.keyColumns.first {
                    pairs.append((Self.entityIDKey, dialect.jsonValue(column(alias, key), of: key)))
                }
            } else {
                pairs.append((Self.entityIDKey, entityID(table, alias: alias)))
            }
        }
        return jsonObject(pairs)
    }

    /// How the entity id of `node`'s rows is read off the response when the table's key is one `UUID` or `Int`
    /// column: from the key field when it is selected as a plain field, else from the hidden member holding the
    /// bare key value. The value's JSON text is the key's text in ``entityID(_:alias:)`` on every dialect, so
    /// the id is the type name, `/` and that text, and the statement need not join them.
    func derivableEntityID(_ node: FieldNode, table: Table) -> DerivedEntityID? {
        let keys = table.keyColumns
        guard keys.count == 1, let key = keys.first, !key.isList else { return nil }
        guard key.type == .scalar(.uuid) || key.type == .scalar(.int) else { return nil }
        for child in node.children where !resolution.skipped.contains(child.id) && !child.isRedacted {
            if case .column(_, let name)? = child.role, table.column(name)?.sqlName == key.sqlName {
                return DerivedEntityID(typeName: table.name, member: child.responseKey)
            }
        }
        return DerivedEntityID(typeName: table.name, member: nil)
    }

    /// One row as JSON (or SQL NULL): lookups, forward and one-to-one relations.
    mutating func singleRow(
        _ node: FieldNode, table: Table, alias: String, from: String, conditions: [String], orderBy: [String] = []
    ) throws(PlanError) -> String {
        nesting += 1
        defer { nesting -= 1 }
        let object = try object(node, table: table, alias: alias)
        var sql = "SELECT \(object) FROM \(from)"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        if !orderBy.isEmpty { sql += " ORDER BY " + orderBy.joined(separator: ", ") }
        return dialect.embedJSON("(\(sql) LIMIT 1)")
    }

    /// How a nested list is tied to its parent row.
    struct Correlation {
        /// The FROM clause (table or join), with the alias of the rows returned.
        var from: String
        /// Conditions tying the rows to the parent.
        var conditions: [String]
        /// The alias `where`/`orderBy` apply to (the join table for `_via_` fields).
        var filterAlias: String
        /// The table `where`/`orderBy` are typed on.
        var filterTable: Table
        /// The order when `orderBy` gives none (a ranking).
        var defaultOrder: [(expression: String, direction: String)] = []
    }

    /// A list of rows as a JSON array.
    mutating func list(
        _ node: FieldNode, table: Table, correlation: ((String) -> Correlation)?
    ) throws(PlanError) -> String {
        let args = arguments(node)
        let alias = newAlias()
        if let ranking = pendingRanking {
            rankedAliases[alias] = ranking
            pendingRanking = nil
        }
        let link =
            correlation?(alias)
            ?? Correlation(
                from: tableSource(table, alias), conditions: [], filterAlias: alias,
                filterTable: table)
        if correlation != nil { listsPerParentRow.insert(alias) }
        var conditions = link.conditions
        if let whereValue = args["where"],
            let condition = try filter(whereValue, table: link.filterTable, alias: link.filterAlias)
        {
            conditions.append(condition)
        }
        let visible = node.children.filter { !resolution.skipped.contains($0.id) }
        let isAggregate = visible.contains {
            switch $0.role {
            case .rowCount?, .aggregate?: return true
            default: return false
            }
        }
        if isAggregate {
            return try aggregateList(
                node, visible: visible, table: table, alias: alias, link: link, conditions: conditions)
        }
        var orderKeys = try orderTerms(
            args["orderBy"], table: link.filterTable, alias: link.filterAlias, aggregates: false)
        if orderKeys.isEmpty { orderKeys = link.defaultOrder }
        // Root lists without `orderBy` come in key order. Nested lists keep the order of the index that
        // finds them (deterministic, and free): sorting each parent's children costs a sorter per row.
        if orderKeys.isEmpty && correlation == nil {
            orderKeys = table.keyColumns.map { (column(alias, $0), "ASC") }
        }
        let ordering = orderKeys.indices.map { "_o\($0) \(Self.direction(orderKeys[$0].direction))" }.joined(
            separator: ", ")
        var page = " LIMIT " + limitParameter(args["limit"], name: "limit")
        if let offset = args["offset"], !offset.isNullConstant {
            page += " OFFSET " + countParameter(offset, name: "offset")
        }
        var isDistinct = false
        if case .constant(.bool(true))? = args["distinct"] { isDistinct = true }
        // Rows of a distinct list are projections, not entities: an entity id would make every row distinct.
        let includesEntityIDs = includeEntityIDs
        if isDistinct { includeEntityIDs = false }
        nesting += 1
        references.start(alias)
        let object = try object(node, table: table, alias: alias)
        nesting -= 1
        includeEntityIDs = includesEntityIDs
        // The innermost layer carries only the columns the objects read (the fields, the keys of nested
        // relations and entity ids) through its sort, not whole rows.
        let carried = references.finish(alias)
        var inner = "SELECT " + (carried.isEmpty ? "\(alias).*" : carried.joined(separator: ", "))
        for (index, key) in orderKeys.enumerated() { inner += ", \(key.expression) AS _o\(index)" }
        inner += " FROM \(link.from)"
        for join in pendingJoins.removeValue(forKey: alias) ?? [] { inner += join }
        if !conditions.isEmpty { inner += " WHERE " + conditions.joined(separator: " AND ") }
        let orderClause = ordering.isEmpty ? "" : " ORDER BY \(ordering)"
        guard isDistinct else {
            // The objects are aggregated as the sorted page yields its rows: no second sort, and no JSON
            // text parsed back.
            inner += "\(orderClause)\(page)"
            return
                "(SELECT \(dialect.orderedJSONArrayAggregate(object, orderBy: ordering)) FROM (\(inner)) AS \(alias))"
        }
        // Duplicates go before the page is cut: each distinct object keeps the position of its first row.
        let middle = dialect.distinctObjects(
            "SELECT \(object) AS j, row_number() OVER (\(orderClause.dropFirst())) AS _rn "
                + "FROM (\(inner)) AS \(alias)", alias: "\(alias)_d", page: page)
        return
            "(SELECT \(dialect.jsonArrayAggregate(dialect.embedJSON("j"))) FROM "
            + "\(dialect.derivedTable(middle, alias: "\(alias)_j")))"
    }

    mutating func limitParameter(_ value: Resolved?, name: String) -> String {
        guard let value, !value.isNullConstant else { return dialect.unlimitedCount }
        return countParameter(value, name: name)
    }

    /// A `limit` or `offset`: written into the statement when the operation fixes it (a literal or a
    /// default), a parameter when a variable gives it. A fixed count lets PostgreSQL keep one generic plan
    /// for the statement instead of planning it again on every execution (a planner cannot cost a page whose
    /// size it does not know). A negative constant stays a parameter, refused when bound as any other.
    mutating func countParameter(_ value: Resolved, name: String) -> String {
        if case .constant(let json) = value, let count = json.int64Value, count >= 0 { return String(count) }
        return parameter(.value(value, .count(name)))
    }

    static func direction(_ direction: String) -> String {
        direction == "DESC" ? "DESC NULLS FIRST" : "ASC NULLS LAST"
    }

    /// A list whose selection has aggregates: grouped by the plain fields selected beside them.
    mutating func aggregateList(
        _ node: FieldNode, visible: [FieldNode], table: Table, alias: String, link: Correlation, conditions: [String]
    ) throws(PlanError) -> String {
        let args = arguments(node)
        var pairs: [(key: String, value: String)] = []
        var groupBy: [String] = []
        for child in visible {
            switch child.role {
            case .column(_, let name)?:
                guard let column = table.column(name) else { continue }
                groupBy.append(self.column(alias, column))
                pairs.append((child.responseKey, dialect.jsonValue(self.column(alias, column), of: column)))
            case .rowCount?:
                pairs.append((child.responseKey, "COUNT(*)"))
            case .aggregate(_, let name, let function)?:
                guard let column = table.column(name) else { continue }
                var distinct = false
                if case .constant(.bool(true))? = arguments(child)["distinct"] { distinct = true }
                pairs.append((child.responseKey, aggregate(function, column: column, alias: alias, distinct: distinct)))
            case nil:
                pairs.append((child.responseKey, dialect.stringLiteral(table.name)))
            default:
                throw PlanError(
                    message:
                        "\"\(child.responseKey)\" cannot be selected next to aggregates; select plain fields to group by",
                    // How Data Connect groups by a relation is not documented; the emulator groups by plain fields.
                    location: child.location, isEmulatorLimitation: true)
            }
        }
        if groupBy.isEmpty && args["having"] == nil {
            return try singleGroup(pairs, args: args, table: table, alias: alias, link: link, conditions: conditions)
        }
        var sql = "SELECT \(jsonObject(pairs)) AS j FROM \(link.from)"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        if !groupBy.isEmpty { sql += " GROUP BY " + groupBy.joined(separator: ", ") }
        if let having = args["having"], let condition = try havingCondition(having, table: table, alias: alias) {
            sql += " HAVING " + condition
        }
        let orderKeys = try orderTerms(args["orderBy"], table: table, alias: alias, aggregates: true)
        if !orderKeys.isEmpty {
            sql +=
                " ORDER BY "
                + orderKeys.map { "\($0.expression) \(Self.direction($0.direction))" }.joined(separator: ", ")
        }
        sql += " LIMIT " + limitParameter(args["limit"], name: "limit")
        if let offset = args["offset"], !offset.isNullConstant {
            sql += " OFFSET " + countParameter(offset, name: "offset")
        }
        return
            "(SELECT \(dialect.jsonArrayAggregate(dialect.embedJSON("j"))) FROM "
            + "\(dialect.derivedTable(sql, alias: "\(alias)_j")))"
    }

    /// Aggregates without plain fields or `having`: one group, so one row whose object is the array's only
    /// element, unless `limit` is 0 or `offset` skips it. The array is written by the row itself: no layer of
    /// rows to collect.
    mutating func singleGroup(
        _ pairs: [(key: String, value: String)], args: Resolved, table: Table, alias: String, link: Correlation,
        conditions: [String]
    ) throws(PlanError) -> String {
        // Checked as for a grouped list, though one row needs no order.
        _ = try orderTerms(args["orderBy"], table: table, alias: alias, aggregates: true)
        var kept = ["coalesce(\(limitParameter(args["limit"], name: "limit")), 1) <> 0"]
        if let offset = args["offset"], !offset.isNullConstant {
            kept.append("coalesce(\(countParameter(offset, name: "offset")), 0) <= 0")
        }
        var sql =
            "SELECT "
            + dialect.singleElementJSONArray(jsonObject(pairs), when: kept.joined(separator: " AND "))
            + " FROM \(link.from)"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        return dialect.embedJSON("(\(sql))")
    }

    /// An aggregate's SQL, rendered in the column's wire form.
    func aggregate(_ function: AggregateFunction, column: Column, alias: String, distinct: Bool) -> String {
        let argument = (distinct ? "DISTINCT " : "") + self.column(alias, column)
        switch function {
        case .count: return "COUNT(\(argument))"
        case .avg: return dialect.jsonFloat("AVG(\(argument))")
        case .sum:
            if column.type == .scalar(.int64) { return dialect.textCast("SUM(\(argument))") }
            if column.type == .scalar(.float) { return dialect.jsonFloat("SUM(\(argument))") }
            return "SUM(\(argument))"
        case .min, .max:
            return dialect.jsonValue("\(function.rawValue.uppercased())(\(argument))", of: column)
        }
    }

    // MARK: - Relations

    /// The join condition of a reference: `a.fk = b.key` for each key column.
    func join(
        _ reference: Reference, from owner: Table, ownerAlias: String, to target: Table, targetAlias: String
    ) -> [String] {
        zip(reference.foreignKeyFields, reference.targetFields).compactMap { fk, key in
            guard let fkColumn = owner.column(fk), let keyColumn = target.column(key) else { return nil }
            return "\(column(targetAlias, keyColumn)) = \(column(ownerAlias, fkColumn))"
        }
    }

    mutating func relationValue(
        _ node: FieldNode, relation: Relation, parentAlias: String, parentTable: Table
    ) throws(PlanError) -> String {
        let target = try table(relation.target)
        switch relation.kind {
        case .forward(let referenceName):
            guard let reference = parentTable.reference(referenceName) else { return "NULL" }
            let alias = newAlias()
            if canJoin(node, reference: reference, target: target, listAlias: parentAlias) {
                // The condition is part of the innermost layer: the page need not carry its columns.
                let conditions = references.unrecorded {
                    join(reference, from: parentTable, ownerAlias: parentAlias, to: target, targetAlias: alias)
                }
                return try joinedRow(node, table: target, alias: alias, into: parentAlias, on: conditions)
            }
            let conditions = join(reference, from: parentTable, ownerAlias: parentAlias, to: target, targetAlias: alias)
            return try singleRow(
                node, table: target, alias: alias, from: tableSource(target, alias),
                conditions: conditions)
        case .reverseOne(let owner, let referenceName):
            let ownerTable = try table(owner)
            guard let reference = ownerTable.reference(referenceName) else { return "NULL" }
            let alias = newAlias()
            let conditions = join(
                reference, from: ownerTable, ownerAlias: alias, to: parentTable, targetAlias: parentAlias)
            return try singleRow(
                node, table: target, alias: alias, from: tableSource(target, alias),
                conditions: conditions)
        case .reverseMany(let owner, let referenceName):
            let ownerTable = try table(owner)
            guard let reference = ownerTable.reference(referenceName) else { return "NULL" }
            tables.insert(ownerTable.name)
            let dialect = self.dialect
            let builder = self
            return try list(node, table: ownerTable) { alias in
                Correlation(
                    from: "\(dialect.quote(ownerTable.sqlName)) AS \(alias)",
                    conditions: builder.join(
                        reference, from: ownerTable, ownerAlias: alias, to: parentTable, targetAlias: parentAlias),
                    filterAlias: alias, filterTable: ownerTable)
            }
        case .manyToMany(let joinName, let near, let far):
            let joinTable = try table(joinName)
            guard let nearReference = joinTable.reference(near), let farReference = joinTable.reference(far) else {
                return "NULL"
            }
            let joinAlias = newAlias("j")
            tables.formUnion([joinTable.name, target.name])
            let nearConditions = join(
                nearReference, from: joinTable, ownerAlias: joinAlias, to: parentTable, targetAlias: parentAlias)
            let dialect = self.dialect
            let builder = self
            return try list(node, table: target) { alias in
                let farConditions = builder.join(
                    farReference, from: joinTable, ownerAlias: joinAlias, to: target, targetAlias: alias)
                return Correlation(
                    from:
                        "\(dialect.quote(joinTable.sqlName)) AS \(joinAlias) JOIN \(dialect.quote(target.sqlName)) AS \(alias) ON "
                        + farConditions.joined(separator: " AND "),
                    conditions: nearConditions, filterAlias: joinAlias, filterTable: joinTable)
            }
        }
    }

    /// Whether a to-one relation of a list's rows can be read with a `LEFT JOIN` in the list's innermost layer
    /// rather than a subquery per row: it must reach at most one row (a reference to the target's key), and its
    /// object must read only that row's columns (no relation or list of its own).
    func canJoin(_ node: FieldNode, reference: Reference, target: Table, listAlias: String) -> Bool {
        guard references.isRecording(listAlias), !target.isView,
            reference.targetFields == target.keyColumns.map(\.name),
            !reference.foreignKeyFields.isEmpty
        else { return false }
        return node.children.allSatisfy { child in
            if resolution.skipped.contains(child.id) { return true }
            switch child.role {
            case nil, .column?, .entityId?: return true
            default: return false
            }
        }
    }

    /// A to-one relation of a list's rows, joined into the list's innermost layer: its object reads the columns
    /// that layer carries, and is `NULL` when no row matched.
    mutating func joinedRow(
        _ node: FieldNode, table: Table, alias: String, into listAlias: String, on conditions: [String]
    ) throws(PlanError) -> String {
        pendingJoins[listAlias, default: []].append(
            dialect.toOneJoin(
                tableSource(table, alias), alias: alias, on: conditions.joined(separator: " AND "),
                perParentRow: listsPerParentRow.contains(listAlias)))
        references.join(alias, into: listAlias)
        nesting += 1
        defer { nesting -= 1 }
        let object = try object(node, table: table, alias: alias)
        guard let key = table.keyColumns.first else { return "NULL" }
        return "CASE WHEN \(column(alias, key)) IS NULL THEN NULL ELSE \(object) END"
    }

    // MARK: - Selectors

    /// The conditions of `id`, `id_expr`, `key` or `first`.
    mutating func selectorConditions(
        _ args: Resolved, table: Table, alias: String
    ) throws(PlanError) -> (conditions: [String], orderBy: [String]) {
        if let id = args["id"], let column = table.column("id") {
            return (["\(self.column(alias, column)) = " + parameter(.value(id, .column(column)))], [])
        }
        if case .constant(.string(let source))? = args["id_expr"], let column = table.column("id") {
            return (
                ["\(self.column(alias, column)) = " + parameter(.expression(try cel(source), .column(column)))], []
            )
        }
        if let key = args["key"] {
            return (try keyConditions(key, table: table, alias: alias), [])
        }
        if let first = args["first"] {
            var conditions: [String] = []
            if let whereValue = first["where"], let condition = try filter(whereValue, table: table, alias: alias) {
                conditions.append(condition)
            }
            let order = try orderTerms(first["orderBy"], table: table, alias: alias, aggregates: false)
            let terms = (order.isEmpty ? table.keyColumns.map { (column(alias, $0), "ASC") } : order)
            return (conditions, terms.map { "\($0.expression) \(Self.direction($0.direction))" })
        }
        throw PlanError(message: "give one of id, key or first", location: nil)
    }

    /// `key: {a: ..., b_expr: "..."}` as equality conditions on every key column.
    mutating func keyConditions(_ key: Resolved, table: Table, alias: String) throws(PlanError) -> [String] {
        var conditions: [String] = []
        for column in table.keyColumns {
            if let value = key[column.name] {
                conditions.append("\(self.column(alias, column)) = " + parameter(.value(value, .column(column))))
            } else if case .constant(.string(let source))? = key["\(column.name)_expr"] {
                conditions.append(
                    "\(self.column(alias, column)) = " + parameter(.expression(try cel(source), .column(column))))
            } else {
                throw PlanError(message: "the key of \(table.name) needs \"\(column.name)\"", location: nil)
            }
        }
        return conditions
    }

    /// The `_expr` server value with this source: parsed when the operation was compiled.
    func cel(_ source: String) throws(PlanError) -> CELExpression {
        if let parsed = expressions[source] { return parsed }
        return try Self.parseCEL(source)
    }

    /// Parses a CEL expression of the operation's text.
    static func parseCEL(_ source: String) throws(PlanError) -> CELExpression {
        do {
            return try CELExpression(parsing: source)
        } catch {
            throw PlanError(message: "invalid expression \"\(source)\": \(error)", location: nil)
        }
    }
}
