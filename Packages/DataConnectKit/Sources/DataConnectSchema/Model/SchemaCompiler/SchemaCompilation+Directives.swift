import GraphQLLanguage

// Stage 3: check directives against the prelude.
extension SchemaCompilation {
    mutating func checkDirectives(_ table: ObjectTypeDefinition) {
        checkDirectiveList(table.directives, at: .object)
        for field in table.fields {
            checkDirectiveList(field.directives, at: .fieldDefinition)
            if !field.arguments.isEmpty {
                error(
                    "table fields may not have arguments (\"\(table.name.value).\(field.name.value)\")",
                    at: field.location)
            }
        }
    }

    mutating func checkDirectiveList(_ directives: [Directive], at location: DirectiveLocation) {
        var seen: Set<String> = []
        for directive in directives {
            guard let definition = prelude.directives[directive.name.value] else {
                let known = prelude.directives.values.filter { $0.locations.contains(location) }.map {
                    "@" + $0.name.value
                }
                error(
                    "unknown directive \"@\(directive.name.value)\"\(Suggestions.didYouMean("@" + directive.name.value, among: known))",
                    at: directive.location)
                continue
            }
            if !definition.locations.contains(location) {
                error(
                    "directive \"@\(directive.name.value)\" may not be used on \(location.rawValue)",
                    at: directive.location)
                continue
            }
            if !definition.isRepeatable && !seen.insert(directive.name.value).inserted {
                error(
                    "the directive \"@\(directive.name.value)\" can only be used once at this location",
                    at: directive.location)
            }
            var checker = ValueChecker(system: prelude, allowVariables: false)
            checker.checkArguments(
                directive.arguments, definitions: definition.arguments, owner: "directive \"@\(directive.name.value)\"",
                at: directive.location)
            diagnostics += checker.diagnostics
        }
    }
}
