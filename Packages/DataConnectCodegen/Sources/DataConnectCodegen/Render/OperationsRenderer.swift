/// Renders `<Connector>Operations.swift`: enums, input structs and one class per operation.
struct OperationsRenderer {
    let connector: SwiftConnector

    /// The enums every generated package carries (upstream shape: `String`-backed, no unknown case).
    static let commonEnums: [SwiftEnum] = [
        SwiftEnum(name: "OrderDirection", values: ["ASC", "DESC"]),
        SwiftEnum(name: "SearchQueryFormat", values: ["QUERY", "PLAIN", "PHRASE", "ADVANCED"]),
    ]

    func render() -> String {
        var writer = SwiftWriter()
        for line in GeneratedHeader.swift(from: connector.manifestPath) { writer.line(line) }
        writer.line()
        writer.line("import Foundation")
        writer.line()
        writer.line("import FirebaseCore")
        writer.line("import FirebaseDataConnect")
        writer.line()
        writer.line("// MARK: Common Enums")
        for item in Self.commonEnums {
            writer.line()
            writer.block("public enum \(item.name): String, Codable, Sendable") { writer in
                for value in item.values { writer.line("case \(SwiftNaming.identifier(value))") }
            }
        }
        writer.line()
        writer.line("// MARK: Connector Enums")
        for item in connector.enums {
            writer.line()
            Self.renderEnum(item, into: &writer)
        }
        writer.line()
        writer.line("// End enum definitions")
        if !connector.inputs.isEmpty {
            writer.line()
            writer.line("// MARK: Input Types")
            for input in connector.inputs {
                writer.line()
                renderInput(input, into: &writer)
            }
        }
        for operation in connector.operations {
            writer.line()
            renderOperation(operation, into: &writer)
        }
        return writer.text
    }

    // MARK: Enums

    /// A user enum: one case per value plus `_UNKNOWN(String)`, so unknown wire values round-trip.
    static func renderEnum(_ item: SwiftEnum, into writer: inout SwiftWriter) {
        writer.block("public enum \(item.name): RawRepresentable, Codable, Sendable, Hashable") { writer in
            for value in item.values { writer.line("case \(SwiftNaming.identifier(value))") }
            writer.line("case _UNKNOWN(String)")
            writer.line()
            writer.block("public init(rawValue: String)") { writer in
                writer.switchBlock("rawValue") { writer in
                    for value in item.values {
                        writer.line("case \(GeneratedHeader.literal(value)): self = .\(value)")
                    }
                    writer.line("default: self = ._UNKNOWN(rawValue)")
                }
            }
            writer.line()
            writer.block("public var rawValue: String") { writer in
                writer.switchBlock("self") { writer in
                    for value in item.values { writer.line("case .\(value): \(GeneratedHeader.literal(value))") }
                    writer.line("case ._UNKNOWN(let value): value")
                }
            }
            writer.line()
            writer.block("public init(from decoder: any Decoder) throws") { writer in
                writer.line("let container = try decoder.singleValueContainer()")
                writer.line("self.init(rawValue: try container.decode(String.self))")
            }
            writer.line()
            writer.block("public func encode(to encoder: any Encoder) throws") { writer in
                writer.line("var container = encoder.singleValueContainer()")
                writer.line("try container.encode(rawValue)")
            }
        }
    }

    // MARK: Inputs

    /// An input struct; fields marked indirect keep their value in a one-element array.
    private func renderInput(_ input: SwiftInput, into writer: inout SwiftWriter) {
        writer.block("public struct \(input.name): Encodable, Hashable, Sendable") { writer in
            for field in input.fields {
                let name = SwiftNaming.identifier(field.name)
                let type = field.type + (field.isRequired ? "" : "?")
                guard field.isIndirect else {
                    writer.line("public var \(name): \(type)")
                    continue
                }
                let storage = field.name + "Storage"
                writer.block("public var \(name): \(type)") { writer in
                    writer.line(field.isRequired ? "get { \(storage)[0] }" : "get { \(storage).first }")
                    writer.line(
                        field.isRequired
                            ? "set { \(storage) = [newValue] }" : "set { \(storage) = newValue.map { [$0] } ?? [] }")
                }
                writer.line("private var \(storage): [\(field.type)]")
            }
            writer.line()
            let parameters = input.fields.map { field in
                "\(field.name): \(field.type)" + (field.isRequired ? "" : "? = nil")
            }
            writer.block("public init(\(parameters.joined(separator: ", ")))") { writer in
                for field in input.fields {
                    let name = SwiftNaming.identifier(field.name)
                    if !field.isIndirect {
                        writer.line("self.\(name) = \(name)")
                    } else if field.isRequired {
                        writer.line("self.\(field.name)Storage = [\(name)]")
                    } else {
                        writer.line("self.\(field.name)Storage = \(name).map { [$0] } ?? []")
                    }
                }
            }
            writer.line()
            CodableRenderer.codingKeys(input.fields.map(\.name), into: &writer)
            writer.line()
            writer.block("public func encode(to encoder: any Encoder) throws") { writer in
                CodableRenderer.encoderPrologue(into: &writer)
                for field in input.fields {
                    let name = SwiftNaming.identifier(field.name)
                    if field.isRequired {
                        writer.line(CodableRenderer.encodeLine(name, key: field.name))
                    } else {
                        writer.block("if let \(name)") { $0.line(CodableRenderer.encodeLine(name, key: field.name)) }
                    }
                }
            }
        }
    }

    // MARK: Operations

    private func renderOperation(_ operation: SwiftOperation, into writer: inout SwiftWriter) {
        let className = operation.className
        let dataType = "\(className).Data"
        let variablesType = "\(className).Variables"
        let refType: String
        switch (operation.kind, connector.options.observablePublisher) {
        case (.query, .observableObject): refType = "QueryRefObservableObject<\(dataType), \(variablesType)>"
        case (.query, .observableMacro): refType = "QueryRefObservation<\(dataType), \(variablesType)>"
        case (.mutation, _): refType = "MutationRef<\(dataType), \(variablesType)>"
        }
        var documentation = operation.documentation
        if !documentation.isEmpty { documentation.append("") }
        documentation.append(
            "- Remark: Generated from \(operation.sourcePath), \(operation.kind.rawValue) \(operation.name).")
        for line in Self.uncheckedSendableReason { writer.line(line) }
        writer.doc(documentation)
        writer.block("public class \(className): @unchecked Sendable") { writer in
            writer.line("let dataConnect: DataConnect")
            writer.line()
            writer.block("init(dataConnect: DataConnect)") { $0.line("self.dataConnect = dataConnect") }
            writer.line()
            writer.doc(["The operation name sent to the service."])
            writer.line("public static let OperationName = \(GeneratedHeader.literal(operation.name))")
            writer.line()
            writer.doc(["The ref that `ref(...)` returns."])
            writer.line("public typealias Ref = \(refType)")
            writer.line()
            renderVariables(operation, into: &writer)
            writer.line()
            writer.doc(["The decoded `data` of a response."])
            renderStruct(operation.data, isTopLevel: true, into: &writer)
            writer.line()
            renderRef(operation, refType: refType, into: &writer)
            writer.line()
            renderExecute(operation, into: &writer)
        }
    }

    /// Why the generated classes are `@unchecked Sendable`, written above each of them.
    ///
    /// Upstream's classes are plain `public class`; Swift 6 cannot check `Sendable` on a class that is not
    /// `final`, so the conformance is asserted, and holds: see `docs/codegen.md`.
    static let uncheckedSendableReason = [
        "// Not final, as upstream; Swift cannot check Sendable on a non-final class. It holds: every stored property",
        "// is an immutable Sendable value, and the class is not open, so no subclass can add state outside this module.",
    ]

    private func renderVariables(_ operation: SwiftOperation, into writer: inout SwiftWriter) {
        writer.doc(["The variables of `\(operation.name)`."])
        let header = "public struct Variables: OperationVariable"
        guard !operation.variables.isEmpty else {
            writer.line(header + " {}")
            return
        }
        writer.block(header) { writer in
            for variable in operation.variables {
                let name = SwiftNaming.identifier(variable.name)
                if variable.isRequired {
                    writer.line("public var \(name): \(variable.type)")
                } else {
                    writer.line("@OptionalVariable")
                    writer.line("public var \(name): \(variable.type)?")
                }
            }
            writer.line()
            renderVariablesInit(operation, into: &writer)
            writer.line()
            let comparisons = operation.variables.map { variable in
                variable.isRequired
                    ? "lhs.\(variable.name) == rhs.\(variable.name)" : "lhs.$\(variable.name) == rhs.$\(variable.name)"
            }
            writer.block("public static func == (lhs: Variables, rhs: Variables) -> Bool") { writer in
                writer.line(comparisons.joined(separator: " && "))
            }
            writer.line()
            writer.block("public func hash(into hasher: inout Hasher)") { writer in
                for variable in operation.variables {
                    writer.line("hasher.combine(\(variable.isRequired ? "" : "$")\(variable.name))")
                }
            }
            writer.line()
            CodableRenderer.codingKeys(operation.variables.map(\.name), into: &writer)
            writer.line()
            writer.block("public func encode(to encoder: any Encoder) throws") { writer in
                CodableRenderer.encoderPrologue(into: &writer)
                for variable in operation.variables {
                    if variable.isRequired {
                        writer.line(
                            CodableRenderer.encodeLine(SwiftNaming.identifier(variable.name), key: variable.name))
                    } else {
                        writer.block("if $\(variable.name).isSet") { writer in
                            writer.line(CodableRenderer.encodeLine("$\(variable.name)", key: variable.name))
                        }
                    }
                }
            }
        }
    }

    /// The initializer: the required variables, then (when some are nullable) upstream's builder closure.
    private func renderVariablesInit(_ operation: SwiftOperation, into writer: inout SwiftWriter) {
        var parameters = operation.variables.filter(\.isRequired).map { "\($0.name): \($0.type)" }
        let hasOptional = operation.variables.contains { !$0.isRequired }
        if hasOptional { parameters.append("_ optionalVars: ((inout Variables) -> Void)? = nil") }
        writer.block("public init(\(parameters.joined(separator: ", ")))") { writer in
            for variable in operation.variables where variable.isRequired {
                let name = SwiftNaming.identifier(variable.name)
                writer.line("self.\(name) = \(name)")
            }
            if hasOptional {
                writer.block("if let optionalVars") { $0.line("optionalVars(&self)") }
            }
        }
    }

    /// A `Data` struct, its nested structs and, under the identity rule, its key conformances.
    private func renderStruct(_ item: SwiftStruct, isTopLevel: Bool, into writer: inout SwiftWriter) {
        var conformances = ["Decodable", "Sendable"]
        if let identity = item.identity {
            conformances += ["Hashable", "Equatable"]
            if identity.isIdentifiable { conformances.append("Identifiable") }
        }
        let properties = item.properties.map { (name: $0.name, type: $0.type) }
        writer.block("public struct \(item.name): \(conformances.joined(separator: ", "))") { writer in
            for property in item.properties {
                writer.line("public var \(SwiftNaming.identifier(property.name)): \(property.type)")
            }
            if let identity = item.identity {
                let arguments = identity.fields.map { "\($0.keyField): \(SwiftNaming.identifier($0.property))" }
                writer.line()
                writer.doc(["The key of this row."])
                writer.block("public var \(identity.accessorName): \(identity.keyType)") { writer in
                    writer.line("\(identity.keyType)(\(arguments.joined(separator: ", ")))")
                }
                writer.line()
                writer.block("public static func == (lhs: \(item.name), rhs: \(item.name)) -> Bool") { writer in
                    let comparisons = identity.fields.map { "lhs.\($0.property) == rhs.\($0.property)" }
                    writer.line(comparisons.joined(separator: " && "))
                }
                writer.line()
                writer.block("public func hash(into hasher: inout Hasher)") { writer in
                    for field in identity.fields { writer.line("hasher.combine(\(field.property))") }
                }
            }
            writer.line()
            CodableRenderer.memberwiseInit(properties, into: &writer)
            writer.line()
            CodableRenderer.codingKeys(item.properties.map(\.name), into: &writer)
            writer.line()
            CodableRenderer.decoder(properties, into: &writer)
            for child in item.nested {
                writer.line()
                renderStruct(child, isTopLevel: false, into: &writer)
            }
        }
    }

    // MARK: ref and execute

    /// The labelled parameters for the required variables, then the builder closure when some are nullable.
    ///
    /// - Parameter closureAttributes: Written before the closure type, e.g. `@MainActor ` for `execute`.
    private func parameters(_ operation: SwiftOperation, closureAttributes: String = "") -> [String] {
        var parameters = operation.variables.filter(\.isRequired).map { "\($0.name): \($0.type)" }
        if operation.variables.contains(where: { !$0.isRequired }) {
            parameters.append(
                "_ optionalVars: (\(closureAttributes)(inout \(operation.className).Variables) -> Void)? = nil")
        }
        return parameters
    }

    /// `Variables(a: a, b: b` without the closing parenthesis; the caller adds the closure or `)`.
    private func variablesInitCall(_ operation: SwiftOperation) -> String {
        let arguments = operation.variables.filter(\.isRequired).map { "\($0.name): \($0.name)" }
        return "\(operation.className).Variables(\(arguments.joined(separator: ", "))"
    }

    private func renderRef(_ operation: SwiftOperation, refType: String, into writer: inout SwiftWriter) {
        let className = operation.className
        let hasOptional = operation.variables.contains { !$0.isRequired }
        let hasRequired = operation.variables.contains { $0.isRequired }
        writer.doc(["The ref for these variables; refs with equal variables are shared."])
        writer.block("public func ref(\(parameters(operation).joined(separator: ", "))) -> \(refType)") { writer in
            let closure = hasOptional ? (hasRequired ? ", optionalVars)" : "optionalVars)") : ")"
            writer.line("return ref(for: \(variablesInitCall(operation))\(closure))")
        }
        writer.line()
        writer.doc(["The ref for `variables`, shared by `ref(...)` and `execute(...)`."])
        writer.block("func ref(for variables: \(className).Variables) -> \(refType)") { writer in
            let name = "\(className).OperationName"
            let arguments = "name: \(name), variables: variables, resultsDataType: \(className).Data.self"
            switch (operation.kind, connector.options.observablePublisher) {
            case (.query, .observableMacro):
                writer.line("return dataConnect.query(\(arguments))")
            case (.query, .observableObject):
                writer.line("let ref = dataConnect.query(\(arguments), publisher: .observableObject)")
                writer.line("return ref as! \(refType)")
            case (.mutation, _):
                writer.line("return dataConnect.mutation(\(arguments))")
            }
        }
    }

    /// `execute(...)`: `@MainActor` as upstream, with a `@MainActor` builder closure; queries take a fetch policy.
    private func renderExecute(_ operation: SwiftOperation, into writer: inout SwiftWriter) {
        var parameters = parameters(operation, closureAttributes: "@MainActor ")
        if operation.kind == .query { parameters.insert("fetchPolicy: QueryFetchPolicy = .preferCache", at: 0) }
        let hasOptional = operation.variables.contains { !$0.isRequired }
        let result = "OperationResult<\(operation.className).Data>"
        writer.doc(["Runs the \(operation.kind.rawValue) once and returns its result."])
        writer.line("@MainActor")
        writer.block("public func execute(\(parameters.joined(separator: ", "))) async throws -> \(result)") {
            writer in
            if hasOptional {
                writer.line("var variables = \(variablesInitCall(operation)))")
                writer.block("if let optionalVars") { $0.line("optionalVars(&variables)") }
            } else {
                writer.line("let variables = \(variablesInitCall(operation)))")
            }
            if operation.kind == .query {
                writer.line("return try await ref(for: variables).execute(fetchPolicy: fetchPolicy)")
            } else {
                writer.line("return try await ref(for: variables).execute()")
            }
        }
    }
}
