import GraphQLLanguage

// Stage 5: `@searchable` fields of a table.
extension SchemaCompilation {
    /// Collects a table's `@searchable` fields: String fields only, and one language per table.
    mutating func compileSearch(_ definition: ObjectTypeDefinition, into table: inout Table) {
        var fields: [String] = []
        var language: (name: String, location: NodeLocation)?
        for field in definition.fields {
            guard let directive = field.directives.first(named: "searchable") else { continue }
            let name = field.name.value
            guard let column = table.column(name), column.type == .scalar(.string), !column.isList else {
                error(
                    "@searchable applies only to String fields, not \"\(table.name).\(name)\"", at: directive.location)
                continue
            }
            let here = directive.argument("language") != nil ? directive.location(of: "language") : directive.location
            let chosen = directive.string("language") ?? "english"
            guard TableSearch.languages.contains(chosen) else {
                let known = TableSearch.languages.sorted().joined(separator: ", ")
                error("unknown @searchable(language:) \"\(chosen)\"; known: \(known)", at: here)
                continue
            }
            if let first = language, first.name != chosen {
                error(
                    "the @searchable fields of \(table.name) must share one language: \"\(first.name)\" "
                        + "(line \(first.location.start.line)) and \"\(chosen)\" here",
                    at: here)
                continue
            }
            if language == nil { language = (chosen, here) }
            fields.append(name)
        }
        if let language, !fields.isEmpty {
            table.search = TableSearch(fields: fields, language: language.name)
        }
    }
}
