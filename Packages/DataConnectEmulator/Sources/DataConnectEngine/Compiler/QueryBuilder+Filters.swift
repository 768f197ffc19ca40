import DataConnectSchema
import DataConnectWire

extension QueryBuilder {
    // MARK: - Filters

    /// The SQL condition of an `X_Filter` value on rows of `table` aliased `alias`; `nil` matches everything.
    mutating func filter(_ value: Resolved, table: Table, alias: String) throws(PlanError) -> String? {
        guard case .object(let fields) = value else { return nil }
        var conditions: [String] = []
        for (key, fieldValue) in fields {
            if fieldValue.isNullConstant { continue }
            switch key {
            case "_and":
                var parts: [String] = []
                for item in items(fieldValue) {
                    if let part = try filter(item, table: table, alias: alias) { parts.append(part) }
                }
                if !parts.isEmpty { conditions.append("(" + Self.balanced(parts, "AND") + ")") }
            case "_or":
                let list = items(fieldValue)
                var parts: [String] = []
                var matchesAll = false
                for item in list {
                    if let part = try filter(item, table: table, alias: alias) {
                        parts.append(part)
                    } else {
                        matchesAll = true
                    }
                }
                if matchesAll { continue }
                conditions.append(
                    parts.isEmpty ? dialect.conditionLiteral(false) : "(" + Self.balanced(parts, "OR") + ")")
            case "_not":
                // Nothing to negate (every clause was dropped): the `_not` clause is dropped too.
                if let inner = try filter(fieldValue, table: table, alias: alias) {
                    conditions.append("NOT (\(inner))")
                }
            default:
                if let column = table.column(key) {
                    let expression = self.column(alias, column)
                    if let condition = try columnFilter(fieldValue, column: column, expression: expression) {
                        conditions.append(condition)
                    }
                } else if let relation = model.relations[table.name]?.first(where: { $0.name == key }) {
                    if let condition = try relationFilter(fieldValue, relation: relation, table: table, alias: alias) {
                        conditions.append(condition)
                    }
                } else {
                    throw PlanError(message: "\"\(key)\" is not a field of \(table.name)_Filter", location: nil)
                }
            }
        }
        return conditions.isEmpty ? nil : Self.balanced(conditions, "AND")
    }

    /// Joins conditions with `AND` or `OR` as a balanced tree: SQLite parses `a OR b OR c ...` into a chain as
    /// deep as it is long and refuses chains deeper than 1,000, while a balanced tree of any size stays shallow.
    static func balanced(_ parts: [String], _ connective: String) -> String {
        if parts.count <= 16 { return parts.joined(separator: " \(connective) ") }
        let middle = parts.count / 2
        return "(" + balanced(Array(parts[..<middle]), connective) + ") \(connective) ("
            + balanced(Array(parts[middle...]), connective) + ")"
    }

    /// Counts one term of a filter (one comparison: an operator applied to a column, a count or an
    /// aggregate) against ``maximumFilterTerms``.
    ///
    /// - Throws: ``PlanError`` naming the limit once the statement's filters hold more terms than it allows.
    mutating func countFilterTerm() throws(PlanError) {
        filterTerms += 1
        if filterTerms > maximumFilterTerms {
            throw PlanError(
                message:
                    "the filters hold more than \(maximumFilterTerms) terms (limit maxFilterTerms = \(maximumFilterTerms))",
                location: nil)
        }
    }

    func items(_ value: Resolved) -> [Resolved] {
        if case .list(let items) = value { return items }
        return [value]
    }

    /// A scalar, enum or list filter (`String_Filter`, `Int_ListFilter`, ...) on a column expression.
    mutating func columnFilter(_ value: Resolved, column: Column, expression: String) throws(PlanError) -> String? {
        guard case .object(let operators) = value else { return nil }
        var conditions: [String] = []
        let convert = Conversion.column(Column.element(of: column))
        for (op, operand) in operators {
            try countFilterTerm()
            if column.isList {
                conditions.append(try listOperator(op, operand, column: column, expression: expression))
                continue
            }
            if operand.isNullConstant {
                switch op {
                case "eq": conditions.append("\(expression) IS NULL")
                case "ne": conditions.append("\(expression) IS NOT NULL")
                case "isNull": continue
                default: continue
                }
                continue
            }
            switch op {
            case "isNull":
                switch operand {
                case .constant(.bool(let isNull)): conditions.append("\(expression) IS \(isNull ? "" : "NOT ")NULL")
                default: conditions.append("(\(expression) IS NULL) = " + parameter(.value(operand, .scalar(.boolean))))
                }
            case "eq", "ne", "gt", "ge", "lt", "le":
                conditions.append("\(expression) \(Self.comparison(op)) " + parameter(.value(operand, convert)))
            case "in", "nin":
                let values = parameter(.value(operand, .storageArray(column)))
                let test = "\(expression) IN (\(dialect.storageValues(values, of: column)))"
                conditions.append(op == "in" ? test : "NOT (\(test))")
            case "contains", "startsWith", "endsWith":
                let kind: LikeKind = op == "contains" ? .contains : op == "startsWith" ? .prefix : .suffix
                let pattern = parameter(.value(operand, .like(kind)))
                conditions.append(dialect.like(expression, pattern: pattern, escaped: true))
            case "pattern":
                conditions.append(try pattern(operand, expression: expression))
            default:
                if op.hasSuffix("_expr"), case .constant(.string(let source)) = operand {
                    let base = String(op.dropLast(5))
                    conditions.append(
                        "\(expression) \(Self.comparison(base)) "
                            + parameter(.expression(try cel(source), convert)))
                } else if op.hasSuffix("_date") || op.hasSuffix("_time") {
                    let base = String(op.dropLast(5))
                    conditions.append(
                        "\(expression) \(Self.comparison(base)) "
                            + parameter(.relative(operand, isDate: op.hasSuffix("_date"))))
                } else {
                    throw PlanError(message: "unsupported filter operator \"\(op)\"", location: nil)
                }
            }
        }
        return conditions.isEmpty ? nil : conditions.joined(separator: " AND ")
    }

    static func comparison(_ op: String) -> String {
        switch op {
        case "eq": "="
        case "ne": "<>"
        case "gt": ">"
        case "ge": ">="
        case "lt": "<"
        case "le": "<="
        default: "="
        }
    }

    /// `String_Pattern {like | regex, ignoreCase}`.
    mutating func pattern(_ value: Resolved, expression: String) throws(PlanError) -> String {
        var ignoreCase = false
        if case .constant(.bool(let b))? = value["ignoreCase"] { ignoreCase = b }
        if let like = value["like"] {
            let subject = ignoreCase ? "lower(\(expression))" : expression
            let pattern = parameter(.value(like, .scalar(.string)))
            return dialect.like(subject, pattern: ignoreCase ? "lower(\(pattern))" : pattern, escaped: false)
        }
        if let regex = value["regex"] {
            let flags = parameter(.fixed(.text(ignoreCase ? "i" : "")))
            let pattern = parameter(.value(regex, .regularExpression))
            return dialect.regularExpressionMatch(subject: expression, pattern: pattern, flags: flags)
        }
        throw PlanError(message: "pattern needs like or regex", location: nil)
    }

    /// `includes`, `excludes`, `includesAll`, `excludesAll` on a list column.
    mutating func listOperator(
        _ op: String, _ operand: Resolved, column: Column, expression: String
    ) throws(PlanError) -> String {
        let elements = "SELECT value FROM \(dialect.listElements(expression, of: column, alias: nil))"
        switch op {
        case "includes", "excludes", "includes_expr", "excludes_expr", "includes_date", "excludes_date",
            "includes_time", "excludes_time":
            let source: ParameterSource
            if op.hasSuffix("_expr"), case .constant(.string(let text)) = operand {
                source = .expression(try cel(text), .wireElement(column))
            } else if op.hasSuffix("_date") || op.hasSuffix("_time") {
                source = .relative(operand, isDate: op.hasSuffix("_date"))
            } else {
                source = .value(operand, .wireElement(column))
            }
            let test =
                "EXISTS (SELECT 1 FROM \(dialect.listElements(expression, of: column, alias: nil)) WHERE value = "
                + parameter(source) + ")"
            return op.hasPrefix("includes") ? test : "NOT \(test)"
        case "includesAll":
            let wanted = parameter(.value(operand, .wireArray(column)))
            return
                "NOT EXISTS (SELECT 1 FROM \(dialect.listElements(wanted, of: column, alias: "w")) "
                + "WHERE w.value NOT IN (\(elements)))"
        case "excludesAll":
            let unwanted = parameter(.value(operand, .wireArray(column)))
            return
                "NOT EXISTS (SELECT 1 FROM \(dialect.listElements(expression, of: column, alias: "e")) WHERE e.value IN "
                + "(SELECT value FROM \(dialect.listElements(unwanted, of: column, alias: nil))))"
        default:
            throw PlanError(message: "unsupported list filter operator \"\(op)\"", location: nil)
        }
    }

    /// Filters through relations: a forward or one-to-one reference must match; a list relation counts
    /// the related rows matching `exist` and compares the count (`{gt: 0}` by default).
    mutating func relationFilter(
        _ value: Resolved, relation: Relation, table: Table, alias: String
    ) throws(PlanError) -> String? {
        let target = try self.table(relation.target)
        let inner = newAlias("f")
        switch relation.kind {
        case .forward(let referenceName):
            guard let reference = table.reference(referenceName) else { return nil }
            var conditions = join(reference, from: table, ownerAlias: alias, to: target, targetAlias: inner)
            // A filter left empty (`{}`, or every clause dropped with its absent variable) matches every row.
            guard let condition = try filter(value, table: target, alias: inner) else { return nil }
            conditions.append(condition)
            return
                "EXISTS (SELECT 1 FROM \(tableSource(target, inner)) WHERE \(conditions.joined(separator: " AND ")))"
        case .reverseOne(let owner, let referenceName):
            let ownerTable = try self.table(owner)
            guard let reference = ownerTable.reference(referenceName) else { return nil }
            var conditions = join(reference, from: ownerTable, ownerAlias: inner, to: table, targetAlias: alias)
            guard let condition = try filter(value, table: ownerTable, alias: inner) else { return nil }
            conditions.append(condition)
            return
                "EXISTS (SELECT 1 FROM \(tableSource(ownerTable, inner)) WHERE \(conditions.joined(separator: " AND ")))"
        case .reverseMany(let owner, let referenceName):
            let ownerTable = try self.table(owner)
            guard let reference = ownerTable.reference(referenceName) else { return nil }
            var conditions = join(reference, from: ownerTable, ownerAlias: inner, to: table, targetAlias: alias)
            if let exist = value["exist"], let condition = try filter(exist, table: ownerTable, alias: inner) {
                conditions.append(condition)
            }
            let from =
                "FROM \(tableSource(ownerTable, inner)) WHERE \(conditions.joined(separator: " AND "))"
            return try countCondition(value["count"], from: from)
        case .manyToMany(let joinName, let near, let far):
            let joinTable = try self.table(joinName)
            guard let nearReference = joinTable.reference(near), let farReference = joinTable.reference(far) else {
                return nil
            }
            let joinAlias = newAlias("j")
            var conditions = join(nearReference, from: joinTable, ownerAlias: joinAlias, to: table, targetAlias: alias)
            if let exist = value["exist"], let condition = try filter(exist, table: target, alias: inner) {
                conditions.append(condition)
            }
            let on = join(farReference, from: joinTable, ownerAlias: joinAlias, to: target, targetAlias: inner)
            let from =
                "FROM \(tableSource(joinTable, joinAlias)) JOIN \(tableSource(target, inner)) "
                + "ON \(on.joined(separator: " AND ")) WHERE \(conditions.joined(separator: " AND "))"
            return try countCondition(value["count"], from: from)
        }
    }

    /// `EXISTS` for the default `{gt: 0}`, else the count compared with `Int_Filter`.
    mutating func countCondition(_ count: Resolved?, from: String) throws(PlanError) -> String? {
        if let count, case .object(let ops) = count, ops.count == 1, ops[0].key == "gt",
            case .constant(.number(let n)) = ops[0].value, n.int64Value == 0
        {
            return "EXISTS (SELECT 1 \(from))"
        }
        guard let count else { return "EXISTS (SELECT 1 \(from))" }
        let intColumn = Column(
            name: "count", sqlName: "count", type: .scalar(.int), isList: false, isNonNull: true, dataType: nil,
            maxLength: nil, size: nil, defaultValue: nil, origin: .declared, documentation: nil, location: .synthesized)
        return try columnFilter(count, column: intColumn, expression: "(SELECT COUNT(*) \(from))")
    }

    // MARK: - Having

    /// The HAVING condition of an `X_Having` value.
    mutating func havingCondition(_ value: Resolved, table: Table, alias: String) throws(PlanError) -> String? {
        guard case .object(let fields) = value else { return nil }
        var conditions: [String] = []
        for (key, fieldValue) in fields {
            switch key {
            case "_and", "_or":
                var parts: [String] = []
                for item in items(fieldValue) {
                    if let part = try havingCondition(item, table: table, alias: alias) { parts.append(part) }
                }
                if !parts.isEmpty {
                    conditions.append("(" + Self.balanced(parts, key == "_and" ? "AND" : "OR") + ")")
                }
            case "_not":
                let inner =
                    try havingCondition(fieldValue, table: table, alias: alias) ?? dialect.conditionLiteral(true)
                conditions.append("NOT (" + inner + ")")
            case "_distinct":
                continue
            case "_count":
                if let c = try columnFilter(fieldValue, column: Self.numberColumn(.int), expression: "COUNT(*)") {
                    conditions.append(c)
                }
            default:
                guard let underscore = key.lastIndex(of: "_"),
                    let function = AggregateFunction(rawValue: String(key[key.index(after: underscore)...])),
                    let column = table.column(String(key[..<underscore]))
                else { throw PlanError(message: "\"\(key)\" is not a field of \(table.name)_Having", location: nil) }
                let expression: String
                let operandColumn: Column
                switch function {
                case .count:
                    expression = "COUNT(\(self.column(alias, column)))"
                    operandColumn = Self.numberColumn(.int)
                case .avg:
                    expression = "AVG(\(self.column(alias, column)))"
                    operandColumn = Self.numberColumn(.float)
                default:
                    expression = "\(function.rawValue.uppercased())(\(self.column(alias, column)))"
                    operandColumn = Column.element(of: column)
                }
                if let c = try columnFilter(fieldValue, column: operandColumn, expression: expression) {
                    conditions.append(c)
                }
            }
        }
        return conditions.isEmpty ? nil : conditions.joined(separator: " AND ")
    }

    static func numberColumn(_ scalar: ScalarType) -> Column {
        Column(
            name: "value", sqlName: "value", type: .scalar(scalar), isList: false, isNonNull: false, dataType: nil,
            maxLength: nil, size: nil, defaultValue: nil, origin: .declared, documentation: nil, location: .synthesized)
    }

    // MARK: - Order

    /// The sort terms of `orderBy: [X_Order!]`: entries whose direction is absent are dropped.
    mutating func orderTerms(
        _ value: Resolved?, table: Table, alias: String, aggregates: Bool
    ) throws(PlanError) -> [(expression: String, direction: String)] {
        guard let value else { return [] }
        var terms: [(expression: String, direction: String)] = []
        for entry in items(value) {
            guard case .object(let fields) = entry else { continue }
            for (key, direction) in fields {
                try appendOrder(
                    key: key, direction: direction, table: table, alias: alias, aggregates: aggregates, into: &terms)
            }
        }
        return terms
    }

    mutating func appendOrder(
        key: String, direction: Resolved, table: Table, alias: String, aggregates: Bool,
        into terms: inout [(expression: String, direction: String)]
    ) throws(PlanError) {
        if let column = table.column(key) {
            guard case .constant(.string(let dir)) = direction else { return }
            terms.append((orderExpression(column, alias: alias), dir))
            return
        }
        if let reference = table.reference(key) {
            let target = try self.table(reference.target)
            let inner = newAlias("o")
            let conditions = join(reference, from: table, ownerAlias: alias, to: target, targetAlias: inner)
            var nested: [(expression: String, direction: String)] = []
            for entry in items(direction) {
                guard case .object(let fields) = entry else { continue }
                for (nestedKey, nestedDirection) in fields {
                    try appendOrder(
                        key: nestedKey, direction: nestedDirection, table: target, alias: inner, aggregates: false,
                        into: &nested)
                }
            }
            for term in nested {
                terms.append(
                    (
                        "(SELECT \(term.expression) FROM \(tableSource(target, inner)) WHERE \(conditions.joined(separator: " AND ")))",
                        term.direction
                    ))
            }
            return
        }
        guard case .constant(.string(let dir)) = direction else { return }
        if key == "_count" {
            terms.append(("COUNT(*)", dir))
            return
        }
        if let underscore = key.lastIndex(of: "_"),
            let function = AggregateFunction(rawValue: String(key[key.index(after: underscore)...])),
            let column = table.column(String(key[..<underscore]))
        {
            let argument = self.column(alias, column)
            terms.append(("\(function.rawValue.uppercased())(\(argument))", dir))
            return
        }
        throw PlanError(message: "\"\(key)\" is not a field of \(table.name)_Order", location: nil)
    }

    /// A column as a sort key: enums sort in declaration order.
    func orderExpression(_ column: Column, alias: String) -> String {
        let expression = self.column(alias, column)
        if case .enumeration(let name) = column.type, let values = model.enumType(name)?.values {
            return dialect.enumSortKey(expression, values: values)
        }
        return expression
    }
}
