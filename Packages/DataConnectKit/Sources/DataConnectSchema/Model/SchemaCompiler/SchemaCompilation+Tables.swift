import GraphQLLanguage

// Stage 4: a table's columns and references.
extension SchemaCompilation {
    mutating func compileTable(_ definition: ObjectTypeDefinition) {
        let name = definition.name.value
        let isView = viewNames.contains(name)
        let tableDirective = definition.directives.first(named: isView ? "view" : "table")!
        let sqlName = tableDirective.string("name") ?? Naming.snakeCase(name)
        let singular = tableDirective.string("singular") ?? Naming.lowerCamel(name)
        let plural = tableDirective.string("plural") ?? Naming.plural(singular)
        for (label, value) in [("singular", singular), ("plural", plural)] where !isValidName(value) {
            error("@table(\(label):) must be a GraphQL name, got \"\(value)\"", at: tableDirective.location(of: label))
        }
        if sqlName.isEmpty {
            error("@table(name:) may not be empty", at: tableDirective.location(of: "name"))
        }
        let hasExplicitKey = tableDirective.argument("key") != nil
        let declaresId = definition.fields.contains { $0.name.value == "id" }

        var table = Table(
            name: name, sqlName: sqlName, singular: singular, plural: plural, columns: [], references: [],
            primaryKey: [], declaredKey: declaredKey(of: definition), uniqueConstraints: [], indexes: [],
            documentation: documentation(description: definition.description, comments: definition.leadingComments),
            location: definition.name.location)

        if isView {
            table.view = tableDirective.string("sql").map(ViewSource.sql) ?? .name(sqlName)
        }
        if !isView && !hasExplicitKey && !declaresId {
            table.columns.append(
                Column(
                    name: "id", sqlName: "id", type: .scalar(.uuid), isList: false, isNonNull: true, dataType: nil,
                    maxLength: nil, size: nil, defaultValue: .expression("uuidV4()"), origin: .implicitKey,
                    documentation: nil, location: definition.name.location))
        }

        var seenFields: Set<String> = []
        let declaredNames = Set(definition.fields.map(\.name.value))
        for field in definition.fields {
            let fieldName = field.name.value
            guard seenFields.insert(fieldName).inserted else {
                error("field \"\(name).\(fieldName)\" is declared twice", at: field.name.location)
                continue
            }
            if fieldName.hasPrefix("_") {
                error(
                    "field names may not start with \"_\" (\"\(name).\(fieldName)\"): they are reserved for generated fields",
                    at: field.name.location)
                continue
            }
            guard let kind = classify(field, in: name) else { continue }
            let doc = documentation(description: field.description, comments: field.leadingComments)
            switch kind {
            case .column(let type, let isList):
                if field.directives.first(named: "ref") != nil {
                    error(
                        "@ref applies only to fields whose type is a table, not \"\(field.type)\"",
                        at: field.directives.first(named: "ref")!.location)
                }
                var column = Column(
                    name: fieldName, sqlName: Naming.snakeCase(fieldName), type: type, isList: isList,
                    isNonNull: field.type.isNonNull, dataType: nil, maxLength: nil, size: nil, defaultValue: nil,
                    origin: .declared, documentation: doc, location: field.name.location)
                applyCol(field, to: &column)
                applyDefault(field, to: &column, table: name)
                if let existing = table.columns.firstIndex(where: { $0.name == fieldName }) {
                    // Declared explicitly after a reference already added it as a foreign key: keep the declaration.
                    let fk = table.columns[existing]
                    if fk.type != column.type || fk.isList {
                        error(
                            "field \"\(name).\(fieldName)\" has type \(column.graphQLType) but is the foreign key of a reference to a \(fk.type) key",
                            at: field.name.location)
                    }
                    column.origin = fk.origin
                    table.columns[existing] = column
                } else {
                    table.columns.append(column)
                }
            case .reference(let target):
                for directive in ["col", "default"] {
                    if let d = field.directives.first(named: directive) {
                        error(
                            "@\(directive) does not apply to a reference field; it applies to the foreign-key fields",
                            at: d.location)
                    }
                }
                guard let fks = foreignKeyFields(of: field, in: name, target: target) else { continue }
                let refDirective = field.directives.first(named: "ref")
                var fkNames: [String] = []
                var fkSQLNames: [String] = []
                for fk in fks {
                    let fkSQLName = Naming.snakeCase(fk.name)
                    fkNames.append(fk.name)
                    fkSQLNames.append(fkSQLName)
                    if fk.name == fieldName || (declaredNames.contains(fk.name) && seenFields.contains(fk.name)) {
                        if let existing = table.columns.first(where: { $0.name == fk.name }), existing.type != fk.type {
                            error(
                                "field \"\(name).\(fk.name)\" has type \(existing.type) but is the foreign key of \"\(fieldName)\", which needs \(fk.type)",
                                at: field.name.location)
                        }
                        continue
                    }
                    // A field declared later under the same name replaces this implicit column.
                    table.columns.append(
                        Column(
                            name: fk.name, sqlName: fkSQLName, type: fk.type, isList: false,
                            isNonNull: field.type.isNonNull, dataType: nil, maxLength: nil, size: nil,
                            defaultValue: nil, origin: .implicitForeignKey(reference: fieldName), documentation: nil,
                            location: field.name.location))
                }
                let fkColumnNames = fkSQLNames.joined(separator: "_")
                table.references.append(
                    Reference(
                        name: fieldName, target: target, isNonNull: field.type.isNonNull, foreignKeyFields: fkNames,
                        targetFields: fks.map(\.targetField),
                        constraintName: refDirective?.string("constraintName") ?? "\(sqlName)_\(fkColumnNames)_fkey",
                        onDelete: field.type.isNonNull ? .cascade : .setNull,
                        isOneToOne: field.directives.first(named: "unique") != nil, documentation: doc,
                        location: field.name.location))
            }
        }

        if isView {
            checkView(definition, table)
            // `@unique` on a view's reference makes the relation one-to-one; the view enforces nothing.
            for index in table.references.indices
            where definition.fields.first(where: { $0.name.value == table.references[index].name })?.directives
                .first(named: "unique") != nil
            {
                table.references[index].isOneToOne = true
            }
            model.tables.append(table)
            return
        }

        // The primary key.
        guard let key = keyColumns(of: name) else { return }
        table.primaryKey = key.map(\.0)
        for keyName in table.declaredKey {
            if let field = definition.fields.first(where: { $0.name.value == keyName }), !field.type.isNonNull {
                error("key field \"\(name).\(keyName)\" must be non-null (\(field.type)!)", at: field.type.location)
            }
        }
        if table.declaredKey.count == 1,
            let index = table.references.firstIndex(where: { $0.name == table.declaredKey[0] })
        {
            table.references[index].isOneToOne = true
        }

        applyUniqueAndIndexes(definition, to: &table)
        compileSearch(definition, into: &table)
        model.tables.append(table)
    }

    /// Rules of a `@view` type: every field nullable, no constraints or defaults (a view stores nothing), and a
    /// `@view(sql:)` that is not empty.
    mutating func checkView(_ definition: ObjectTypeDefinition, _ table: Table) {
        if case .sql(let sql)? = table.view, !sql.contains(where: { !$0.isWhitespace }) {
            error("@view(sql:) may not be empty", at: definition.directives.first(named: "view")!.location(of: "sql"))
        }
        if let directive = definition.directives.first(named: "unique") ?? definition.directives.first(named: "index") {
            error("@\(directive.name.value) does not apply to a view (\"\(table.name)\")", at: directive.location)
        }
        for field in definition.fields {
            if field.type.isNonNull {
                error(
                    "every field of a view must be nullable: \"\(table.name).\(field.name.value)\" is \(field.type)",
                    at: field.type.location)
            }
            let isReference = tableNames.contains(field.type.nullable.namedType.value)
            for name in ["unique", "index", "default", "searchable"] where !(name == "unique" && isReference) {
                if let directive = field.directives.first(named: name) {
                    error("@\(name) does not apply to a field of a view", at: directive.location)
                }
            }
        }
    }

    func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || first.properties.isAlphabetic && first.isASCII
        else {
            return false
        }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
        }
    }
}
