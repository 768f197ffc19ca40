import DataConnectWire
import GraphQLLanguage

/// The GraphQL request sent to a custom resolver for one root field: the field with its selection, its
/// arguments bound as variables.
///
/// The document is built as a syntax tree from the planned field (aliases, arguments, sub-selections; fields
/// removed by `@skip`/`@include` left out) and printed by ``GraphQLPrinter``. Every argument, whether written
/// as a literal or a variable, becomes a variable of the forwarded operation with the argument's declared
/// type, so the resolver sees the values exactly as the engine coerced them.
///
/// ```graphql
/// query GetGreeting($name: String!) { greeting(name: $name) }
/// ```
struct ForwardedRequest {
    /// The printed document.
    let query: String
    /// The variables' values.
    let variables: JSONObject
    /// The operation's name (the connector operation's).
    let operationName: String

    /// Builds the request for `root`.
    ///
    /// - Parameters:
    ///   - root: the remote root field.
    ///   - kind: `query` or `mutation`.
    ///   - operationName: the forwarded operation's name.
    ///   - resolution: the request's resolved arguments and skipped fields.
    init(root: FieldNode, kind: OperationType, operationName: String, resolution: Resolution) {
        var builder = Builder(resolution: resolution)
        let field = builder.field(root)
        let operation = OperationDefinition(
            operation: kind, name: Name(operationName), variables: builder.definitions,
            selectionSet: SelectionSet(selections: [.field(field)]))
        self.query = GraphQLPrinter.print(Document(definitions: [.operation(operation)]))
        self.variables = builder.values
        self.operationName = operationName
    }

    /// The JSON body: `{"query", "variables", "operationName"}`.
    var body: [UInt8] {
        JSONValue.object([
            "query": .string(query), "variables": .object(variables), "operationName": .string(operationName),
        ]).serialized()
    }

    /// Turns planned fields back into syntax, collecting the variables.
    private struct Builder {
        let resolution: Resolution
        var definitions: [VariableDefinition] = []
        var values = JSONObject()

        init(resolution: Resolution) {
            self.resolution = resolution
        }

        mutating func field(_ node: FieldNode) -> Field {
            var arguments: [Argument] = []
            if case .object(let resolved)? = resolution.arguments[node.id] {
                for (name, value) in resolved {
                    guard let definition = node.argumentDefinitions.first(where: { $0.name.value == name }) else {
                        continue
                    }
                    let variable = freshName(name)
                    definitions.append(VariableDefinition(name: Name(variable), type: definition.type))
                    values[variable] = resolution.json(value)
                    arguments.append(Argument(name: Name(name), value: .variable(Name(variable))))
                }
            }
            let children = node.children.filter { !resolution.skipped.contains($0.id) }
            let selectionSet =
                children.isEmpty ? nil : SelectionSet(selections: children.map { .field(field($0)) })
            return Field(
                alias: node.responseKey == node.name ? nil : Name(node.responseKey), name: Name(node.name),
                arguments: arguments, selectionSet: selectionSet)
        }

        /// The argument's name, numbered when a field above already used it.
        func freshName(_ name: String) -> String {
            if values[name] == nil && !definitions.contains(where: { $0.name.value == name }) { return name }
            var number = 2
            while values["\(name)_\(number)"] != nil { number += 1 }
            return "\(name)_\(number)"
        }
    }
}
