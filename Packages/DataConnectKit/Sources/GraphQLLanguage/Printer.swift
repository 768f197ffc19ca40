// Prints syntax trees back to GraphQL text.

/// Prints syntax trees as GraphQL text in the layout of graphql-js `print`.
///
/// Two spaces indent each nesting level, definitions are separated by a blank line, arguments and
/// variable definitions stay on one line (except argument definitions with descriptions, one per
/// line), and the output has no trailing newline. Descriptions print as block strings when they
/// were written as block strings or span several lines; other strings print quoted, with `"`, `\`
/// and control characters escaped. A block string that could not reproduce its value exactly
/// (leading or trailing blank lines, a common indentation, `\r`, control characters) prints as a
/// quoted string instead. The `#` comment lines kept in `leadingComments` print above their nodes,
/// except on variable definitions, which share a line.
///
/// Parsing the printed text gives back an equal tree: `parseDocument(print(document)) == document`.
public enum GraphQLPrinter {
    /// Prints a whole document, definitions separated by blank lines.
    ///
    /// The text ends without a newline.
    public static func print(_ document: Document) -> String {
        var printer = TreePrinter(level: 0)
        printer.document(document)
        return printer.output
    }

    /// Prints one definition.
    ///
    /// The text starts at column 1 and ends without a newline.
    public static func print(_ definition: Definition) -> String {
        var printer = TreePrinter(level: 0)
        printer.definition(definition)
        return printer.output
    }

    /// Prints a value, such as `{a: [1, 2], b: $var}`.
    ///
    /// Lists and objects stay on one line.
    public static func print(_ value: Value) -> String {
        var printer = TreePrinter(level: 0)
        printer.value(value)
        return printer.output
    }

    /// Prints a type reference, such as `[String!]!`.
    ///
    /// Equivalent to the type's `description`.
    public static func print(_ type: TypeReference) -> String {
        var printer = TreePrinter(level: 0)
        printer.type(type)
        return printer.output
    }

    /// Prints a selection set from its `{` to its `}`.
    ///
    /// `indent` is the nesting level of the line the selection set opens on: its selections are
    /// indented by `2 * (indent + 1)` spaces and its closing brace by `2 * indent` spaces. The
    /// opening brace itself is not indented.
    public static func print(_ selectionSet: SelectionSet, indent: Int) -> String {
        var printer = TreePrinter(level: max(0, indent))
        printer.selectionSet(selectionSet)
        return printer.output
    }
}

/// Writes nodes into a growing string, tracking the indentation level.
struct TreePrinter {
    var output = ""
    var level: Int

    init(level: Int) {
        self.level = level
        output.reserveCapacity(256)
    }

    // MARK: Layout

    @inline(__always)
    mutating func write(_ text: String) {
        output += text
    }

    /// Starts a new line at the current indentation.
    mutating func newline() {
        output += "\n"
        for _ in 0..<level { output += "  " }
    }

    /// `#` lines, each followed by a new line.
    mutating func comments(_ lines: [String]) {
        for comment in lines {
            for line in comment.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" }) {
                write(line.isEmpty ? "#" : "# " + line)
                newline()
            }
        }
    }

    /// A description followed by a new line; multi-line descriptions print as block strings.
    mutating func description(_ description: StringValue?) {
        guard let description else { return }
        stringLiteral(description.value, block: description.isBlock || description.value.utf8.contains(Byte.lineFeed))
        newline()
    }

    mutating func directives(_ directives: [Directive]) {
        for directive in directives {
            write(" @")
            write(directive.name.value)
            arguments(directive.arguments)
        }
    }

    mutating func arguments(_ arguments: [Argument]) {
        guard !arguments.isEmpty else { return }
        write("(")
        for (index, argument) in arguments.enumerated() {
            if index > 0 { write(", ") }
            write(argument.name.value)
            write(": ")
            value(argument.value)
        }
        write(")")
    }

    // MARK: Definitions

    mutating func document(_ document: Document) {
        for (index, definition) in document.definitions.enumerated() {
            if index > 0 { write("\n\n") }
            self.definition(definition)
        }
    }

    mutating func definition(_ definition: Definition) {
        switch definition {
        case .operation(let operation): self.operation(operation)
        case .fragment(let fragment): self.fragment(fragment)
        case .schema(let schema): self.schema(schema, isExtension: false)
        case .schemaExtension(let schema): self.schema(schema, isExtension: true)
        case .type(let type): self.typeDefinition(type, isExtension: false)
        case .typeExtension(let type): self.typeDefinition(type, isExtension: true)
        case .directive(let directive): self.directiveDefinition(directive)
        }
    }

    mutating func operation(_ operation: OperationDefinition) {
        comments(operation.leadingComments)
        description(operation.description)
        let isShorthand =
            operation.operation == .query && operation.name == nil && operation.variables.isEmpty
            && operation.directives.isEmpty && operation.description == nil
        if !isShorthand {
            write(operation.operation.rawValue)
            if operation.name != nil || !operation.variables.isEmpty { write(" ") }
            if let name = operation.name { write(name.value) }
            variableDefinitions(operation.variables)
            directives(operation.directives)
            write(" ")
        }
        selectionSet(operation.selectionSet)
    }

    mutating func variableDefinitions(_ variables: [VariableDefinition]) {
        guard !variables.isEmpty else { return }
        write("(")
        for (index, variable) in variables.enumerated() {
            if index > 0 { write(", ") }
            write("$")
            write(variable.name.value)
            write(": ")
            type(variable.type)
            if let defaultValue = variable.defaultValue {
                write(" = ")
                value(defaultValue)
            }
            directives(variable.directives)
        }
        write(")")
    }

    mutating func fragment(_ fragment: FragmentDefinition) {
        write("fragment ")
        write(fragment.name.value)
        write(" on ")
        write(fragment.typeCondition.value)
        directives(fragment.directives)
        write(" ")
        selectionSet(fragment.selectionSet)
    }

    mutating func selectionSet(_ selectionSet: SelectionSet) {
        write("{")
        level += 1
        for selection in selectionSet.selections {
            newline()
            switch selection {
            case .field(let field): self.field(field)
            case .fragmentSpread(let spread):
                write("...")
                write(spread.name.value)
                directives(spread.directives)
            case .inlineFragment(let fragment):
                write("...")
                if let typeCondition = fragment.typeCondition {
                    write(" on ")
                    write(typeCondition.value)
                }
                directives(fragment.directives)
                write(" ")
                self.selectionSet(fragment.selectionSet)
            }
        }
        level -= 1
        newline()
        write("}")
    }

    mutating func field(_ field: Field) {
        comments(field.leadingComments)
        if let alias = field.alias {
            write(alias.value)
            write(": ")
        }
        write(field.name.value)
        arguments(field.arguments)
        directives(field.directives)
        if let selectionSet = field.selectionSet {
            write(" ")
            self.selectionSet(selectionSet)
        }
    }

    // MARK: Type system

    mutating func schema(_ schema: SchemaDefinition, isExtension: Bool) {
        if isExtension {
            write("extend schema")
        } else {
            description(schema.description)
            write("schema")
        }
        directives(schema.directives)
        guard !schema.operationTypes.isEmpty || !isExtension else { return }
        write(" {")
        level += 1
        for operationType in schema.operationTypes {
            newline()
            write(operationType.operation.rawValue)
            write(": ")
            write(operationType.type.value)
        }
        level -= 1
        newline()
        write("}")
    }

    mutating func typeDefinition(_ definition: TypeDefinition, isExtension: Bool) {
        switch definition {
        case .scalar(let scalar):
            header(keyword: "scalar", scalar.description, scalar.name, isExtension: isExtension)
            directives(scalar.directives)
        case .object(let object):
            objectType(object, keyword: "type", isExtension: isExtension)
        case .interface(let interface):
            objectType(interface, keyword: "interface", isExtension: isExtension)
        case .union(let union):
            header(keyword: "union", union.description, union.name, isExtension: isExtension)
            directives(union.directives)
            for (index, member) in union.types.enumerated() {
                write(index == 0 ? " = " : " | ")
                write(member.value)
            }
        case .enum(let definition):
            comments(definition.leadingComments)
            header(keyword: "enum", definition.description, definition.name, isExtension: isExtension)
            directives(definition.directives)
            block(definition.values) { printer, value in
                printer.description(value.description)
                printer.write(value.name.value)
                printer.directives(value.directives)
            }
        case .inputObject(let input):
            header(keyword: "input", input.description, input.name, isExtension: isExtension)
            directives(input.directives)
            block(input.fields) { printer, field in printer.inputValueDefinition(field) }
        }
    }

    /// `Description? keyword Name`, or `extend keyword Name`.
    private mutating func header(keyword: String, _ description: StringValue?, _ name: Name, isExtension: Bool) {
        if isExtension {
            write("extend ")
        } else {
            self.description(description)
        }
        write(keyword)
        write(" ")
        write(name.value)
    }

    /// ` {`, one line per element, `}`; nothing for no elements.
    private mutating func block<Element>(_ elements: [Element], _ body: (inout TreePrinter, Element) -> Void) {
        guard !elements.isEmpty else { return }
        write(" {")
        level += 1
        for element in elements {
            newline()
            body(&self, element)
        }
        level -= 1
        newline()
        write("}")
    }

    mutating func objectType(_ object: ObjectTypeDefinition, keyword: String, isExtension: Bool) {
        comments(object.leadingComments)
        header(keyword: keyword, object.description, object.name, isExtension: isExtension)
        for (index, interface) in object.interfaces.enumerated() {
            write(index == 0 ? " implements " : " & ")
            write(interface.value)
        }
        directives(object.directives)
        block(object.fields) { printer, field in
            printer.comments(field.leadingComments)
            printer.description(field.description)
            printer.write(field.name.value)
            printer.argumentDefinitions(field.arguments)
            printer.write(": ")
            printer.type(field.type)
            printer.directives(field.directives)
        }
    }

    /// `(a: Int, b: String)`, or one argument per line when any has a description.
    mutating func argumentDefinitions(_ arguments: [InputValueDefinition]) {
        guard !arguments.isEmpty else { return }
        if arguments.contains(where: { $0.description != nil }) {
            write("(")
            level += 1
            for argument in arguments {
                newline()
                inputValueDefinition(argument)
            }
            level -= 1
            newline()
            write(")")
        } else {
            write("(")
            for (index, argument) in arguments.enumerated() {
                if index > 0 { write(", ") }
                inputValueDefinition(argument)
            }
            write(")")
        }
    }

    mutating func inputValueDefinition(_ definition: InputValueDefinition) {
        description(definition.description)
        write(definition.name.value)
        write(": ")
        type(definition.type)
        if let defaultValue = definition.defaultValue {
            write(" = ")
            value(defaultValue)
        }
        directives(definition.directives)
    }

    mutating func directiveDefinition(_ definition: DirectiveDefinition) {
        description(definition.description)
        write("directive @")
        write(definition.name.value)
        argumentDefinitions(definition.arguments)
        if definition.isRepeatable { write(" repeatable") }
        write(" on ")
        for (index, location) in definition.locations.enumerated() {
            if index > 0 { write(" | ") }
            write(location.rawValue)
        }
    }

    // MARK: Values and types

    mutating func value(_ value: Value) {
        switch value {
        case .variable(let name):
            write("$")
            write(name.value)
        case .int(let text, _), .float(let text, _):
            write(text)
        case .string(let string):
            stringLiteral(string.value, block: string.isBlock)
        case .boolean(let flag, _):
            write(flag ? "true" : "false")
        case .null:
            write("null")
        case .enum(let name):
            write(name.value)
        case .list(let values, _):
            write("[")
            for (index, element) in values.enumerated() {
                if index > 0 { write(", ") }
                self.value(element)
            }
            write("]")
        case .object(let fields, _):
            write("{")
            for (index, field) in fields.enumerated() {
                if index > 0 { write(", ") }
                write(field.name.value)
                write(": ")
                self.value(field.value)
            }
            write("}")
        }
    }

    mutating func type(_ type: TypeReference) {
        switch type {
        case .named(let name):
            write(name.value)
        case .list(let element, _):
            write("[")
            self.type(element)
            write("]")
        case .nonNull(let inner, _):
            self.type(inner)
            write("!")
        }
    }

    // MARK: Strings

    /// A string as a block string when asked and possible, else as a quoted string.
    mutating func stringLiteral(_ value: String, block: Bool) {
        if block, let text = StringPrinting.blockString(value) {
            // Lines inside the block string follow the indentation; the dedent on parsing removes it again.
            var isFirst = true
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if !isFirst {
                    if line.isEmpty { write("\n") } else { newline() }
                }
                isFirst = false
                output += line
            }
        } else {
            write(StringPrinting.quoted(value))
        }
    }
}

/// Quoting of string values.
enum StringPrinting {
    /// `"..."` with `"`, `\` and control characters escaped.
    static func quoted(_ value: String) -> String {
        let needsEscaping = value.utf8.contains { byte in
            byte < 0x20 || byte == Byte.quote || byte == Byte.backslash || byte == 0x7F || byte == 0xC2
        }
        guard needsEscaping else { return "\"" + value + "\"" }
        var result = "\""
        result.reserveCapacity(value.utf8.count + 8)
        for scalar in value.unicodeScalars {
            switch scalar.value {
            case 0x22: result += "\\\""
            case 0x5C: result += "\\\\"
            case 0x08: result += "\\b"
            case 0x0C: result += "\\f"
            case 0x0A: result += "\\n"
            case 0x0D: result += "\\r"
            case 0x09: result += "\\t"
            case 0..<0x20, 0x7F...0x9F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += hex.utf8.count == 1 ? "\\u000" + hex : "\\u00" + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        result += "\""
        return result
    }

    /// `"""..."""` text that parses back to exactly `value`, or `nil` when no block string can
    /// (or when the value holds control characters other than tab and line feed, which would be invisible).
    static func blockString(_ value: String) -> String? {
        let hasControlCharacters = value.unicodeScalars.contains { scalar in
            (scalar.value < 0x20 && scalar != "\n" && scalar != "\t") || (scalar.value >= 0x7F && scalar.value <= 0x9F)
        }
        guard !hasControlCharacters else { return nil }
        let escaped = value.replacing("\"\"\"", with: "\\\"\"\"")
        let lines = escaped.split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        let isSingleLine = lines.count == 1
        let forceLeadingNewLine =
            lines.count > 1
            && lines.dropFirst().allSatisfy { line in line.isEmpty || line.first == " " || line.first == "\t" }
        let hasTrailingTripleQuotes = escaped.hasSuffix("\\\"\"\"")
        let hasTrailingQuote = value.hasSuffix("\"") && !hasTrailingTripleQuotes
        let hasTrailingSlash = value.hasSuffix("\\")
        let forceTrailingNewLine = hasTrailingQuote || hasTrailingSlash
        let printAsMultipleLines =
            !isSingleLine || value.unicodeScalars.count > 70 || forceTrailingNewLine || forceLeadingNewLine
            || hasTrailingTripleQuotes
        let startsWithWhiteSpace = value.first == " " || value.first == "\t"
        var text = "\"\"\""
        if (printAsMultipleLines && !(isSingleLine && startsWithWhiteSpace)) || forceLeadingNewLine { text += "\n" }
        text += escaped
        if printAsMultipleLines || forceTrailingNewLine { text += "\n" }
        text += "\"\"\""
        return Lexer.blockStringRoundTrips(text, value: value) ? text : nil
    }
}
