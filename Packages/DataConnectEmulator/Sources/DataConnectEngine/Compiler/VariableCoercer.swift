import DataConnectSchema
import DataConnectWire
import GraphQLLanguage

/// A variable value that does not fit its declared type: a 400 INVALID_ARGUMENT naming the variable.
struct VariableError: Error, Sendable {
    let message: String
}

/// Coerces a request's variables to an operation's declared types (GraphQL §6.1.2, plus Data Connect's
/// scalar formats): defaults applied, required ones checked, UUIDs and timestamps canonicalized.
struct VariableCoercer: Sendable {
    let definitions: [VariableDefinition]
    /// The input types, looked up per value without copying their definitions.
    let kinds: InputTypeKinds

    init(system: TypeSystem, definitions: [VariableDefinition]) {
        self.init(kinds: InputTypeKinds(system), definitions: definitions)
    }

    /// A coercer reading the input types from `kinds`, built once per service.
    init(kinds: InputTypeKinds, definitions: [VariableDefinition]) {
        self.definitions = definitions
        self.kinds = kinds
    }

    /// The coerced variables; absent optional variables stay absent.
    func coerce(_ provided: JSONObject) throws(VariableError) -> JSONObject {
        var result = JSONObject()
        for definition in definitions {
            let name = definition.name.value
            if let value = provided[name] {
                result[name] = try coerce(value, to: definition.type, path: { "$\(name)" })
            } else if let defaultValue = definition.defaultValue {
                result[name] = try coerce(
                    ArgumentResolver.literal(defaultValue), to: definition.type, path: { "$\(name)" })
            } else if definition.type.isNonNull {
                throw VariableError(
                    message: "variable \"$\(name)\" of required type \"\(definition.type)\" was not provided")
            }
        }
        return result
    }

    /// Coerces one value.
    ///
    /// - Parameter path: The value's place in the variables (`$where.title`), written only for an error.
    func coerce(_ value: JSONValue, to type: TypeReference, path: () -> String) throws(VariableError) -> JSONValue {
        if case .null = value {
            if type.isNonNull {
                throw VariableError(message: "variable \"\(path())\" of non-null type \"\(type)\" must not be null")
            }
            return .null
        }
        if case .list(let element, _) = type.nullable {
            if case .array(let items) = value {
                var coerced: [JSONValue] = []
                coerced.reserveCapacity(items.count)
                for (index, item) in items.enumerated() {
                    coerced.append(try coerce(item, to: element, path: { "\(path())[\(index)]" }))
                }
                return .array(coerced)
            }
            return .array([try coerce(value, to: element, path: path)])
        }
        let typeName = type.namedType.value
        switch kinds[typeName] {
        case .enumeration(let values)?:
            do {
                return try ScalarCodec.coerce(value, to: typeName, enumValues: values)
            } catch {
                throw VariableError(message: "variable \"\(path())\": \(error.message)")
            }
        case .inputObject(let fields)?:
            guard case .object(let object) = value else {
                throw VariableError(
                    message:
                        "variable \"\(path())\": expected an object of type \"\(typeName)\", found \(value.jsonString())"
                )
            }
            var result = JSONObject()
            for (key, fieldValue) in object {
                guard let field = fields.first(where: { $0.name.value == key }) else {
                    throw VariableError(
                        message: "variable \"\(path())\": field \"\(key)\" is not defined by type \"\(typeName)\"")
                }
                if field.directives.first(named: "fdc_forbiddenInVariables") != nil {
                    throw VariableError(
                        message:
                            "variable \"\(path())\": field \"\(key)\" of \"\(typeName)\" may only be written in the operation, not in variables"
                    )
                }
                result[key] = try coerce(fieldValue, to: field.type, path: { "\(path()).\(key)" })
            }
            for field in fields where field.type.isNonNull && field.defaultValue == nil {
                if result[field.name.value] == nil {
                    throw VariableError(
                        message:
                            "variable \"\(path())\": field \"\(field.name.value)\" of required type \"\(field.type)\" was not provided"
                    )
                }
            }
            return .object(result)
        case .scalar?:
            do {
                return try ScalarCodec.coerce(value, to: typeName)
            } catch {
                throw VariableError(message: "variable \"\(path())\": \(error.message)")
            }
        case nil:
            throw VariableError(message: "variable \"\(path())\" has the non-input type \"\(typeName)\"")
        }
    }
}
