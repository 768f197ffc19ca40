import DataConnectSchema
import GraphQLLanguage
import Synchronization

/// What never changes while a schema is loaded, for introspection and `_service`: the schema's
/// ``SchemaIntrospection``, computed when the engine starts, and its SDL texts, printed on first use.
final class SchemaAnswers: Sendable {
    /// The introspection description of the generated API.
    let introspection: SchemaIntrospection
    let api: GeneratedAPI
    /// The user's schema source: its files joined.
    let schemaSource: String
    /// Printed SDL by (omit built-ins, omit descriptions).
    private let printed = Mutex<[Int: String]>([:])

    init(api: GeneratedAPI, schemaSources: [Source]) {
        self.api = api
        self.introspection = SchemaIntrospection(system: api.typeSystem)
        self.schemaSource = schemaSources.map(\.text).joined(separator: "\n")
    }

    /// The generated API's SDL, with the prelude's built-ins unless `omitBuiltin`, with descriptions unless
    /// `omitDescription`.
    func sdl(omitBuiltin: Bool, omitDescription: Bool) -> String {
        let key = (omitBuiltin ? 1 : 0) + (omitDescription ? 2 : 0)
        if let text = printed.withLock({ $0[key] }) { return text }
        let text: String
        if omitDescription {
            var definitions = omitBuiltin ? [] : Self.preludeDefinitions
            definitions += api.definitions
            text = GraphQLPrinter.print(Document(definitions: definitions.map(Self.withoutDescriptions))) + "\n"
        } else {
            text = api.sdl(includePrelude: !omitBuiltin)
        }
        printed.withLock { $0[key] = text }
        return text
    }

    /// The prelude's definitions.
    static let preludeDefinitions: [Definition] =
        (try? GraphQLParser.parseDocument(Source(name: Prelude.fileName, text: Prelude.sdl)).definitions) ?? []

    /// A definition with every description removed.
    static func withoutDescriptions(_ definition: Definition) -> Definition {
        func input(_ value: InputValueDefinition) -> InputValueDefinition {
            var value = value
            value.description = nil
            return value
        }
        func field(_ value: FieldDefinition) -> FieldDefinition {
            var value = value
            value.description = nil
            value.arguments = value.arguments.map(input)
            return value
        }
        switch definition {
        case .type(let type), .typeExtension(let type):
            let stripped: TypeDefinition
            switch type {
            case .scalar(var scalar):
                scalar.description = nil
                stripped = .scalar(scalar)
            case .object(var object):
                object.description = nil
                object.fields = object.fields.map(field)
                stripped = .object(object)
            case .interface(var object):
                object.description = nil
                object.fields = object.fields.map(field)
                stripped = .interface(object)
            case .union(var union):
                union.description = nil
                stripped = .union(union)
            case .enum(var enumeration):
                enumeration.description = nil
                enumeration.values = enumeration.values.map { value in
                    var value = value
                    value.description = nil
                    return value
                }
                stripped = .enum(enumeration)
            case .inputObject(var object):
                object.description = nil
                object.fields = object.fields.map(input)
                stripped = .inputObject(object)
            }
            if case .typeExtension = definition { return .typeExtension(stripped) }
            return .type(stripped)
        case .directive(var directive):
            directive.description = nil
            directive.arguments = directive.arguments.map(input)
            return .directive(directive)
        default:
            return definition
        }
    }
}
