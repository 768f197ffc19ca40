import GraphQLLanguage

/// The introspection types of the GraphQL specification (October 2021, section 4.5) and the meta fields
/// `__schema` and `__type` of the query root.
///
/// They belong to every generated API's type system, as in graphql-js, so operations select from them like
/// from any type, and the introspection query lists them among `types`. They are never printed in SDL.
public enum IntrospectionTypes {
    /// The names of the introspection types, in the order the specification gives them.
    public static let names = [
        "__Schema", "__Type", "__TypeKind", "__Field", "__InputValue", "__EnumValue", "__Directive",
        "__DirectiveLocation",
    ]

    /// The introspection types' SDL.
    static let sdl = #"""
        "A GraphQL Schema defines the capabilities of a GraphQL server. It exposes all available types and directives on the server, as well as the entry points for query, mutation, and subscription operations."
        type __Schema {
          description: String
          "A list of all types supported by this server."
          types: [__Type!]!
          "The type that query operations will be rooted at."
          queryType: __Type!
          "If this server supports mutation, the type that mutation operations will be rooted at."
          mutationType: __Type
          "If this server support subscription, the type that subscription operations will be rooted at."
          subscriptionType: __Type
          "A list of all directives supported by this server."
          directives: [__Directive!]!
        }
        "The fundamental unit of any GraphQL Schema is the type. There are many kinds of types in GraphQL as represented by the `__TypeKind` enum."
        type __Type {
          kind: __TypeKind!
          name: String
          description: String
          specifiedByURL: String
          fields(includeDeprecated: Boolean = false): [__Field!]
          interfaces: [__Type!]
          possibleTypes: [__Type!]
          enumValues(includeDeprecated: Boolean = false): [__EnumValue!]
          inputFields(includeDeprecated: Boolean = false): [__InputValue!]
          ofType: __Type
        }
        "An enum describing what kind of type a given `__Type` is."
        enum __TypeKind { SCALAR OBJECT INTERFACE UNION ENUM INPUT_OBJECT LIST NON_NULL }
        "Object and Interface types are described by a list of Fields, each of which has a name, potentially a list of arguments, and a return type."
        type __Field {
          name: String!
          description: String
          args(includeDeprecated: Boolean = false): [__InputValue!]!
          type: __Type!
          isDeprecated: Boolean!
          deprecationReason: String
        }
        "Arguments provided to Fields or Directives and the input fields of an InputObject are represented as Input Values which describe their type and optionally a default value."
        type __InputValue {
          name: String!
          description: String
          type: __Type!
          "A GraphQL-formatted string representing the default value for this input value."
          defaultValue: String
          isDeprecated: Boolean!
          deprecationReason: String
        }
        "One possible value for a given Enum. Enum values are unique values, not a placeholder for a string or numeric value. However an Enum value is returned in a JSON response as a string."
        type __EnumValue {
          name: String!
          description: String
          isDeprecated: Boolean!
          deprecationReason: String
        }
        "A Directive provides a way to describe alternate runtime execution and type validation behavior in a GraphQL document."
        type __Directive {
          name: String!
          description: String
          isRepeatable: Boolean!
          locations: [__DirectiveLocation!]!
          args(includeDeprecated: Boolean = false): [__InputValue!]!
        }
        "A Directive can be adjacent to many parts of the GraphQL language, a __DirectiveLocation describes one such possible adjacencies."
        enum __DirectiveLocation {
          QUERY MUTATION SUBSCRIPTION FIELD FRAGMENT_DEFINITION FRAGMENT_SPREAD INLINE_FRAGMENT VARIABLE_DEFINITION
          SCHEMA SCALAR OBJECT FIELD_DEFINITION ARGUMENT_DEFINITION INTERFACE UNION ENUM ENUM_VALUE INPUT_OBJECT
          INPUT_FIELD_DEFINITION
        }
        """#

    /// The introspection types' definitions.
    static let definitions: [Definition] = {
        do {
            return try GraphQLParser.parseDocument(Source(name: "introspection.gql", text: sdl)).definitions
        } catch {
            preconditionFailure("the built-in introspection types do not parse: \(error)")
        }
    }()

    /// `__schema: __Schema!`: the meta field of the query root that describes the schema.
    public static let schemaField = FieldDefinition(
        description: StringValue("Access the current type schema of this server."), name: Name("__schema"),
        arguments: [], type: .nonNull(.named(Name("__Schema")), .synthesized))

    /// `__type(name: String!): __Type`: the meta field of the query root that describes one type.
    public static let typeField = FieldDefinition(
        description: StringValue("Request the type information of a single type."), name: Name("__type"),
        arguments: [
            InputValueDefinition(name: Name("name"), type: .nonNull(.named(Name("String")), .synthesized))
        ],
        type: .named(Name("__Type")))

    /// The meta field named `name` of the query root, if it is one.
    public static func queryMetaField(_ name: String) -> FieldDefinition? {
        switch name {
        case "__schema": schemaField
        case "__type": typeField
        default: nil
        }
    }
}
