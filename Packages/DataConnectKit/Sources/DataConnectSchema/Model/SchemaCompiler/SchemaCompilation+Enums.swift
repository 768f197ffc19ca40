import GraphQLLanguage

// Enums: values and their directives.
extension SchemaCompilation {
    mutating func compileEnum(_ e: EnumTypeDefinition) {
        checkDirectiveList(e.directives, at: .enum)
        var values: [String] = []
        for value in e.values {
            checkDirectiveList(value.directives, at: .enumValue)
            if values.contains(value.name.value) {
                error("enum value \"\(e.name.value).\(value.name.value)\" is declared twice", at: value.location)
            } else {
                values.append(value.name.value)
            }
        }
        if values.isEmpty { error("enum \"\(e.name.value)\" must declare at least one value", at: e.name.location) }
        model.enums.append(
            EnumType(
                name: e.name.value, values: values,
                documentation: documentation(description: e.description, comments: e.leadingComments),
                location: e.name.location))
    }
}
