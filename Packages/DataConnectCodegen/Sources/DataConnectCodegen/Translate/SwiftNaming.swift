/// The naming rules of the generated Swift code (client-protocol.md §2.2).
enum SwiftNaming {
    /// `kitchen-app` → `KitchenApp`; `default` → `Default`.
    static func connectorName(_ connectorId: String) -> String {
        connectorId.split(whereSeparator: { $0 == "-" || $0 == "_" }).map { upperFirst(String($0)) }.joined()
    }

    /// `featured_recipes` → `FeaturedRecipes`, `featured` → `Featured`.
    static func pascalCase(_ name: String) -> String {
        name.split(separator: "_").map { upperFirst(String($0)) }.joined()
    }

    static func upperFirst(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }

    static func lowerFirst(_ text: String) -> String {
        text.prefix(1).lowercased() + text.dropFirst()
    }

    /// The class name: first letter uppercased, then the suffix, appended blindly.
    static func operationClass(_ name: String, kind: SwiftOperation.Kind) -> String {
        upperFirst(name) + suffix(kind)
    }

    /// The connector property: first letter lowercased, then the suffix.
    static func operationProperty(_ name: String, kind: SwiftOperation.Kind) -> String {
        lowerFirst(name) + suffix(kind)
    }

    private static func suffix(_ kind: SwiftOperation.Kind) -> String {
        kind == .query ? "Query" : "Mutation"
    }

    /// The identifier as written in Swift, with backticks around keywords.
    static func identifier(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    private static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "protocol", "public", "rethrows", "static", "struct",
        "subscript", "typealias", "var", "break", "case", "continue", "default", "defer", "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "switch", "where", "while", "as", "Any",
        "catch", "false", "is", "nil", "super", "self", "Self", "throw", "throws", "true", "try", "Type",
    ]
}
