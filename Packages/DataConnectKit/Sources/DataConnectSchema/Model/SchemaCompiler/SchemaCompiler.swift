import GraphQLLanguage

/// Compiles `schema/*.gql` into a ``SchemaModel``: tables, columns, keys, references, constraints,
/// indexes, enums and the generated relation fields.
///
/// The stages:
/// 1. **Parse** every file (syntax errors stop here).
/// 2. **Classify** definitions: `@table` types and enums; anything else is an error.
/// 3. **Check directives** against the prelude's definitions (known, allowed here, arguments typed).
/// 4. **Resolve** fields into columns and references, keys (explicit, `id`, or the implicit `id`),
///    and the implicit foreign-key fields, following references through composite keys.
/// 5. **Constraints**: `@col`, `@default`, `@unique`, `@index`.
/// 6. **Relations**: reverse one-to-many, one-to-one and many-to-many fields, checked for collisions.
///
/// Every problem is a ``Diagnostic`` with the file, line and column of the offending definition.
public enum SchemaCompiler {
    /// Parses and compiles schema sources.
    ///
    /// - Parameter sources: the `.gql` files of `schema.source`.
    /// - Returns: the model (nil when there are errors) and every diagnostic, warnings included.
    public static func compile(_ sources: [Source]) -> (model: SchemaModel?, diagnostics: [Diagnostic]) {
        let (definitions, diagnostics) = GraphQLParser.parseDocuments(sources)
        if diagnostics.containsErrors { return (nil, diagnostics) }
        return compile(definitions: definitions, previous: diagnostics)
    }

    /// Compiles already-parsed schema definitions.
    public static func compile(
        definitions: [Definition], previous: [Diagnostic] = []
    ) -> (model: SchemaModel?, diagnostics: [Diagnostic]) {
        var compilation = SchemaCompilation(prelude: PreludeTypeSystem.shared)
        compilation.diagnostics = previous
        compilation.run(definitions)
        let model = compilation.diagnostics.containsErrors ? nil : compilation.model
        return (model, compilation.diagnostics.uniqued())
    }
}

/// The prelude parsed once.
enum PreludeTypeSystem {
    static let definitions: [Definition] = {
        do {
            return try GraphQLParser.parseDocument(Source(name: Prelude.fileName, text: Prelude.sdl)).definitions
        } catch {
            preconditionFailure("the built-in prelude does not parse: \(error)")
        }
    }()

    static let shared: TypeSystem = TypeSystem.build(from: definitions).0
}

extension Array where Element == Diagnostic {
    /// The diagnostics without repeats, in their first order.
    func uniqued() -> [Diagnostic] {
        var seen: Set<Diagnostic> = []
        return filter { seen.insert($0).inserted }
    }
}
