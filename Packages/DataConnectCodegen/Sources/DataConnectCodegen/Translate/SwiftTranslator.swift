import DataConnectSchema
import GraphQLLanguage

/// Translate: the validated AST and the generated API become a ``SwiftConnector``.
///
/// Types follow the scalar table (`Float` → `Double`, `Date` → `LocalDate`, `Any` → `AnyValue`, ...);
/// `<Type>_Key` inputs become the `<Type>Key` structs of the keys file, other inputs become input structs.
struct SwiftTranslator {
    let service: CompiledService
    let connector: CompiledConnector
    let options: SwiftGenerator.Options

    private var api: GeneratedAPI { service.api }
    private var types: TypeSystem { service.api.typeSystem }
    private var model: SchemaModel { service.api.model }

    static let scalarTypes: [String: String] = [
        "String": "String", "ID": "String", "Int": "Int", "Float": "Double", "Boolean": "Bool", "UUID": "UUID",
        "Date": "LocalDate", "Timestamp": "Timestamp", "Int64": "Int64", "Any": "AnyValue", "Vector": "[Double]",
        "Vector_Embed_Model": "String",
    ]

    func translate() -> SwiftConnector {
        let manifest = connector.sources.manifest
        let pascal = SwiftNaming.connectorName(manifest.connectorId)
        var inputNames: [String] = []
        let operations = connector.validated.operations.map { translate($0, inputs: &inputNames) }
        return SwiftConnector(
            connectorId: manifest.connectorId,
            pascalName: pascal,
            className: pascal + "Connector",
            sharedInstanceName: SwiftNaming.lowerFirst(pascal) + "Connector",
            serviceId: service.project.config.serviceId,
            location: service.project.config.location,
            manifestPath: relativePath(connector.sources.directory + "/connector.yaml"),
            options: options,
            operations: operations,
            enums: model.enums.map { SwiftEnum(name: $0.name, values: $0.values) } + remoteEnums()
                + preludeEnums(inputNames),
            keys: model.tables.filter { !$0.isView }.map { table in
                SwiftKey(
                    name: table.name + "Key",
                    fields: table.keyColumns.map {
                        SwiftVariable(name: $0.name, type: namedType($0.type.graphQLName), isRequired: true)
                    })
            },
            inputs: translateInputs(inputNames))
    }

    // MARK: Operations

    private func translate(_ operation: OperationDefinition, inputs: inout [String]) -> SwiftOperation {
        let name = operation.name?.value ?? ""
        let kind: SwiftOperation.Kind = operation.operation == .mutation ? .mutation : .query
        let rootType = kind == .mutation ? types.mutationType : types.queryType
        var documentation = operation.leadingComments.map { $0.trimmingWhitespace() }
        if let description = operation.description {
            documentation += description.value.split(separator: "\n", omittingEmptySubsequences: false).map {
                String($0).trimmingWhitespace()
            }
        }
        while documentation.first == "" { documentation.removeFirst() }
        while documentation.last == "" { documentation.removeLast() }
        let variables = operation.variables.map { definition in
            SwiftVariable(
                name: definition.name.value, type: inputType(definition.type.nullable, inputs: &inputs),
                isRequired: definition.type.isNonNull)
        }
        let selection = MergedSelection(collecting: operation.selectionSet, fragments: connector.validated.fragments)
        let data = structure(
            named: "Data", fields: returned(selection.roots, of: selection), on: rootType, isRoot: true,
            selection: selection)
        return SwiftOperation(
            kind: kind, name: name, className: SwiftNaming.operationClass(name, kind: kind),
            propertyName: SwiftNaming.operationProperty(name, kind: kind),
            sourcePath: relativePath(operation.location.file), documentation: documentation, variables: variables,
            data: data)
    }

    // MARK: Data structs

    /// Builds a struct from the merged fields selected on `typeName`.
    private func structure(
        named name: String, fields merged: [MergedField], on typeName: String, isRoot: Bool, selection: MergedSelection
    ) -> SwiftStruct {
        let fields = merged.map(\.field)
        var properties: [SwiftProperty] = []
        var nested: [SwiftStruct] = []
        var usedNames: Set<String> = [name]
        for (mergedField, field) in zip(merged, fields) {
            let key = field.responseKey
            if field.name.value == "__typename" {
                properties.append(SwiftProperty(name: key, type: "String"))
                continue
            }
            if isRoot, typeName == types.mutationType, let type = mutationRootType(field.name.value) {
                properties.append(SwiftProperty(name: key, type: type))
                continue
            }
            guard let definition = types.field(field.name.value, on: typeName) else {
                properties.append(SwiftProperty(name: key, type: "AnyValue?"))
                continue
            }
            let target = definition.type.namedType.value
            guard mergedField.hasSelectionSet, types.isComposite(target) else {
                properties.append(SwiftProperty(name: key, type: outputType(definition.type) { namedType($0) }))
                continue
            }
            var structName = field.alias.map { target + SwiftNaming.pascalCase($0.value) } ?? target
            if usedNames.contains(structName) { structName = target + SwiftNaming.pascalCase(key) }
            usedNames.insert(structName)
            let child = structure(
                named: structName, fields: returned(mergedField.children, of: selection), on: target, isRoot: false,
                selection: selection)
            nested.append(child)
            properties.append(SwiftProperty(name: key, type: outputType(definition.type) { _ in structName }))
        }
        return SwiftStruct(
            name: name, properties: properties, nested: nested,
            identity: isRoot ? nil : identity(of: name, fields: fields, on: typeName))
    }

    /// `_insert` → `<Type>Key`, `_update` → `<Type>Key?`, `_insertMany` → `[<Type>Key]`, `_deleteMany` → `Int`.
    private func mutationRootType(_ field: String) -> String? {
        switch api.role(of: field, on: types.mutationType) {
        case .insert(let table), .upsert(let table): "\(table)Key"
        case .update(let table), .delete(let table): "\(table)Key?"
        case .insertMany(let table), .upsertMany(let table): "[\(table)Key]"
        case .updateMany, .deleteMany: "Int"
        default: nil
        }
    }

    /// The identity rule: a struct that selects every primary-key field gets the key conformances.
    private func identity(of structName: String, fields: [Field], on typeName: String) -> SwiftIdentity? {
        guard let table = model.table(typeName), !table.primaryKey.isEmpty else { return nil }
        var keyFields: [SwiftIdentity.Field] = []
        for keyField in table.primaryKey {
            guard let field = fields.first(where: { $0.name.value == keyField && $0.selectionSet == nil }) else {
                return nil
            }
            keyFields.append(SwiftIdentity.Field(keyField: keyField, property: field.responseKey))
        }
        return SwiftIdentity(
            keyType: table.name + "Key", accessorName: SwiftNaming.lowerFirst(structName) + "Key", fields: keyFields,
            isIdentifiable: table.primaryKey == ["id"] && keyFields.first?.property == "id")
    }

    /// The merged fields the server returns, in first-seen order: fragments are inlined and repeated response keys
    /// merged by ``MergedSelection``, the same collection the emulator plans from.
    ///
    /// Fields marked `@redact` are left out: the server runs them (for `@check`) but never returns them.
    private func returned(_ indices: [Int], of selection: MergedSelection) -> [MergedField] {
        indices.map { selection.fields[$0] }.filter { !$0.isRedacted }
    }

    // MARK: Types

    /// The full Swift type of an output field; `name` maps the innermost named type.
    private func outputType(_ reference: TypeReference, name: (String) -> String) -> String {
        switch reference {
        case .nonNull(let inner, _): nonNullType(inner, name: name)
        default: nonNullType(reference, name: name) + "?"
        }
    }

    private func nonNullType(_ reference: TypeReference, name: (String) -> String) -> String {
        switch reference {
        case .named(let named): name(named.value)
        case .list(let element, _): "[\(outputType(element, name: name))]"
        case .nonNull(let inner, _): nonNullType(inner, name: name)
        }
    }

    /// The Swift type of a variable or input field without its outer optional; records the input objects and
    /// enums it names.
    private func inputType(_ reference: TypeReference, inputs: inout [String]) -> String {
        var used: [String] = []
        let type = nonNullType(reference) { name in
            if let key = keyStructName(name) { return key }
            switch types.type(named: name) {
            case .inputObject?: used.append(name)
            case .enum?: used.append(name)
            default: break
            }
            return namedType(name)
        }
        for name in used where !inputs.contains(name) { inputs.append(name) }
        return type
    }

    /// `Movie_Key` → `MovieKey` when `Movie` is a table.
    private func keyStructName(_ name: String) -> String? {
        guard name.hasSuffix("_Key") else { return nil }
        let table = String(name.dropLast(4))
        return model.table(table) == nil ? nil : table + "Key"
    }

    /// A named type: a scalar per the table, an enum or input struct by its GraphQL name, or `AnyValue`.
    private func namedType(_ name: String) -> String {
        if let scalar = Self.scalarTypes[name] { return scalar }
        switch types.type(named: name) {
        case .scalar?, nil: return "AnyValue"
        default: return name
        }
    }

    // MARK: Inputs

    /// Input structs for the input objects reached from variables, transitively, sorted by name.
    private func translateInputs(_ roots: [String]) -> [SwiftInput] {
        var pending = roots
        var seen: Set<String> = []
        var result: [SwiftInput] = []
        while let name = pending.popLast() {
            guard seen.insert(name).inserted, case .inputObject? = types.type(named: name) else { continue }
            var nestedInputs: [String] = []
            let fields = types.inputFields(of: name).map { field in
                var isIndirect = false
                if case .named(let named) = field.type.nullable, keyStructName(named.value) == nil,
                    case .inputObject? = types.type(named: named.value)
                {
                    isIndirect = true
                }
                return SwiftVariable(
                    name: field.name.value, type: inputType(field.type.nullable, inputs: &nestedInputs),
                    isRequired: field.type.isNonNull, isIndirect: isIndirect)
            }
            pending += nestedInputs
            result.append(SwiftInput(name: name, fields: fields))
        }
        return result.sorted { $0.name < $1.name }
    }

    /// Enums of the generated API's prelude (such as `Timestamp_Interval`) that variables reach, by name.
    ///
    /// `OrderDirection` and `SearchQueryFormat` are left out: every package carries them as common enums.
    /// The enums custom resolver schemas declare (results and variables may use them).
    private func remoteEnums() -> [SwiftEnum] {
        api.remoteSchemas.flatMap(\.types).compactMap { type in
            guard case .enum(let definition) = type else { return nil }
            return SwiftEnum(name: definition.name.value, values: definition.values.map(\.name.value))
        }
    }

    private func preludeEnums(_ roots: [String]) -> [SwiftEnum] {
        let common = Set(OperationsRenderer.commonEnums.map(\.name))
        var pending = roots
        var seen: Set<String> = []
        var result: [SwiftEnum] = []
        while let name = pending.popLast() {
            guard seen.insert(name).inserted else { continue }
            switch types.type(named: name) {
            case .enum(let definition)?:
                let isRemote = api.remoteSchemas.contains { $0.types.contains { $0.name.value == name } }
                if model.enumType(name) == nil && !common.contains(name) && !isRemote {
                    result.append(SwiftEnum(name: name, values: definition.values.map(\.name.value)))
                }
            case .inputObject?:
                var nested: [String] = []
                for field in types.inputFields(of: name) { _ = inputType(field.type, inputs: &nested) }
                pending += nested
            default:
                break
            }
        }
        return result.sorted { $0.name < $1.name }
    }

    // MARK: Paths

    /// `path` relative to the backend folder when it lies inside it.
    private func relativePath(_ path: String) -> String {
        var base = service.project.directory
        while base.hasSuffix("/") && base.count > 1 { base.removeLast() }
        if base == "." || base.isEmpty {
            return path.hasPrefix("./") ? String(path.dropFirst(2)) : path
        }
        var relative = path.hasPrefix(base + "/") ? String(path.dropFirst(base.count + 1)) : path
        while relative.hasPrefix("./") { relative.removeFirst(2) }
        return relative
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs.
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
            let end = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })
        else { return "" }
        return String(scalars[start...end])
    }
}
