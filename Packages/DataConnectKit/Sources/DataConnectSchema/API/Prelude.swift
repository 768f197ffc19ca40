/// The built-in definitions every Data Connect schema and connector sees: scalars, directives,
/// filters, update transforms and relative values (upstream's `prelude.gql`).
public enum Prelude {
    /// The file name diagnostics and `--print-sdl` use for the prelude.
    public static let fileName = "prelude.gql"

    /// Scalar types that may appear as column types, with their GraphQL names.
    public static let columnScalars: [String] = [
        "String", "Int", "Int64", "Float", "Boolean", "UUID", "Date", "Timestamp", "Any", "Vector",
    ]

    /// Scalars that have a CEL `_Expr` twin (`String_Expr`, ...).
    public static let scalarsWithExpr: Set<String> = [
        "String", "UUID", "Int", "Int64", "Float", "Date", "Timestamp", "Any",
    ]

    /// The prelude's SDL.
    public static let sdl = #"""
        "A 128-bit universally unique identifier: 32 lowercase hex digits on output; dashed, braced or urn:uuid: forms on input."
        scalar UUID @specifiedBy(url: "https://tools.ietf.org/html/rfc4122")
        "A 64-bit signed integer, written as a decimal string on output."
        scalar Int64
        "A calendar date, YYYY-MM-DD. Inputs may include a Timestamp's time part: it is checked, then only the date before the T is used."
        scalar Date @specifiedBy(url: "https://tools.ietf.org/html/rfc3339")
        "An instant with microsecond precision, RFC 3339 with a UTC offset."
        scalar Timestamp @specifiedBy(url: "https://tools.ietf.org/html/rfc3339")
        "Any JSON value."
        scalar Any
        "A vector of floating-point numbers (pgvector)."
        scalar Vector
        "Nothing."
        scalar Void @fdc_forbiddenAsVariableType
        "The constant true."
        scalar True @fdc_forbiddenAsVariableType

        "A CEL expression evaluating to a Boolean, written as a string literal."
        scalar Boolean_Expr @fdc_forbiddenAsVariableType
        "A CEL expression evaluating to a String."
        scalar String_Expr @fdc_forbiddenAsVariableType
        "A CEL expression evaluating to a UUID."
        scalar UUID_Expr @fdc_forbiddenAsVariableType
        "A CEL expression evaluating to an Int."
        scalar Int_Expr @fdc_forbiddenAsVariableType
        "A CEL expression evaluating to an Int64."
        scalar Int64_Expr @fdc_forbiddenAsVariableType
        "A CEL expression evaluating to a Float."
        scalar Float_Expr @fdc_forbiddenAsVariableType
        "A CEL expression evaluating to any value."
        scalar Any_Expr @fdc_forbiddenAsVariableType
        "A CEL expression evaluating to a Date."
        scalar Date_Expr @fdc_forbiddenAsVariableType
        "A CEL expression evaluating to a Timestamp."
        scalar Timestamp_Expr @fdc_forbiddenAsVariableType
        "A SQL expression with no variables or subqueries."
        scalar Any_SQL @fdc_forbiddenAsVariableType
        "A native SQL query."
        scalar SQL_Query @fdc_forbiddenAsVariableType
        "A native SQL statement."
        scalar SQL_Mutation @fdc_forbiddenAsVariableType
        "Positional parameters of a native SQL statement."
        scalar SQL_Params @fdc_forbiddenAsVariableType
        "An embedding model name."
        scalar Vector_Embed_Model @fdc_forbiddenAsVariableType

        "Exactly one argument of the group may be given; with required, one must be."
        directive @fdc_oneOf(group: String! = "", required: Boolean! = false) repeatable on ARGUMENT_DEFINITION | INPUT_FIELD_DEFINITION
        "The type may not be used as the type of an operation variable."
        directive @fdc_forbiddenAsVariableType on SCALAR | OBJECT | INPUT_OBJECT | ENUM
        "The input field may be written only as a literal in the operation text, never inside variable values."
        directive @fdc_forbiddenInVariables on INPUT_FIELD_DEFINITION
        "Marks a built-in scalar by the specification of its format."
        directive @specifiedBy(url: String!) on SCALAR
        "Marks an element as deprecated."
        directive @deprecated(reason: String = "No longer supported") on FIELD_DEFINITION | ARGUMENT_DEFINITION | INPUT_FIELD_DEFINITION | ENUM_VALUE
        "Includes the field or fragment only when the argument is true."
        directive @include(if: Boolean!) on FIELD | FRAGMENT_SPREAD | INLINE_FRAGMENT
        "Skips the field or fragment when the argument is true."
        directive @skip(if: Boolean!) on FIELD | FRAGMENT_SPREAD | INLINE_FRAGMENT

        "Declares a SQL table."
        directive @table(name: String, singular: String, plural: String, key: [String!]) on OBJECT
        "Declares a read-only SQL view."
        directive @view(name: String @fdc_oneOf, sql: String @fdc_oneOf, singular: String, plural: String) on OBJECT
        "Customizes a column."
        directive @col(name: String, dataType: String, size: Int) on FIELD_DEFINITION
        "A column default: a constant, a CEL expression or a SQL expression."
        directive @default(value: Any @fdc_oneOf(required: true), expr: Any_Expr @fdc_oneOf(required: true), sql: Any_SQL @fdc_oneOf(required: true)) on FIELD_DEFINITION
        "A many-to-one foreign key."
        directive @ref(constraintName: String, fields: [String!], references: [String!]) on FIELD_DEFINITION
        "A unique constraint on a field or on several fields of a table."
        directive @unique(indexName: String, fields: [String!]) repeatable on FIELD_DEFINITION | OBJECT
        "An index on a field or on several fields of a table."
        directive @index(name: String, fields: [String!], order: [IndexFieldOrder!], type: IndexType, vector_method: VectorSimilarityMethod) repeatable on FIELD_DEFINITION | OBJECT
        "Full-text search over a String field."
        directive @searchable(language: String = "english") on FIELD_DEFINITION

        "The order of an index column."
        enum IndexFieldOrder { ASC DESC }
        "The kind of an index."
        enum IndexType { BTREE GIN HNSW IVFFLAT }
        "The distance of a vector similarity search."
        enum VectorSimilarityMethod { L2 COSINE INNER_PRODUCT }
        "How the `query` of a full-text search is read."
        enum Search_QueryFormat { QUERY PLAIN PHRASE ADVANCED }
        "Text to turn into a vector with an embedding model (Vertex AI upstream; the emulator's `--embeddings` provider)."
        input Vector_Embed @fdc_forbiddenAsVariableType {
          "The embedding model."
          model: Vector_Embed_Model!
          "The text to embed."
          text: String!
        }

        "Who may run an operation."
        enum AccessLevel @fdc_forbiddenAsVariableType { PUBLIC USER_ANON USER USER_EMAIL_VERIFIED NO_ACCESS }
        "Who may run the operation: a level or a CEL expression."
        directive @auth(level: AccessLevel @fdc_oneOf(required: true), expr: Boolean_Expr @fdc_oneOf(required: true), insecureReason: String) on QUERY | MUTATION
        "Runs every root field of the mutation in one transaction."
        directive @transaction on MUTATION
        "Removes the field from the response; it is still evaluated."
        directive @redact on FIELD | FRAGMENT_SPREAD | INLINE_FRAGMENT
        "Fails the field (and the operation) unless the CEL expression holds for this value."
        directive @check(expr: Boolean_Expr! = "!(this in [null, []])", message: String! = "permission denied", optional: Boolean = false) repeatable on QUERY | MUTATION | FIELD | FRAGMENT_DEFINITION | FRAGMENT_SPREAD | INLINE_FRAGMENT
        "Hides the element from generated SDKs; the server still serves it."
        directive @retired(reason: String) on QUERY | MUTATION | FIELD | VARIABLE_DEFINITION
        "Re-runs a subscribed query periodically or after a mutation: `onMutationExecuted` takes one event or a list, any of which triggers."
        directive @refresh(every: Timestamp_Duration, onMutationExecuted: [OnMutationExecuted_Event!]) repeatable on QUERY
        "A mutation that refreshes a subscribed query."
        input OnMutationExecuted_Event { operation: String!, condition: Boolean_Expr }

        "Sort order."
        enum OrderDirection { ASC DESC }

        "Conditions on a String."
        input String_Filter {
          isNull: Boolean
          eq: String @fdc_oneOf(group: "eq")
          eq_expr: String_Expr @fdc_oneOf(group: "eq")
          ne: String @fdc_oneOf(group: "ne")
          ne_expr: String_Expr @fdc_oneOf(group: "ne")
          in: [String!]
          nin: [String!]
          gt: String
          ge: String
          lt: String
          le: String
          contains: String
          startsWith: String
          endsWith: String
          pattern: String_Pattern
        }
        "A LIKE or POSIX regular-expression pattern."
        input String_Pattern {
          like: String @fdc_oneOf
          regex: String @fdc_oneOf
          ignoreCase: Boolean
        }
        "Conditions on a UUID."
        input UUID_Filter {
          isNull: Boolean
          eq: UUID @fdc_oneOf(group: "eq")
          eq_expr: UUID_Expr @fdc_oneOf(group: "eq")
          ne: UUID @fdc_oneOf(group: "ne")
          ne_expr: UUID_Expr @fdc_oneOf(group: "ne")
          in: [UUID!]
          nin: [UUID!]
        }
        "Conditions on a Boolean."
        input Boolean_Filter {
          isNull: Boolean
          eq: Boolean @fdc_oneOf(group: "eq")
          eq_expr: Boolean_Expr @fdc_oneOf(group: "eq")
          ne: Boolean @fdc_oneOf(group: "ne")
          ne_expr: Boolean_Expr @fdc_oneOf(group: "ne")
          in: [Boolean!]
          nin: [Boolean!]
        }
        "Conditions on an Any value."
        input Any_Filter {
          isNull: Boolean
          eq: Any @fdc_oneOf(group: "eq")
          eq_expr: Any_Expr @fdc_oneOf(group: "eq")
          ne: Any @fdc_oneOf(group: "ne")
          ne_expr: Any_Expr @fdc_oneOf(group: "ne")
          in: [Any!]
          nin: [Any!]
        }
        "Conditions on an Int."
        input Int_Filter {
          isNull: Boolean
          eq: Int @fdc_oneOf(group: "eq")
          eq_expr: Int_Expr @fdc_oneOf(group: "eq")
          ne: Int @fdc_oneOf(group: "ne")
          ne_expr: Int_Expr @fdc_oneOf(group: "ne")
          in: [Int!]
          nin: [Int!]
          gt: Int @fdc_oneOf(group: "gt")
          gt_expr: Int_Expr @fdc_oneOf(group: "gt")
          ge: Int @fdc_oneOf(group: "ge")
          ge_expr: Int_Expr @fdc_oneOf(group: "ge")
          lt: Int @fdc_oneOf(group: "lt")
          lt_expr: Int_Expr @fdc_oneOf(group: "lt")
          le: Int @fdc_oneOf(group: "le")
          le_expr: Int_Expr @fdc_oneOf(group: "le")
        }
        "Conditions on an Int64."
        input Int64_Filter {
          isNull: Boolean
          eq: Int64 @fdc_oneOf(group: "eq")
          eq_expr: Int64_Expr @fdc_oneOf(group: "eq")
          ne: Int64 @fdc_oneOf(group: "ne")
          ne_expr: Int64_Expr @fdc_oneOf(group: "ne")
          in: [Int64!]
          nin: [Int64!]
          gt: Int64 @fdc_oneOf(group: "gt")
          gt_expr: Int64_Expr @fdc_oneOf(group: "gt")
          ge: Int64 @fdc_oneOf(group: "ge")
          ge_expr: Int64_Expr @fdc_oneOf(group: "ge")
          lt: Int64 @fdc_oneOf(group: "lt")
          lt_expr: Int64_Expr @fdc_oneOf(group: "lt")
          le: Int64 @fdc_oneOf(group: "le")
          le_expr: Int64_Expr @fdc_oneOf(group: "le")
        }
        "Conditions on a Float."
        input Float_Filter {
          isNull: Boolean
          eq: Float @fdc_oneOf(group: "eq")
          eq_expr: Float_Expr @fdc_oneOf(group: "eq")
          ne: Float @fdc_oneOf(group: "ne")
          ne_expr: Float_Expr @fdc_oneOf(group: "ne")
          in: [Float!]
          nin: [Float!]
          gt: Float @fdc_oneOf(group: "gt")
          gt_expr: Float_Expr @fdc_oneOf(group: "gt")
          ge: Float @fdc_oneOf(group: "ge")
          ge_expr: Float_Expr @fdc_oneOf(group: "ge")
          lt: Float @fdc_oneOf(group: "lt")
          lt_expr: Float_Expr @fdc_oneOf(group: "lt")
          le: Float @fdc_oneOf(group: "le")
          le_expr: Float_Expr @fdc_oneOf(group: "le")
        }
        "Conditions on a Date."
        input Date_Filter {
          isNull: Boolean
          eq: Date @fdc_oneOf(group: "eq")
          eq_expr: Date_Expr @fdc_oneOf(group: "eq")
          eq_date: Date_Relative @fdc_oneOf(group: "eq")
          ne: Date @fdc_oneOf(group: "ne")
          ne_expr: Date_Expr @fdc_oneOf(group: "ne")
          ne_date: Date_Relative @fdc_oneOf(group: "ne")
          in: [Date!]
          nin: [Date!]
          gt: Date @fdc_oneOf(group: "gt")
          gt_expr: Date_Expr @fdc_oneOf(group: "gt")
          gt_date: Date_Relative @fdc_oneOf(group: "gt")
          ge: Date @fdc_oneOf(group: "ge")
          ge_expr: Date_Expr @fdc_oneOf(group: "ge")
          ge_date: Date_Relative @fdc_oneOf(group: "ge")
          lt: Date @fdc_oneOf(group: "lt")
          lt_expr: Date_Expr @fdc_oneOf(group: "lt")
          lt_date: Date_Relative @fdc_oneOf(group: "lt")
          le: Date @fdc_oneOf(group: "le")
          le_expr: Date_Expr @fdc_oneOf(group: "le")
          le_date: Date_Relative @fdc_oneOf(group: "le")
        }
        "Conditions on a Timestamp."
        input Timestamp_Filter {
          isNull: Boolean
          eq: Timestamp @fdc_oneOf(group: "eq")
          eq_expr: Timestamp_Expr @fdc_oneOf(group: "eq")
          eq_time: Timestamp_Relative @fdc_oneOf(group: "eq")
          ne: Timestamp @fdc_oneOf(group: "ne")
          ne_expr: Timestamp_Expr @fdc_oneOf(group: "ne")
          ne_time: Timestamp_Relative @fdc_oneOf(group: "ne")
          in: [Timestamp!]
          nin: [Timestamp!]
          gt: Timestamp @fdc_oneOf(group: "gt")
          gt_expr: Timestamp_Expr @fdc_oneOf(group: "gt")
          gt_time: Timestamp_Relative @fdc_oneOf(group: "gt")
          ge: Timestamp @fdc_oneOf(group: "ge")
          ge_expr: Timestamp_Expr @fdc_oneOf(group: "ge")
          ge_time: Timestamp_Relative @fdc_oneOf(group: "ge")
          lt: Timestamp @fdc_oneOf(group: "lt")
          lt_expr: Timestamp_Expr @fdc_oneOf(group: "lt")
          lt_time: Timestamp_Relative @fdc_oneOf(group: "lt")
          le: Timestamp @fdc_oneOf(group: "le")
          le_expr: Timestamp_Expr @fdc_oneOf(group: "le")
          le_time: Timestamp_Relative @fdc_oneOf(group: "le")
        }
        "Conditions on a Vector."
        input Vector_Filter {
          isNull: Boolean
          eq: Vector
          ne: Vector
          in: [Vector!]
          nin: [Vector!]
        }

        "Conditions on a list of Vector."
        input Vector_ListFilter { includes: Vector, excludes: Vector, includesAll: [Vector!], excludesAll: [Vector!] }
        "Conditions on a list of String."
        input String_ListFilter { includes: String, excludes: String, includesAll: [String!], excludesAll: [String!] }
        "Conditions on a list of UUID."
        input UUID_ListFilter { includes: UUID, excludes: UUID, includesAll: [UUID!], excludesAll: [UUID!] }
        "Conditions on a list of Int."
        input Int_ListFilter { includes: Int, excludes: Int, includesAll: [Int!], excludesAll: [Int!] }
        "Conditions on a list of Int64."
        input Int64_ListFilter { includes: Int64, excludes: Int64, includesAll: [Int64!], excludesAll: [Int64!] }
        "Conditions on a list of Float."
        input Float_ListFilter { includes: Float, excludes: Float, includesAll: [Float!], excludesAll: [Float!] }
        "Conditions on a list of Boolean."
        input Boolean_ListFilter { includes: Boolean, excludes: Boolean, includesAll: [Boolean!], excludesAll: [Boolean!] }
        "Conditions on a list of Any."
        input Any_ListFilter { includes: Any, excludes: Any, includesAll: [Any!], excludesAll: [Any!] }
        "Conditions on a list of Date."
        input Date_ListFilter {
          includes: Date
          includes_expr: Date_Expr
          includes_date: Date_Relative
          excludes: Date
          excludes_expr: Date_Expr
          excludes_date: Date_Relative
          includesAll: [Date!]
          excludesAll: [Date!]
        }
        "Conditions on a list of Timestamp."
        input Timestamp_ListFilter {
          includes: Timestamp
          includes_expr: Timestamp_Expr
          includes_time: Timestamp_Relative
          excludes: Timestamp
          excludes_expr: Timestamp_Expr
          excludes_time: Timestamp_Relative
          includesAll: [Timestamp!]
          excludesAll: [Timestamp!]
        }

        "One transform of an Int column."
        input Int_Update { inc: Int @fdc_oneOf(required: true), dec: Int @fdc_oneOf(required: true) }
        "One transform of an Int64 column."
        input Int64_Update { inc: Int64 @fdc_oneOf(required: true), dec: Int64 @fdc_oneOf(required: true) }
        "One transform of a Float column."
        input Float_Update { inc: Float @fdc_oneOf(required: true), dec: Float @fdc_oneOf(required: true) }
        "One transform of a Date column."
        input Date_Update { inc: Date_Duration @fdc_oneOf(required: true), dec: Date_Duration @fdc_oneOf(required: true) }
        "One transform of a Timestamp column."
        input Timestamp_Update { inc: Timestamp_Duration @fdc_oneOf(required: true), dec: Timestamp_Duration @fdc_oneOf(required: true) }
        "One transform of a String list column."
        input String_ListUpdate { append: [String!] @fdc_oneOf(required: true), prepend: [String!] @fdc_oneOf(required: true), add: [String!] @fdc_oneOf(required: true), remove: [String!] @fdc_oneOf(required: true) }
        "One transform of a UUID list column."
        input UUID_ListUpdate { append: [UUID!] @fdc_oneOf(required: true), prepend: [UUID!] @fdc_oneOf(required: true), add: [UUID!] @fdc_oneOf(required: true), remove: [UUID!] @fdc_oneOf(required: true) }
        "One transform of an Int list column."
        input Int_ListUpdate { append: [Int!] @fdc_oneOf(required: true), prepend: [Int!] @fdc_oneOf(required: true), add: [Int!] @fdc_oneOf(required: true), remove: [Int!] @fdc_oneOf(required: true) }
        "One transform of an Int64 list column."
        input Int64_ListUpdate { append: [Int64!] @fdc_oneOf(required: true), prepend: [Int64!] @fdc_oneOf(required: true), add: [Int64!] @fdc_oneOf(required: true), remove: [Int64!] @fdc_oneOf(required: true) }
        "One transform of a Float list column."
        input Float_ListUpdate { append: [Float!] @fdc_oneOf(required: true), prepend: [Float!] @fdc_oneOf(required: true), add: [Float!] @fdc_oneOf(required: true), remove: [Float!] @fdc_oneOf(required: true) }
        "One transform of a Boolean list column."
        input Boolean_ListUpdate { append: [Boolean!] @fdc_oneOf(required: true), prepend: [Boolean!] @fdc_oneOf(required: true), add: [Boolean!] @fdc_oneOf(required: true), remove: [Boolean!] @fdc_oneOf(required: true) }
        "One transform of an Any list column."
        input Any_ListUpdate { append: [Any!] @fdc_oneOf(required: true), prepend: [Any!] @fdc_oneOf(required: true), add: [Any!] @fdc_oneOf(required: true), remove: [Any!] @fdc_oneOf(required: true) }
        "One transform of a Date list column."
        input Date_ListUpdate { append: [Date!] @fdc_oneOf(required: true), prepend: [Date!] @fdc_oneOf(required: true), add: [Date!] @fdc_oneOf(required: true), remove: [Date!] @fdc_oneOf(required: true) }
        "One transform of a Timestamp list column."
        input Timestamp_ListUpdate { append: [Timestamp!] @fdc_oneOf(required: true), prepend: [Timestamp!] @fdc_oneOf(required: true), add: [Timestamp!] @fdc_oneOf(required: true), remove: [Timestamp!] @fdc_oneOf(required: true) }

        "A date relative to today or to a given date."
        input Date_Relative @fdc_forbiddenAsVariableType {
          today: True @fdc_oneOf(required: true)
          on: Date @fdc_oneOf(required: true)
          add: Date_Duration
          sub: Date_Duration
          truncateTo: Date_Interval
        }
        "A length of time in whole days."
        input Date_Duration @fdc_forbiddenAsVariableType { days: Int! = 0, weeks: Int! = 0, months: Int! = 0, years: Int! = 0 }
        "The unit a relative date is truncated to."
        enum Date_Interval { WEEK MONTH YEAR }
        "An instant relative to now or to a given instant."
        input Timestamp_Relative @fdc_forbiddenAsVariableType {
          now: True @fdc_oneOf(required: true)
          at: Timestamp @fdc_oneOf(required: true)
          add: Timestamp_Duration
          sub: Timestamp_Duration
          truncateTo: Timestamp_Interval
        }
        "A length of time."
        input Timestamp_Duration @fdc_forbiddenAsVariableType {
          milliseconds: Int! = 0
          seconds: Int! = 0
          minutes: Int! = 0
          hours: Int! = 0
          days: Int! = 0
          weeks: Int! = 0
          months: Int! = 0
          years: Int! = 0
        }
        "The unit a relative instant is truncated to."
        enum Timestamp_Interval { SECOND MINUTE HOUR DAY WEEK MONTH YEAR }

        "Extra information about a row in a search result."
        type _Metadata {
          "The distance to the compared vector (vector similarity search)."
          distance: Float
          "The relevance to the query (full-text search)."
          relevance: Float
        }

        "The service's own description."
        type _Service {
          "The schema as SDL."
          sdl(omitBuiltin: Boolean = false, omitDescription: Boolean = false): String!
          "The user's schema source."
          schema: String!
          "The source of each schema of the service, by id (the main schema is \"main\")."
          schemas: [_Schema!]!
          "Documentation pages of the service."
          docs: [_Doc!]!
        }
        "One schema of the service."
        type _Schema {
          "The schema's id: \"main\" for the main schema."
          id: String!
          "The schema's source, its files joined."
          source: String!
        }
        "One documentation page."
        type _Doc {
          "The page's name."
          page: String!
          "The page's text, in Markdown."
          markdown: String!
        }
        """#
}
