/// The admin GraphQL API of `Backend/movies`, as much of it as the fuzzer uses: each table's root fields, scalar
/// fields, aggregates and relations (see `dataconnect validate --backend Backend/movies --print-sdl`).
struct MoviesTable {
    /// A scalar field's type, which decides the literals and filter operators the fuzzer writes for it.
    enum Scalar {
        case string, int, int64, float, boolean, uuid, date, timestamp, any, aspectRatio, stringList
    }

    /// How the single-row root field finds a row.
    enum Lookup {
        case uuidID, stringID, firstOnly
    }

    var name: String
    var single: String
    var list: String
    var lookup: Lookup
    var scalars: [(name: String, type: Scalar)]
    var aggregates: [String]
    var relations: [(field: String, table: String, isList: Bool)]

    /// The scalar fields `orderBy` accepts.
    var orderable: [String] { scalars.filter { $0.type != .any && $0.type != .stringList }.map(\.name) }

    static let all: [MoviesTable] = [
        MoviesTable(
            name: "Movie", single: "movie", list: "movies", lookup: .uuidID,
            scalars: [
                ("id", .uuid), ("title", .string), ("releaseYear", .int), ("genre", .string), ("rating", .int),
                ("aspectratio", .aspectRatio), ("description", .string), ("imageUrl", .string), ("tags", .stringList),
                ("isClassic", .boolean), ("createdAt", .timestamp), ("directorId", .uuid),
            ],
            aggregates: ["_count", "rating_avg", "releaseYear_min", "releaseYear_max", "rating_sum", "title_count"],
            relations: [
                ("director", "Person", false), ("movieMetadata_on_movie", "MovieMetadata", false),
                ("movieActors_on_movie", "MovieActor", true), ("actors_via_MovieActor", "Actor", true),
                ("reviews_on_movie", "Review", true), ("users_via_Review", "User", true),
                ("favoriteMovies_on_movie", "FavoriteMovie", true), ("users_via_FavoriteMovie", "User", true),
            ]),
        MoviesTable(
            name: "MovieMetadata", single: "movieMetadata", list: "movieMetadatas", lookup: .uuidID,
            scalars: [
                ("id", .uuid), ("movieId", .uuid), ("releaseDate", .date), ("durationHours", .float),
                ("budget", .int64), ("boxOffice", .int64), ("language", .string), ("extras", .any),
            ],
            aggregates: ["_count"], relations: [("movie", "Movie", false)]),
        MoviesTable(
            name: "Person", single: "person", list: "people", lookup: .uuidID,
            scalars: [("id", .uuid), ("name", .string), ("birthYear", .int)],
            aggregates: ["_count"], relations: [("movies_on_director", "Movie", true)]),
        MoviesTable(
            name: "Actor", single: "actor", list: "actors", lookup: .uuidID,
            scalars: [("id", .uuid), ("name", .string), ("imageUrl", .string), ("birthDate", .date)],
            aggregates: ["_count"],
            relations: [("movieActors_on_actor", "MovieActor", true), ("movies_via_MovieActor", "Movie", true)]),
        MoviesTable(
            name: "MovieActor", single: "movieActor", list: "movieActors", lookup: .firstOnly,
            scalars: [("movieId", .uuid), ("actorId", .uuid), ("role", .string)],
            aggregates: ["_count"], relations: [("movie", "Movie", false), ("actor", "Actor", false)]),
        MoviesTable(
            name: "User", single: "user", list: "users", lookup: .stringID,
            scalars: [("id", .string), ("username", .string), ("createdAt", .timestamp)],
            aggregates: ["_count"],
            relations: [
                ("reviews_on_user", "Review", true), ("movies_via_Review", "Movie", true),
                ("favoriteMovies_on_user", "FavoriteMovie", true), ("movies_via_FavoriteMovie", "Movie", true),
            ]),
        MoviesTable(
            name: "Review", single: "review", list: "reviews", lookup: .firstOnly,
            scalars: [
                ("movieId", .uuid), ("userId", .string), ("rating", .int), ("text", .string), ("reviewDate", .date),
            ],
            aggregates: ["_count", "rating_avg"], relations: [("movie", "Movie", false), ("user", "User", false)]),
        MoviesTable(
            name: "FavoriteMovie", single: "favoriteMovie", list: "favoriteMovies", lookup: .firstOnly,
            scalars: [("userId", .string), ("movieId", .uuid), ("addedAt", .timestamp)],
            aggregates: ["_count"], relations: [("user", "User", false), ("movie", "Movie", false)]),
    ]

    static func named(_ name: String) -> MoviesTable {
        all.first { $0.name == name } ?? all[0]
    }

    /// The table a relation field's `where` and `orderBy` arguments apply to: the join table of a `_via_` field,
    /// the target otherwise.
    static func argumentsTable(of relation: (field: String, table: String, isList: Bool)) -> MoviesTable {
        guard let via = relation.field.range(of: "_via_") else { return named(relation.table) }
        return named(String(relation.field[via.upperBound...]))
    }
}

/// An admin GraphQL request the fuzzer built: the document, its variables and operation name, and why the
/// emulator must refuse it, when it must.
struct AdminDocument {
    var text: String
    var variables: FuzzJSON?
    var operationName: String?
    var mustRefuse: String?
}

/// Random GraphQL documents over the movies admin API: queries and mutations built from the schema's real fields,
/// nested to random depth and width, with aliases, fragments (spread twice, chained, sometimes cyclic), inline
/// fragments, `@skip`/`@include`, variables (sometimes of the wrong type) and `__typename`; and damaged variants.
///
/// A document that breaks a GraphQL rule on purpose (a fragment cycle, an unknown field, a variable of the wrong
/// type, an Int literal out of range) carries the reason in ``AdminDocument/mustRefuse``.
struct MoviesDocumentGenerator {
    /// How a document is shaped.
    enum Shape {
        case ordinary, deep, wide, hugeOr
    }

    private var random: FuzzRandom
    private let knownIDs: [String]
    private var shape = Shape.ordinary
    private var fragments: [(name: String, table: String, body: String)] = []
    private var openFragments: Set<String> = []
    private var declarations: [String] = []
    private var variableValues: [(String, FuzzJSON)] = []
    private var refusals: [String] = []
    private var aliases = 0
    /// While a wide selection or a huge `_or` is written, no rule is broken on purpose: one broken rule would stop
    /// the whole document at validation, and the point of those shapes is to reach SQLite.
    private var bulk = false

    /// A generator drawing from `random`, using `knownIDs` (the seed data's UUIDs) where a real row helps.
    init(random: FuzzRandom, knownIDs: [String]) {
        self.random = random
        self.knownIDs = knownIDs.isEmpty ? ["252ff53a-a807-5c12-840b-96bff4798d7b"] : knownIDs
    }

    /// The generator's random source after the document was built, for the caller's next choices.
    var remainingRandom: FuzzRandom { random }

    /// A well-formed document (most often), possibly breaking one rule on purpose.
    mutating func document() -> AdminDocument {
        let roll = random.int(0...99)
        shape = roll < 80 ? .ordinary : roll < 87 ? .deep : roll < 94 ? .wide : .hugeOr
        let isMutation = random.chance(0.15)
        let body = isMutation ? mutationFields() : queryFields()
        let name = random.chance(0.5) ? "Fuzz\(random.int(0...999))" : nil
        var header = isMutation ? "mutation" : "query"
        if let name { header += " " + name }
        if !declarations.isEmpty { header += "(" + declarations.joined(separator: ", ") + ")" }
        if isMutation && random.chance(0.3) { header += " @transaction" }
        if !isMutation && name == nil && declarations.isEmpty && random.chance(0.3) { header = "" }
        var text = (header.isEmpty ? "" : header + " ") + body
        for fragment in fragments {
            text += "\nfragment \(fragment.name) on \(fragment.table) \(fragment.body)"
        }
        let variables: FuzzJSON? =
            variableValues.isEmpty && random.chance(0.7) ? nil : .object(variableValues)
        return AdminDocument(
            text: text, variables: variables, operationName: name != nil && random.chance(0.5) ? name : nil,
            mustRefuse: refusals.first)
    }

    // MARK: Queries

    private mutating func queryFields() -> String {
        let count = shape == .wide ? 1 : random.int(1...3)
        var fields: [String] = []
        for index in 0..<count {
            let table = random.pick(MoviesTable.all)
            let alias = index == 0 ? "" : nextAlias() + ": "
            let depth = shape == .deep ? random.int(8...40) : random.int(0...4)
            if random.chance(0.1) {
                let groups = (0..<random.int(0...2)).map { _ in random.pick(table.orderable) }
                let aggregates = (0..<random.int(1...3)).map { _ in nextAlias() + ": " + random.pick(table.aggregates) }
                let arguments = random.chance(0.5) ? "(where: \(filter(table, depth: 1)))" : ""
                fields.append(
                    alias + table.list + arguments + " { " + (groups + aggregates).joined(separator: " ") + " }")
            } else if random.chance(0.7) {
                fields.append(alias + table.list + listArguments(table, depth: 2) + selection(table, depth: depth))
            } else {
                fields.append(alias + table.single + lookupArguments(table) + selection(table, depth: depth))
            }
        }
        if random.chance(0.1) { fields.append("__typename") }
        return "{ " + fields.joined(separator: " ") + " }"
    }

    private mutating func selection(_ table: MoviesTable, depth: Int) -> String {
        if shape == .deep {
            var items = [random.pick(table.scalars).name]
            if depth > 0, let relation = random.element(of: table.relations) {
                items.append(relationField(relation, depth: depth))
            }
            return "{ " + items.joined(separator: " ") + " }"
        }
        let count: Int
        let wasBulk = bulk
        if shape == .wide {
            shape = .ordinary
            bulk = true
            count = random.int(200...2_500)
        } else {
            count = random.int(1...6)
        }
        var items: [String] = []
        for _ in 0..<count { items.append(selectionItem(table, depth: depth)) }
        bulk = wasBulk
        return "{ " + items.joined(separator: " ") + " }"
    }

    private mutating func selectionItem(_ table: MoviesTable, depth: Int) -> String {
        let roll = random.int(0...99)
        switch roll {
        case 0..<6:
            return "__typename"
        case 6..<9:
            return "_id"
        case 9..<10:
            return nextAlias() + ": " + random.pick(table.aggregates)
        case 10..<33 where depth > 0 && !table.relations.isEmpty:
            return relationField(random.pick(table.relations), depth: depth)
        case 33..<40 where depth > 0:
            let condition = random.chance(0.5) ? " on \(table.name)" : ""
            let directive = random.chance(0.3) ? " " + conditionDirective() : ""
            return "..." + condition + directive + " " + selection(table, depth: depth - 1)
        case 40..<50 where depth > 0:
            return fragmentSpread(table, depth: depth)
        case 50..<51 where deliberately(0.5):
            refusals.append("selects the unknown field \(table.name).titel")
            return "titel"
        case 51..<52 where deliberately(0.5):
            refusals.append("uses the alias c for two different fields")
            return "c: \(table.scalars[0].name) c: __typename"
        default:
            let field = random.pick(table.scalars).name
            let alias = random.chance(0.2) ? nextAlias() + ": " : ""
            let directive = random.chance(0.1) ? " " + conditionDirective() : ""
            return alias + field + directive
        }
    }

    private mutating func relationField(
        _ relation: (field: String, table: String, isList: Bool), depth: Int
    ) -> String {
        let arguments =
            relation.isList && random.chance(0.5)
            ? listArguments(MoviesTable.argumentsTable(of: relation), depth: 1) : ""
        let alias = arguments.isEmpty && random.chance(0.8) ? "" : nextAlias() + ": "
        return alias + relation.field + arguments + " " + selection(MoviesTable.named(relation.table), depth: depth - 1)
    }

    private mutating func fragmentSpread(_ table: MoviesTable, depth: Int) -> String {
        let sameType = fragments.filter { $0.table == table.name }
        if deliberately(0.02), let other = fragments.first(where: { $0.table != table.name }) {
            refusals.append("spreads \(other.name) (on \(other.table)) in a selection of \(table.name)")
            return "..." + other.name
        }
        if !sameType.isEmpty && random.chance(0.5) {
            let closed = sameType.filter { !openFragments.contains($0.name) }
            if let reused = random.element(of: closed), !deliberately(0.05) {
                return "..." + reused.name
            }
            if deliberately(0.3), let open = sameType.first(where: { openFragments.contains($0.name) }) {
                refusals.append("fragment \(open.name) spreads itself through a cycle")
                return "..." + open.name
            }
        }
        let name = "F\(fragments.count)"
        let index = fragments.count
        fragments.append((name, table.name, "{ __typename }"))
        openFragments.insert(name)
        fragments[index].body = selection(table, depth: depth - 1)
        openFragments.remove(name)
        return "..." + name + (random.chance(0.2) ? " ..." + name : "")
    }

    private mutating func conditionDirective() -> String {
        let name = random.chance(0.5) ? "skip" : "include"
        if !bulk, random.chance(0.3) {
            let variable = declare("Boolean!", right: .bool(random.chance(0.5)), wrong: .string("yes"))
            return "@\(name)(if: \(variable))"
        }
        return "@\(name)(if: \(random.chance(0.5)))"
    }

    // MARK: Arguments

    private mutating func listArguments(_ table: MoviesTable, depth: Int) -> String {
        var arguments: [String] = []
        if shape == .hugeOr || random.chance(0.6) {
            arguments.append("where: " + filter(table, depth: depth))
        }
        if random.chance(0.4) { arguments.append("orderBy: " + orderBy(table)) }
        if random.chance(0.4) { arguments.append("limit: " + intArgument()) }
        if random.chance(0.15) { arguments.append("offset: " + intArgument()) }
        if random.chance(0.05) { arguments.append("distinct: true") }
        return arguments.isEmpty ? "" : "(" + arguments.joined(separator: ", ") + ")"
    }

    private mutating func lookupArguments(_ table: MoviesTable) -> String {
        switch (table.lookup, random.int(0...2)) {
        case (.uuidID, 0):
            return "(id: \(graphQLString(random.pick(knownIDs))))"
        case (.uuidID, 1):
            if random.chance(0.5) {
                let variable = declare("UUID!", right: .string(random.pick(knownIDs)), wrong: .string("not-a-uuid"))
                return "(id: \(variable))"
            }
            return "(key: {id: \(graphQLString(random.uuid()))})"
        case (.stringID, 0), (.stringID, 1):
            return "(id: \(graphQLString(random.pick(["uid-alice", "uid-bob", "", "nobody"]))))"
        default:
            return "(first: {where: \(filter(table, depth: 1)), orderBy: \(orderBy(table))})"
        }
    }

    private mutating func intArgument() -> String {
        switch random.int(0...9) {
        case 0 where deliberately(0.3):
            refusals.append("an Int literal out of range")
            return random.pick(["2147483648", "99999999999999999999999", "-2147483649"])
        case 1 where !bulk:
            return declare("Int", right: .int(random.int(0...50)), wrong: .string("ten"))
        default:
            return String(random.pick([0, 1, 3, 10, 100, 1_000, -1, 2_147_483_647]))
        }
    }

    private mutating func orderBy(_ table: MoviesTable) -> String {
        let count = random.int(1...3)
        let terms = (0..<count).map { _ in
            "{\(random.pick(table.orderable)): \(random.chance(0.5) ? "ASC" : "DESC")}"
        }
        return count == 1 && random.chance(0.5) ? terms[0] : "[" + terms.joined(separator: ", ") + "]"
    }

    // MARK: Filters

    private mutating func filter(_ table: MoviesTable, depth: Int) -> String {
        if shape == .hugeOr {
            shape = .ordinary
            bulk = true
            let branches = (0..<random.int(200...2_500)).map { _ in condition(random.pick(table.scalars)) }
            bulk = false
            let combinator = random.chance(0.7) ? "_or" : "_and"
            return "{\(combinator): [" + branches.map { "{\($0)}" }.joined(separator: ", ") + "]}"
        }
        let count = random.int(1...3)
        // Each member's key is claimed before its value is written, so that no duplicate is written and then dropped
        // (with a variable it declared, or a rule it broke on purpose).
        var keys: Set<String> = []
        var members: [String] = []
        for _ in 0..<count {
            switch random.int(0...9) {
            case 0 where depth > 0:
                let combinator = random.chance(0.5) ? "_or" : "_and"
                guard keys.insert(combinator).inserted else { continue }
                let branches = (0..<random.int(0...4)).map { _ in filter(table, depth: depth - 1) }
                members.append("\(combinator): [" + branches.joined(separator: ", ") + "]")
            case 1 where depth > 0:
                guard keys.insert("_not").inserted else { continue }
                members.append("_not: " + filter(table, depth: depth - 1))
            case 2 where depth > 0 && !table.relations.isEmpty:
                let relation = random.pick(table.relations)
                guard keys.insert(relation.field).inserted else { continue }
                let target = MoviesTable.named(relation.table)
                if relation.isList {
                    let count = random.chance(0.3) ? ", count: {gt: \(random.int(0...3))}" : ""
                    members.append("\(relation.field): {exist: \(filter(target, depth: depth - 1))\(count)}")
                } else {
                    members.append("\(relation.field): " + filter(target, depth: depth - 1))
                }
            default:
                let field = random.pick(table.scalars)
                guard keys.insert(field.name).inserted else { continue }
                members.append(condition(field))
            }
        }
        return "{" + members.joined(separator: ", ") + "}"
    }

    private mutating func condition(_ field: (name: String, type: MoviesTable.Scalar)) -> String {
        if field.type != .any && deliberately(0.015) {
            refusals.append("compares \(field.name) with a value of the wrong type")
            let wrong = field.type == .string ? "5" : field.type == .boolean ? "\"yes\"" : "{nope: 1}"
            return "\(field.name): {eq: \(wrong)}"
        }
        let operators: [String] =
            switch field.type {
            case .string:
                ["eq", "ne", "in", "nin", "gt", "le", "contains", "startsWith", "endsWith", "isNull", "pattern"]
            case .int, .int64, .float, .date, .timestamp: ["eq", "ne", "gt", "ge", "lt", "le", "in", "nin", "isNull"]
            case .uuid, .boolean, .any, .aspectRatio: ["eq", "ne", "in", "nin", "isNull"]
            case .stringList: ["includes", "excludes", "includesAll", "excludesAll"]
            }
        let op = random.pick(operators)
        let element: MoviesTable.Scalar = field.type == .stringList ? .string : field.type
        let value: String
        switch op {
        case "isNull": value = String(random.chance(0.5))
        case "in", "nin", "includesAll", "excludesAll":
            value = "[" + (0..<random.int(0...4)).map { _ in literal(element) }.joined(separator: ", ") + "]"
        case "pattern":
            value = "{\(random.chance(0.5) ? "like" : "regex"): \(graphQLString(random.pick(["%a%", "^S", "(", "_"])))}"
        default:
            if !bulk, random.chance(0.1), field.type == .string {
                value = declare("String", right: .string(random.pick(Self.strings)), wrong: .int(7))
            } else {
                value = literal(element)
            }
        }
        return "\(field.name): {\(op): \(value)}"
    }

    private mutating func literal(_ type: MoviesTable.Scalar) -> String {
        switch type {
        case .string, .stringList: graphQLString(random.pick(Self.strings))
        case .int: String(random.pick([0, 1, -1, 1977, 1990, 2_147_483_647, -2_147_483_648, random.int(1900...2030)]))
        case .int64: random.chance(0.5) ? "\"9223372036854775807\"" : String(random.int(-5...5_000_000))
        case .float: random.pick(["1.5", "0.0", "-0.0", "1e10", "4.25", "3"])
        case .boolean: String(random.chance(0.5))
        case .uuid: graphQLString(random.chance(0.6) ? random.pick(knownIDs) : random.uuid())
        case .date: graphQLString(random.pick(["2024-02-29", "1977-05-25", "0001-01-01", "9999-12-31"]))
        case .timestamp: graphQLString(random.pick(["2024-05-01T10:00:00Z", "1970-01-01T00:00:00.5+02:00"]))
        case .any: random.pick(["{a: [1, null]}", "\"x\"", "42", "[]", "{}"])
        case .aspectRatio: random.pick(["ACADEMY", "WIDESCREEN", "ANAMORPHIC"])
        }
    }

    // MARK: Mutations

    private mutating func mutationFields() -> String {
        let count = random.int(1...3)
        var fields: [String] = []
        for _ in 0..<count {
            let alias = fields.isEmpty ? "" : nextAlias() + ": "
            let title = graphQLString(random.pick(Self.strings))
            let field: String
            switch random.int(0...9) {
            case 0:
                field =
                    "movie_insert(data: {title: \(title), releaseYear: \(literal(.int)), genre: \"Fuzz\", "
                    + "rating: \(literal(.int)), aspectratio: \(literal(.aspectRatio)), tags: [\(title)]})"
            case 1:
                field = "movie_upsert(data: {id: \(graphQLString(random.uuid())), title: \(title)})"
            case 2:
                field = "movie_update(id: \(literal(.uuid)), data: {rating: \(literal(.int)), description: \(title)})"
            case 3:
                field =
                    "movie_updateMany(where: \(filter(MoviesTable.named("Movie"), depth: 2)), "
                    + "data: {description: \(title)})"
            case 4:
                field = "movie_delete(id: \(graphQLString(random.uuid())))"
            case 5:
                field = "movie_deleteMany(where: {genre: {eq: \"Fuzz\"}, title: {eq: \(title)}})"
            case 6:
                field = "actor_insert(data: {name: \(title), birthDate: \(literal(.date))})"
            case 7:
                field = "person_insert(data: {name: \(title), birthYear: \(literal(.int))})"
            case 8:
                field = "user_upsert(data: {id: \(graphQLString("uid-\(random.int(0...20))")), username: \(title)})"
            default:
                field =
                    "movieMetadata_insert(data: {movieId: \(literal(.uuid)), budget: \(literal(.int64)), "
                    + "durationHours: \(literal(.float)), extras: \(literal(.any))})"
            }
            fields.append(alias + field)
        }
        return "{ " + fields.joined(separator: " ") + " }"
    }

    // MARK: Damaged documents

    /// A document damaged or built to break the lexer, the parser or the limits, with the reason it must be
    /// refused when the damage certainly makes it invalid.
    mutating func damagedDocument() -> AdminDocument {
        var base = document()
        base.mustRefuse = nil
        switch random.int(0...11) {
        case 0, 1:
            base.text = random.mutate(base.text)
            if random.chance(0.5) { base.text = random.mutate(base.text) }
        case 2:
            base.text = String(base.text.prefix(random.int(0...max(0, base.text.count - 1))))
        case 3:
            let bytes = (0..<random.int(1...300)).map { _ in random.byte() }
            base.text = String(decoding: bytes, as: UTF8.self)
        case 4:
            let count = random.int(1...5_000)
            base.text =
                random.chance(0.5)
                ? String(repeating: "{", count: count) + base.text : base.text + String(repeating: "}", count: count)
            base.mustRefuse = "unbalanced braces"
        case 5:
            let limit = random.pick(["1" + String(repeating: "0", count: 400), "1e999", "-0x10"])
            base.text = "query { movies(limit: \(limit)) { title } }"
            base.mustRefuse = "a limit that is not an Int"
        case 6:
            base.text = random.pick([
                "query { mövies { títle } }", "query { movies { 🎬: title } }", "query { movies { title\u{0} } }",
                "query { movies { ti\u{200B}tle } }",
            ])
            base.mustRefuse = "a name that is not a GraphQL name of the schema"
        case 7:
            let long = String(repeating: random.pick(["t", "é", "_"]), count: random.int(1_000...200_000))
            if random.chance(0.5) {
                base.text = "query { movies(limit: 1) { \(long): title } }"
            } else {
                base.text = "query { movies { \(long) } }"
                base.mustRefuse = "selects an unknown field with a very long name"
            }
        case 8:
            let depth = random.int(50...3_000)
            base.text =
                "query { movies(where: " + String(repeating: "{_not: ", count: depth) + "{title: {eq: \"x\"}}"
                + String(repeating: "}", count: depth) + ") { title } }"
        case 9:
            let depth = random.int(4...400)
            var selection = depth % 2 == 0 ? "{ title }" : "{ name }"
            for level in (0..<depth).reversed() {
                selection =
                    level % 2 == 0 ? "{ director \(selection) }" : "{ movies_on_director(limit: 2) \(selection) }"
            }
            base.text = "query { movies(limit: 2) \(selection) }"
        case 10:
            base.text = "query A { movies { title } } query B { people { name } }"
            if random.chance(0.5) {
                base.operationName = "C"
                base.mustRefuse = "operationName names no operation of the document"
            } else {
                base.operationName = nil
                base.mustRefuse = "several operations and no operationName"
            }
        default:
            let values = ["1" + String(repeating: "0", count: 40), "[" + String(repeating: "[", count: 2_000)]
            base.text = "query { movies(where: {title: {in: \(random.pick(values))}}) { title } }"
            base.mustRefuse = "a malformed or mistyped value"
        }
        return base
    }

    // MARK: Helpers

    /// Strings for titles, genres and filters: ordinary, empty, quoted, non-ASCII, control characters, long.
    static let strings: [String] = [
        "Alien", "Sci-Fi", "Drama", "", "a", "%", "_", "Star Wars", "it's \"quoted\" \\ backslash", "千と千尋の神隠し",
        "🎬🍿", "e\u{301}", "\u{0}nul", "tab\there", "line\nbreak", String(repeating: "x", count: 5_000),
        "'; DROP TABLE movie; --",
    ]

    /// Whether to break a rule now: with `probability`, and never in bulk.
    private mutating func deliberately(_ probability: Double) -> Bool {
        !bulk && random.chance(probability)
    }

    private mutating func nextAlias() -> String {
        aliases += 1
        return "a\(aliases)"
    }

    /// Declares `$vN: type` and gives it `right` (or `wrong`, recording why the document must be refused).
    private mutating func declare(_ type: String, right: FuzzJSON, wrong: FuzzJSON) -> String {
        let name = "v\(declarations.count)"
        declarations.append("$\(name): \(type)")
        switch random.int(0...19) {
        case 0:
            refusals.append("variable $\(name): \(type) given \(wrong.text)")
            variableValues.append((name, wrong))
        case 1 where type.hasSuffix("!"):
            refusals.append("required variable $\(name): \(type) is missing")
        default:
            variableValues.append((name, right))
        }
        return "$" + name
    }

    private func graphQLString(_ value: String) -> String {
        var output = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}
