import GraphQLLanguage

extension GeneratedAPI {
    /// Generates the API of a compiled schema merged with custom resolver schemas, checking their names.
    ///
    /// A remote type may not reuse the name of a generated or built-in type, nor of a type of another
    /// remote schema; a remote `Query` or `Mutation` field may not reuse the name of a generated root field
    /// or of another schema's. Each clash is an error at the remote definition, and the clashing definition
    /// is left out of the API.
    ///
    /// ```swift
    /// let (api, diagnostics) = GeneratedAPI.merging(model: model, remoteSchemas: [resolvers])
    /// api.role(of: "greeting", on: "Query")   // .remote(schema: "resolvers")
    /// ```
    ///
    /// - Returns: the merged API and the clashes found.
    public static func merging(
        model: SchemaModel, remoteSchemas: [RemoteSchema]
    ) -> (api: GeneratedAPI, diagnostics: [Diagnostic]) {
        guard !remoteSchemas.isEmpty else { return (GeneratedAPI(model: model), []) }
        let base = GeneratedAPI(model: model)
        var diagnostics: [Diagnostic] = []
        var typeOwners: [String: String] = [:]
        var queryOwners: [String: String] = [:]
        var mutationOwners: [String: String] = [:]
        for name in base.typeSystem.types.keys { typeOwners[name] = "the main schema's generated API" }
        for field in base.typeSystem.fields(of: "Query") { queryOwners[field.name.value] = "the generated API" }
        for field in base.typeSystem.fields(of: "Mutation") { mutationOwners[field.name.value] = "the generated API" }

        func claim(_ name: Name, kind: String, in owners: inout [String: String], by owner: String) -> Bool {
            if let existing = owners[name.value] {
                diagnostics.append(
                    Diagnostic(
                        file: name.location.file, location: name.location.start,
                        message: "\(kind) \"\(name.value)\" of schema \"\(owner)\" clashes with \(existing)"))
                return false
            }
            owners[name.value] = "schema \"\(owner)\""
            return true
        }

        var accepted: [RemoteSchema] = []
        for remote in remoteSchemas {
            var kept = remote
            kept.types = remote.types.filter { claim($0.name, kind: "type", in: &typeOwners, by: remote.id) }
            kept.queryFields = remote.queryFields.filter {
                claim($0.name, kind: "Query field", in: &queryOwners, by: remote.id)
            }
            kept.mutationFields = remote.mutationFields.filter {
                claim($0.name, kind: "Mutation field", in: &mutationOwners, by: remote.id)
            }
            accepted.append(kept)
        }
        return (GeneratedAPI(model: model, remoteSchemas: accepted), diagnostics)
    }

    /// The custom resolver schema with `id`, if merged.
    public func remoteSchema(id: String) -> RemoteSchema? {
        remoteSchemas.first { $0.id == id }
    }
}

extension APIBuilder {
    /// Adds each remote schema's types, and its `Query` and `Mutation` fields with the role
    /// ``APIFieldRole/remote(schema:)``.
    mutating func buildRemoteSchemas() {
        for remote in remoteSchemas {
            for type in remote.types { definitions.append(.type(type)) }
            for field in remote.queryFields {
                queryFields.append(field)
                setRole(.remote(schema: remote.id), field.name.value, on: "Query")
            }
            for field in remote.mutationFields {
                mutationFields.append(field)
                setRole(.remote(schema: remote.id), field.name.value, on: "Mutation")
            }
        }
    }
}
