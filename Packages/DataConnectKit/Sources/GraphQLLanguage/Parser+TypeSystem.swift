// Type-system definitions and extensions (SDL).

extension Parser {
    // MARK: Schema

    /// SchemaDefinition : Description? schema Directives[Const]? { RootOperationTypeDefinition+ }
    mutating func parseSchemaDefinition(description: StringValue?, first: Token) throws(SyntaxError) -> SchemaDefinition
    {
        try expectKeyword("schema")
        let directives = try parseDirectives(isConst: true)
        try expect(.braceL)
        let operationTypes = try parseRootOperationTypes()
        return SchemaDefinition(
            description: description, directives: directives, operationTypes: operationTypes, location: location(first)
        )
    }

    /// RootOperationTypeDefinition+ `}`, after the opening brace.
    mutating func parseRootOperationTypes() throws(SyntaxError) -> [RootOperationTypeDefinition] {
        var operationTypes: [RootOperationTypeDefinition] = []
        repeat {
            operationTypes.append(try parseRootOperationTypeDefinition())
        } while try !skip(.braceR)
        return operationTypes
    }

    /// RootOperationTypeDefinition : OperationType : NamedType
    mutating func parseRootOperationTypeDefinition() throws(SyntaxError) -> RootOperationTypeDefinition {
        if token.kind != .name { throw expected("Name", found: token) }
        let operation = try parseOperationType()
        try expect(.colon)
        let type = try parseNamedType()
        return RootOperationTypeDefinition(operation: operation, type: type)
    }

    // MARK: Types

    /// TypeDefinition :
    ///   - ScalarTypeDefinition
    ///   - ObjectTypeDefinition
    ///   - InterfaceTypeDefinition
    ///   - UnionTypeDefinition
    ///   - EnumTypeDefinition
    ///   - InputObjectTypeDefinition
    ///
    /// Returns `nil`, consuming nothing, when the current token starts none of them.
    mutating func parseTypeDefinition(description: StringValue?, first: Token) throws(SyntaxError) -> TypeDefinition? {
        if at("type") {
            return .object(try parseObjectTypeDefinition(description: description, first: first))
        }
        if at("interface") {
            return .interface(try parseObjectTypeDefinition(description: description, first: first))
        }
        if at("scalar") {
            return .scalar(try parseScalarTypeDefinition(description: description, first: first))
        }
        if at("enum") {
            return .enum(try parseEnumTypeDefinition(description: description, first: first))
        }
        if at("input") {
            return .inputObject(try parseInputObjectTypeDefinition(description: description, first: first))
        }
        if at("union") {
            return .union(try parseUnionTypeDefinition(description: description, first: first))
        }
        return nil
    }

    /// ScalarTypeDefinition : Description? scalar Name Directives[Const]?
    mutating func parseScalarTypeDefinition(
        description: StringValue?, first: Token
    ) throws(SyntaxError) -> ScalarTypeDefinition {
        try expectKeyword("scalar")
        let name = try parseName()
        let directives = try parseDirectives(isConst: true)
        return ScalarTypeDefinition(
            description: description, name: name, directives: directives, location: location(first))
    }

    /// ObjectTypeDefinition : Description? type Name ImplementsInterfaces? Directives[Const]? FieldsDefinition?
    ///
    /// InterfaceTypeDefinition : Description? interface Name ImplementsInterfaces? Directives[Const]? FieldsDefinition?
    ///
    /// The current token is `type` or `interface`.
    mutating func parseObjectTypeDefinition(
        description: StringValue?, first: Token
    ) throws(SyntaxError) -> ObjectTypeDefinition {
        let comments = lexer.leadingComments(of: first)
        try advance()
        let name = try parseName()
        let interfaces = try parseImplementsInterfaces()
        let directives = try parseDirectives(isConst: true)
        let fields = try parseFieldsDefinition()
        return ObjectTypeDefinition(
            description: description, name: name, interfaces: interfaces, directives: directives, fields: fields,
            leadingComments: comments, location: location(first)
        )
    }

    /// ImplementsInterfaces :
    ///   - ImplementsInterfaces & NamedType
    ///   - implements &? NamedType
    mutating func parseImplementsInterfaces() throws(SyntaxError) -> [Name] {
        guard at("implements") else { return [] }
        try advance()
        _ = try skip(.ampersand)
        var interfaces: [Name] = []
        repeat {
            interfaces.append(try parseNamedType())
        } while try skip(.ampersand)
        return interfaces
    }

    /// FieldsDefinition : { FieldDefinition+ }
    mutating func parseFieldsDefinition() throws(SyntaxError) -> [FieldDefinition] {
        guard try skip(.braceL) else { return [] }
        var fields: [FieldDefinition] = []
        repeat {
            fields.append(try parseFieldDefinition())
        } while try !skip(.braceR)
        return fields
    }

    /// FieldDefinition : Description? Name ArgumentsDefinition? : Type Directives[Const]?
    mutating func parseFieldDefinition() throws(SyntaxError) -> FieldDefinition {
        let first = token
        let comments = lexer.leadingComments(of: first)
        let description = try parseDescription()
        let name = try parseName()
        let arguments = try parseArgumentsDefinition()
        try expect(.colon)
        let type = try parseTypeReference()
        let directives = try parseDirectives(isConst: true)
        return FieldDefinition(
            description: description, name: name, arguments: arguments, type: type, directives: directives,
            leadingComments: comments, location: location(first)
        )
    }

    /// ArgumentsDefinition : ( InputValueDefinition+ )
    mutating func parseArgumentsDefinition() throws(SyntaxError) -> [InputValueDefinition] {
        guard try skip(.parenL) else { return [] }
        var arguments: [InputValueDefinition] = []
        repeat {
            arguments.append(try parseInputValueDefinition())
        } while try !skip(.parenR)
        return arguments
    }

    /// InputValueDefinition : Description? Name : Type DefaultValue? Directives[Const]?
    mutating func parseInputValueDefinition() throws(SyntaxError) -> InputValueDefinition {
        let first = token
        let description = try parseDescription()
        let name = try parseName()
        try expect(.colon)
        let type = try parseTypeReference()
        let defaultValue = try skip(.equals) ? try parseValue(isConst: true) : nil
        let directives = try parseDirectives(isConst: true)
        return InputValueDefinition(
            description: description, name: name, type: type, defaultValue: defaultValue, directives: directives,
            location: location(first)
        )
    }

    /// UnionTypeDefinition : Description? union Name Directives[Const]? UnionMemberTypes?
    mutating func parseUnionTypeDefinition(
        description: StringValue?, first: Token
    ) throws(SyntaxError) -> UnionTypeDefinition {
        try expectKeyword("union")
        let name = try parseName()
        let directives = try parseDirectives(isConst: true)
        let types = try parseUnionMemberTypes()
        return UnionTypeDefinition(
            description: description, name: name, directives: directives, types: types, location: location(first)
        )
    }

    /// UnionMemberTypes :
    ///   - UnionMemberTypes | NamedType
    ///   - = |? NamedType
    mutating func parseUnionMemberTypes() throws(SyntaxError) -> [Name] {
        guard try skip(.equals) else { return [] }
        _ = try skip(.pipe)
        var types: [Name] = []
        repeat {
            types.append(try parseNamedType())
        } while try skip(.pipe)
        return types
    }

    /// EnumTypeDefinition : Description? enum Name Directives[Const]? EnumValuesDefinition?
    mutating func parseEnumTypeDefinition(
        description: StringValue?, first: Token
    ) throws(SyntaxError) -> EnumTypeDefinition {
        let comments = lexer.leadingComments(of: first)
        try expectKeyword("enum")
        let name = try parseName()
        let directives = try parseDirectives(isConst: true)
        let values = try parseEnumValuesDefinition()
        return EnumTypeDefinition(
            description: description, name: name, directives: directives, values: values, leadingComments: comments,
            location: location(first)
        )
    }

    /// EnumValuesDefinition : { EnumValueDefinition+ }
    mutating func parseEnumValuesDefinition() throws(SyntaxError) -> [EnumValueDefinition] {
        guard try skip(.braceL) else { return [] }
        var values: [EnumValueDefinition] = []
        repeat {
            values.append(try parseEnumValueDefinition())
        } while try !skip(.braceR)
        return values
    }

    /// EnumValueDefinition : Description? EnumValue Directives[Const]?
    ///
    /// EnumValue : Name but not `true`, `false` or `null`
    mutating func parseEnumValueDefinition() throws(SyntaxError) -> EnumValueDefinition {
        let first = token
        let description = try parseDescription()
        if at("true") || at("false") || at("null") {
            throw error(
                "syntax error: name \"\(lexer.text(of: token))\" is reserved and cannot be used for an enum value",
                at: token
            )
        }
        let name = try parseName()
        let directives = try parseDirectives(isConst: true)
        return EnumValueDefinition(
            description: description, name: name, directives: directives, location: location(first))
    }

    /// InputObjectTypeDefinition : Description? input Name Directives[Const]? InputFieldsDefinition?
    mutating func parseInputObjectTypeDefinition(
        description: StringValue?, first: Token
    ) throws(SyntaxError) -> InputObjectTypeDefinition {
        try expectKeyword("input")
        let name = try parseName()
        let directives = try parseDirectives(isConst: true)
        let fields = try parseInputFieldsDefinition()
        return InputObjectTypeDefinition(
            description: description, name: name, directives: directives, fields: fields, location: location(first)
        )
    }

    /// InputFieldsDefinition : { InputValueDefinition+ }
    mutating func parseInputFieldsDefinition() throws(SyntaxError) -> [InputValueDefinition] {
        guard try skip(.braceL) else { return [] }
        var fields: [InputValueDefinition] = []
        repeat {
            fields.append(try parseInputValueDefinition())
        } while try !skip(.braceR)
        return fields
    }

    // MARK: Directives

    /// DirectiveDefinition : Description? directive @ Name ArgumentsDefinition? `repeatable`? on DirectiveLocations
    mutating func parseDirectiveDefinition(
        description: StringValue?, first: Token
    ) throws(SyntaxError) -> DirectiveDefinition {
        try expectKeyword("directive")
        try expect(.at)
        let name = try parseName()
        let arguments = try parseArgumentsDefinition()
        let isRepeatable = at("repeatable")
        if isRepeatable { try advance() }
        try expectKeyword("on")
        let locations = try parseDirectiveLocations()
        return DirectiveDefinition(
            description: description, name: name, arguments: arguments, isRepeatable: isRepeatable,
            locations: locations, location: location(first)
        )
    }

    /// DirectiveLocations :
    ///   - DirectiveLocations | DirectiveLocation
    ///   - |? DirectiveLocation
    mutating func parseDirectiveLocations() throws(SyntaxError) -> [DirectiveLocation] {
        _ = try skip(.pipe)
        var locations: [DirectiveLocation] = []
        repeat {
            locations.append(try parseDirectiveLocation())
        } while try skip(.pipe)
        return locations
    }

    /// DirectiveLocation : ExecutableDirectiveLocation | TypeSystemDirectiveLocation
    mutating func parseDirectiveLocation() throws(SyntaxError) -> DirectiveLocation {
        let current = token
        let name = try parseName()
        guard let directiveLocation = DirectiveLocation(rawValue: name.value) else {
            throw error("syntax error: unknown directive location \"\(name.value)\"", at: current)
        }
        return directiveLocation
    }

    // MARK: Extensions

    /// TypeSystemExtension : SchemaExtension | TypeExtension
    ///
    /// TypeExtension :
    ///   - ScalarTypeExtension
    ///   - ObjectTypeExtension
    ///   - InterfaceTypeExtension
    ///   - UnionTypeExtension
    ///   - EnumTypeExtension
    ///   - InputObjectTypeExtension
    mutating func parseTypeSystemExtension() throws(SyntaxError) -> Definition {
        let first = token
        try expectKeyword("extend")
        if at("schema") {
            return .schemaExtension(try parseSchemaExtension(first: first))
        }
        guard let type = try parseTypeDefinition(description: nil, first: first) else {
            throw unexpected(token)
        }
        if !type.hasExtensionContent {
            throw unexpected(token)
        }
        return .typeExtension(type)
    }

    /// SchemaExtension :
    ///   - extend schema Directives[Const]? { RootOperationTypeDefinition+ }
    ///   - extend schema Directives[Const] [lookahead != {]
    mutating func parseSchemaExtension(first: Token) throws(SyntaxError) -> SchemaDefinition {
        try expectKeyword("schema")
        let directives = try parseDirectives(isConst: true)
        var operationTypes: [RootOperationTypeDefinition] = []
        if try skip(.braceL) {
            operationTypes = try parseRootOperationTypes()
        } else if directives.isEmpty {
            throw unexpected(token)
        }
        return SchemaDefinition(directives: directives, operationTypes: operationTypes, location: location(first))
    }
}

extension TypeDefinition {
    /// Whether the definition adds anything, as an extension must.
    ///
    /// ScalarTypeExtension : extend scalar Name Directives[Const]
    ///
    /// ObjectTypeExtension, InterfaceTypeExtension :
    /// extend type|interface Name ImplementsInterfaces? Directives[Const]?
    /// FieldsDefinition, with at least one of the three
    ///
    /// UnionTypeExtension : extend union Name Directives[Const]? UnionMemberTypes, or Directives[Const] alone
    ///
    /// EnumTypeExtension, InputObjectTypeExtension : extend enum|input Name Directives[Const]? values or fields,
    /// or Directives[Const] alone
    var hasExtensionContent: Bool {
        switch self {
        case .scalar(let d): !d.directives.isEmpty
        case .object(let d), .interface(let d): !d.interfaces.isEmpty || !d.directives.isEmpty || !d.fields.isEmpty
        case .union(let d): !d.directives.isEmpty || !d.types.isEmpty
        case .enum(let d): !d.directives.isEmpty || !d.values.isEmpty
        case .inputObject(let d): !d.directives.isEmpty || !d.fields.isEmpty
        }
    }
}
