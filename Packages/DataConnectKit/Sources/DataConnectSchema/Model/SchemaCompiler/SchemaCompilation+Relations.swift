import GraphQLLanguage

// Stage 6: the generated relation fields.
extension SchemaCompilation {
    mutating func buildRelations() {
        var relations: [String: [Relation]] = [:]
        for table in model.tables {
            for reference in table.references {
                relations[table.name, default: []].append(
                    Relation(
                        name: reference.name, target: reference.target, kind: .forward(reference: reference.name),
                        isList: false))
            }
        }
        for table in model.tables {
            for reference in table.references {
                let name =
                    reference.isOneToOne
                    ? "\(table.singular)_on_\(reference.name)" : "\(table.plural)_on_\(reference.name)"
                let kind: RelationKind =
                    reference.isOneToOne
                    ? .reverseOne(table: table.name, reference: reference.name)
                    : .reverseMany(table: table.name, reference: reference.name)
                relations[reference.target, default: []].append(
                    Relation(name: name, target: table.name, kind: kind, isList: !reference.isOneToOne))
            }
            if let (a, b) = table.joinReferences, let tableA = model.table(a.target), let tableB = model.table(b.target)
            {
                relations[a.target, default: []].append(
                    Relation(
                        name: "\(tableB.plural)_via_\(table.name)", target: b.target,
                        kind: .manyToMany(join: table.name, near: a.name, far: b.name), isList: true))
                if a.target != b.target || a.name != b.name {
                    let reverse = Relation(
                        name: "\(tableA.plural)_via_\(table.name)", target: a.target,
                        kind: .manyToMany(join: table.name, near: b.name, far: a.name), isList: true)
                    if !(relations[b.target]?.contains { $0.name == reverse.name } ?? false) {
                        relations[b.target, default: []].append(reverse)
                    }
                }
            }
        }
        for table in model.tables {
            let generated = (relations[table.name] ?? []).filter {
                if case .forward = $0.kind { false } else { true }
            }
            guard !generated.isEmpty else { continue }
            // Only names as long as a generated one can collide with it: longer ones are not hashed.
            let lengths = Set(generated.map(\.name.utf8.count))
            var names = Set(
                (table.columns.map(\.name) + table.references.map(\.name)).filter { lengths.contains($0.utf8.count) })
            for relation in generated where !names.insert(relation.name).inserted {
                error(
                    "the generated relation field \"\(table.name).\(relation.name)\" collides with another field of the same name",
                    at: table.location)
            }
        }
        model.relations = relations
        for table in model.tables { checkGeneratedFieldNames(table) }
    }
}
