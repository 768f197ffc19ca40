import GraphQLLanguage

/// A secondary schema served by a GraphQL endpoint (a custom resolver): its types and root fields.
///
/// Declared in `dataconnect.yaml` as an entry of `schemas:` whose datasource is `httpGraphql`. Its
/// `type Query` and `type Mutation` fields join the generated API's root types with the role
/// ``APIFieldRole/remote(schema:)``; its other types (objects, inputs, enums) join the API as they are.
///
/// ```swift
/// let (remote, diagnostics) = RemoteSchemaCompiler.compile(entry, sources: files)
/// remote?.queryFields.map(\.name.value)   // ["greeting", "weather"]
/// ```
public struct RemoteSchema: Hashable, Sendable {
    /// The schema's id in `schemas:`.
    public var id: String
    /// The endpoint the fields are forwarded to.
    public var uri: String
    /// The configured timeout of one forwarded request, if any.
    public var timeout: ConfigDuration?
    /// The fields of `type Query`, as written.
    public var queryFields: [FieldDefinition]
    /// The fields of `type Mutation`, as written.
    public var mutationFields: [FieldDefinition]
    /// The other type definitions (objects, inputs, enums), as written.
    public var types: [TypeDefinition]

    /// Creates a remote schema.
    public init(
        id: String, uri: String, timeout: ConfigDuration? = nil, queryFields: [FieldDefinition] = [],
        mutationFields: [FieldDefinition] = [], types: [TypeDefinition] = []
    ) {
        self.id = id
        self.uri = uri
        self.timeout = timeout
        self.queryFields = queryFields
        self.mutationFields = mutationFields
        self.types = types
    }
}
