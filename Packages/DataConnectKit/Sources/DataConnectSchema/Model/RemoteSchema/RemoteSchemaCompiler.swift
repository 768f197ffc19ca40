import GraphQLLanguage

/// Compiles the `.gql` files of an `httpGraphql` schema into a ``RemoteSchema``.
///
/// The stages:
/// 1. **Parse** every file (syntax errors stop here).
/// 2. **Classify** definitions: `type Query` and `type Mutation` give root fields; other object types,
///    input types and enums are kept; scalars, interfaces, unions, schema and directive definitions and
///    extensions are errors (the prelude's scalars are available without declaring them).
/// 3. **Resolve** every type a field or argument names: a type of this schema, or a built-in scalar
///    (`String`, `Int`, `Float`, `Boolean`, `ID`, `UUID`, `Int64`, `Date`, `Timestamp`, `Any`).
///
/// Clashes with the generated API and with other schemas are found when the API is merged
/// (``GeneratedAPI/merging(model:remoteSchemas:)``).
public enum RemoteSchemaCompiler {
    /// The scalars a remote schema may name without declaring them: the ones the Cloud Functions GraphQL
    /// server declares for a Data Connect resolver, and GraphQL's own.
    public static let builtInScalars: Set<String> = [
        "String", "Int", "Float", "Boolean", "ID", "UUID", "Int64", "Date", "Timestamp", "Any",
    ]

    /// Parses and compiles a secondary schema's sources.
    ///
    /// - Parameters:
    ///   - id: the schema's id in `schemas:`.
    ///   - endpoint: the `httpGraphql` settings.
    ///   - sources: the `.gql` files of the schema's `source` folder.
    /// - Returns: the schema (nil when there are errors) and every diagnostic.
    public static func compile(
        id: String, endpoint: ServiceConfig.HTTPGraphQL, sources: [Source]
    ) -> (schema: RemoteSchema?, diagnostics: [Diagnostic]) {
        let parsed = GraphQLParser.parseDocuments(sources)
        let definitions = parsed.definitions
        var diagnostics = parsed.diagnostics
        if diagnostics.containsErrors { return (nil, diagnostics) }
        var schema = RemoteSchema(id: id, uri: endpoint.uri, timeout: endpoint.timeout)
        var declared: [String: NodeLocation] = [:]
        func error(_ message: String, at location: NodeLocation) {
            diagnostics.append(Diagnostic(file: location.file, location: location.start, message: message))
        }
        for definition in definitions {
            guard case .type(let type) = definition else {
                error(
                    "a custom resolver schema may declare only object, input and enum types",
                    at: definition.location)
                continue
            }
            let name = type.name.value
            if let first = declared[name] {
                error(
                    "type \"\(name)\" is declared twice (first at \(first.file):\(first.start.line):\(first.start.column))",
                    at: type.name.location)
                continue
            }
            declared[name] = type.name.location
            if !type.directives.isEmpty {
                error("directives are not allowed in a custom resolver schema", at: type.directives[0].location)
            }
            switch type {
            case .object(let object) where name == "Query":
                schema.queryFields = object.fields
            case .object(let object) where name == "Mutation":
                schema.mutationFields = object.fields
            case .object(let object):
                if !object.interfaces.isEmpty {
                    error("interfaces are not supported in a custom resolver schema", at: object.location)
                }
                schema.types.append(type)
            case .inputObject, .enum:
                schema.types.append(type)
            case .scalar:
                let hint =
                    builtInScalars.contains(name)
                    ? "\"\(name)\" is built in; remove the declaration" : "use Any for free-form values"
                error("custom scalars are not supported in a custom resolver schema; \(hint)", at: type.location)
            case .interface, .union:
                error("interfaces and unions are not supported in a custom resolver schema", at: type.location)
            }
        }
        if schema.queryFields.isEmpty && schema.mutationFields.isEmpty && !diagnostics.containsErrors {
            let file = sources.first?.name ?? id
            diagnostics.append(
                Diagnostic(
                    file: file, location: nil,
                    message: "the custom resolver schema \"\(id)\" declares no Query or Mutation fields"))
        }
        diagnostics += unresolvedTypes(in: schema, declared: Set(declared.keys))
        return (diagnostics.containsErrors ? nil : schema, diagnostics)
    }

    /// Rule: every type a field, argument or input field names is declared here or built in.
    static func unresolvedTypes(in schema: RemoteSchema, declared: Set<String>) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        func check(_ type: TypeReference, at location: NodeLocation) {
            let name = type.namedType.value
            guard !declared.contains(name) || name == "Query" || name == "Mutation" else { return }
            if builtInScalars.contains(name) { return }
            diagnostics.append(
                Diagnostic(
                    file: location.file, location: location.start,
                    message:
                        "unknown type \"\(name)\"; a custom resolver schema may name its own types and the built-in scalars"
                ))
        }
        func checkFields(_ fields: [FieldDefinition]) {
            for field in fields {
                check(field.type, at: field.location)
                for argument in field.arguments { check(argument.type, at: argument.location) }
            }
        }
        checkFields(schema.queryFields)
        checkFields(schema.mutationFields)
        for type in schema.types {
            switch type {
            case .object(let object): checkFields(object.fields)
            case .inputObject(let input):
                for field in input.fields { check(field.type, at: field.location) }
            default: break
            }
        }
        return diagnostics
    }
}
