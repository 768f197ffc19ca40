/// The full-text search of a table: its `@searchable` fields and their one language.
///
/// All searchable fields of a table share one language (the text-search configuration PostgreSQL stems
/// with); the schema compiler refuses a table whose fields name two.
public struct TableSearch: Sendable, Hashable {
    /// The searchable fields' names, in declaration order.
    public var fields: [String]
    /// The language, a PostgreSQL text-search configuration name (`english`, `french`, `simple`, ...).
    public var language: String

    /// Creates a table's search description.
    public init(fields: [String], language: String) {
        self.fields = fields
        self.language = language
    }

    /// The languages `@searchable(language:)` accepts: PostgreSQL's built-in text-search configurations.
    public static let languages: Set<String> = [
        "simple", "arabic", "armenian", "basque", "catalan", "danish", "dutch", "english", "finnish", "french",
        "german", "greek", "hindi", "hungarian", "indonesian", "irish", "italian", "lithuanian", "nepali",
        "norwegian", "portuguese", "romanian", "russian", "serbian", "spanish", "swedish", "tamil", "turkish",
        "yiddish",
    ]
}
