// Values, arguments, directives and type references.

extension Parser {
    // MARK: Values

    /// Value[Const] :
    ///   - [~Const] Variable
    ///   - IntValue
    ///   - FloatValue
    ///   - StringValue
    ///   - BooleanValue
    ///   - NullValue
    ///   - EnumValue
    ///   - ListValue[?Const]
    ///   - ObjectValue[?Const]
    ///
    /// BooleanValue : one of `true` `false`
    ///
    /// NullValue : `null`
    ///
    /// EnumValue : Name but not `true`, `false` or `null`
    mutating func parseValue(isConst: Bool) throws(SyntaxError) -> Value {
        switch token.kind {
        case .bracketL: try parseList(isConst: isConst)
        case .braceL: try parseObject(isConst: isConst)
        default: try parseScalarValue(isConst: isConst)
        }
    }

    /// The values that do not nest: variables, numbers, strings, booleans, null and enum values.
    @inline(never)
    mutating func parseScalarValue(isConst: Bool) throws(SyntaxError) -> Value {
        let first = token
        switch first.kind {
        case .int:
            try advance()
            return .int(lexer.text(of: first), location(first))
        case .float:
            try advance()
            return .float(lexer.text(of: first), location(first))
        case .string, .blockString:
            return .string(try parseStringLiteral())
        case .name:
            try advance()
            if lexer.isName(first, "true") { return .boolean(true, location(first)) }
            if lexer.isName(first, "false") { return .boolean(false, location(first)) }
            if lexer.isName(first, "null") { return .null(location(first)) }
            return .enum(Name(lexer.text(of: first), location: location(first)))
        case .dollar:
            if isConst {
                try advance()
                throw variableInConstant(at: first)
            }
            return .variable(try parseVariable())
        default:
            throw unexpected(first)
        }
    }

    /// `unexpected variable "$name" in constant value`, with the current token after the `$` at `dollar`.
    @inline(never)
    func variableInConstant(at dollar: Token) -> SyntaxError {
        let name = token.kind == .name ? lexer.text(of: token) : ""
        return error("syntax error: unexpected variable \"$\(name)\" in constant value", at: dollar)
    }

    /// ListValue[Const] : [ ] | [ Value[?Const]+ ]
    mutating func parseList(isConst: Bool) throws(SyntaxError) -> Value {
        let first = token
        try expect(.bracketL)
        try enterNesting(at: first)
        var values: [Value] = []
        while try !skip(.bracketR) {
            values.append(try parseValue(isConst: isConst))
        }
        depth -= 1
        return .list(values, location(first))
    }

    /// ObjectValue[Const] : { } | { ObjectField[?Const]+ }
    mutating func parseObject(isConst: Bool) throws(SyntaxError) -> Value {
        let first = token
        try expect(.braceL)
        try enterNesting(at: first)
        var fields: [ObjectField] = []
        while try !skip(.braceR) {
            fields.append(try parseObjectField(isConst: isConst))
        }
        depth -= 1
        return .object(fields, location(first))
    }

    /// ObjectField[Const] : Name : Value[?Const]
    @inline(never)
    mutating func parseObjectField(isConst: Bool) throws(SyntaxError) -> ObjectField {
        let first = token
        let name = try parseName()
        try expect(.colon)
        let value = try parseValue(isConst: isConst)
        return ObjectField(name: name, value: value, location: location(first))
    }

    /// StringValue : `"` StringCharacter* `"` | `"""` BlockStringCharacter* `"""`
    mutating func parseStringLiteral() throws(SyntaxError) -> StringValue {
        let first = token
        guard first.kind == .string || first.kind == .blockString else {
            throw expected("String", found: first)
        }
        try advance()
        return StringValue(lexer.value(of: first), isBlock: first.kind == .blockString, location: location(first))
    }

    // MARK: Arguments and directives

    /// Arguments[Const] : ( Argument[?Const]+ )
    mutating func parseArguments(isConst: Bool) throws(SyntaxError) -> [Argument] {
        guard try skip(.parenL) else { return [] }
        var arguments: [Argument] = []
        repeat {
            arguments.append(try parseArgument(isConst: isConst))
        } while try !skip(.parenR)
        return arguments
    }

    /// Argument[Const] : Name : Value[?Const]
    mutating func parseArgument(isConst: Bool) throws(SyntaxError) -> Argument {
        let first = token
        let name = try parseName()
        try expect(.colon)
        let value = try parseValue(isConst: isConst)
        return Argument(name: name, value: value, location: location(first))
    }

    /// Directives[Const] : Directive[?Const]+
    mutating func parseDirectives(isConst: Bool) throws(SyntaxError) -> [Directive] {
        guard token.kind == .at else { return [] }
        var directives: [Directive] = []
        repeat {
            directives.append(try parseDirective(isConst: isConst))
        } while token.kind == .at
        return directives
    }

    /// Directive[Const] : @ Name Arguments[?Const]?
    mutating func parseDirective(isConst: Bool) throws(SyntaxError) -> Directive {
        let first = try expect(.at)
        let name = try parseName()
        let arguments = try parseArguments(isConst: isConst)
        return Directive(name: name, arguments: arguments, location: location(first))
    }

    // MARK: Types

    /// Type : NamedType | ListType | NonNullType
    ///
    /// ListType : [ Type ]
    ///
    /// NonNullType : NamedType ! | ListType !
    mutating func parseTypeReference() throws(SyntaxError) -> TypeReference {
        let first = token
        var type: TypeReference
        if try skip(.bracketL) {
            try enterNesting(at: first)
            let element = try parseTypeReference()
            try expect(.bracketR)
            depth -= 1
            type = .list(element, location(first))
        } else {
            type = .named(try parseName())
        }
        if try skip(.bang) {
            type = .nonNull(type, location(first))
        }
        return type
    }

    /// NamedType : Name
    mutating func parseNamedType() throws(SyntaxError) -> Name {
        try parseName()
    }
}
