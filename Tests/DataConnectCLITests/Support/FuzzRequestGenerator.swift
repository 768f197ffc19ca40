import DataConnectEncoding
import Foundation
import GraphQLLanguage

/// One request the fuzzer sends to the emulator serving `Backend/movies`.
struct FuzzRequest {
    /// The endpoint the request goes to.
    enum Endpoint: String {
        case executeGraphql, executeQuery, executeMutation

        var path: String {
            switch self {
            case .executeGraphql: "/v1/projects/p/locations/l/services/movies:executeGraphql"
            case .executeQuery, .executeMutation:
                "/v1/projects/p/locations/l/services/movies/connectors/movies:\(rawValue)"
            }
        }
    }

    var endpoint: Endpoint
    var body: [UInt8]
    var headers: [String: String] = [:]
    /// What kind of case this is, for the report: `admin document`, `connector`, `malformed JSON`...
    var kind: String
    /// Why the emulator must refuse the request (an error envelope, or a GraphQL response with errors), when a
    /// rule it documents says so; `nil` when either answer is acceptable.
    var mustRefuse: String?

    /// The request as text for a report: endpoint, headers and the body, shortened to `limit` characters.
    func excerpt(limit: Int = 600) -> String {
        let text = String(decoding: body, as: UTF8.self)
        let shown = text.count > limit ? String(text.prefix(limit)) + "… (\(body.count) bytes)" : text
        let header = headers.isEmpty ? "" : " " + headers.map { "\($0.key): \($0.value.prefix(40))" }.sorted().joined()
        return "POST :\(endpoint.rawValue)\(header) \(shown)"
    }
}

/// One connector operation of `Backend/movies`, read from its `.gql` files.
struct ConnectorOperation {
    var name: String
    var isMutation: Bool
    /// Whether `@auth(level:)` asks for a signed-in user.
    var requiresUser: Bool
    var variables: [(name: String, type: TypeReference, hasDefault: Bool)]

    /// The operations of every `.gql` file in `folder`.
    static func read(connectorFolder folder: String) throws -> [ConnectorOperation] {
        var operations: [ConnectorOperation] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() where file.hasSuffix(".gql") {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            for operation in try GraphQLParser.parseDocument(Source(name: file, text: text)).operations {
                guard let name = operation.name?.value else { continue }
                let level = operation.directives.first { $0.name.value == "auth" }?.arguments
                    .first { $0.name.value == "level" }?.value
                var isPublic = false
                if case .enum(let name) = level { isPublic = name.value == "PUBLIC" }
                operations.append(
                    ConnectorOperation(
                        name: name, isMutation: operation.operation == .mutation, requiresUser: !isPublic,
                        variables: operation.variables.map { ($0.name.value, $0.type, $0.defaultValue != nil) }))
            }
        }
        return operations
    }
}

/// Random requests for the movies service, each from its own seeded generator so that any case can be built again
/// from the run's seed and its number.
///
/// About half are admin GraphQL documents (``MoviesDocumentGenerator``), well-formed or damaged; most of the rest
/// are connector calls with real and unknown operation names and variables of right and wrong types; the remainder
/// are bodies that are not valid JSON at all.
struct FuzzRequestGenerator {
    let operations: [ConnectorOperation]
    /// UUIDs of rows in the seed data.
    let knownIDs: [String]

    /// A generator for the backend in `backend` (its connector operations and the UUIDs of its seed file).
    init(backend: String) throws {
        operations = try ConnectorOperation.read(connectorFolder: backend + "/connector")
        let seed = try String(contentsOfFile: backend + "/seed_data.gql", encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
        let matches = pattern.matches(in: seed, range: NSRange(seed.startIndex..., in: seed))
        var ids: [String] = []
        for match in matches {
            guard let range = Range(match.range, in: seed) else { continue }
            let id = String(seed[range])
            if !ids.contains(id) { ids.append(id) }
        }
        knownIDs = ids
    }

    /// Case `number` of the run seeded with `seed`.
    func request(seed: UInt64, case number: Int) -> FuzzRequest {
        var random = FuzzRandom(seed: seed, case: number)
        let roll = random.int(0...99)
        switch roll {
        case 0..<40:
            return adminRequest(&random, damaged: false)
        case 40..<52:
            return adminRequest(&random, damaged: true)
        case 52..<90:
            return connectorRequest(&random)
        case 90..<96:
            return slowRequest(&random)
        default:
            return malformedRequest(&random)
        }
    }

    // MARK: Slow shapes

    /// An admin query that is expensive per row: hundreds of `contains` terms with long needles, regular expressions
    /// that backtrack, or both at once. It must end with an answer (200), the time limit (504) or a full slow lane
    /// (429), never anything else.
    private func slowRequest(_ random: inout FuzzRandom) -> FuzzRequest {
        let count = random.int(100...900)
        var terms: [String] = []
        terms.reserveCapacity(count)
        for _ in 0..<count {
            let needle = String(repeating: random.pick(["a", "e", "zq", "the "]), count: random.int(1...64))
            switch random.int(0...2) {
            case 0: terms.append(#"{title: {contains: "\#(needle)"}}"#)
            case 1: terms.append(#"{title: {pattern: {regex: "(\#(needle.prefix(3))+)+x"}}}"#)
            default: terms.append(#"{description: {pattern: {regex: "^(.*a){\#(random.int(1...12))}z"}}}"#)
            }
        }
        let document = "{ movies(where: {_or: [\(terms.joined(separator: ", "))]}) { id title } }"
        return FuzzRequest(
            endpoint: .executeGraphql, body: FuzzJSON.object([("query", .string(document))]).bytes,
            kind: "slow admin query", mustRefuse: nil)
    }

    // MARK: Admin documents

    private func adminRequest(_ random: inout FuzzRandom, damaged: Bool) -> FuzzRequest {
        var documents = MoviesDocumentGenerator(random: random, knownIDs: knownIDs)
        let document = damaged ? documents.damagedDocument() : documents.document()
        random = documents.remainingRandom
        var members: [(String, FuzzJSON)] = [("query", .string(document.text))]
        var mustRefuse = document.mustRefuse
        if let variables = document.variables { members.append(("variables", variables)) }
        if let name = document.operationName { members.append(("operationName", .string(name))) }
        switch random.int(0...49) {
        case 0:
            members.removeFirst()
            mustRefuse = "no query"
        case 1:
            members[0].1 = random.pick([.int(42), .null, .array([]), .string("")])
            mustRefuse = "query is not a non-empty string"
        default:
            break
        }
        return FuzzRequest(
            endpoint: .executeGraphql, body: FuzzJSON.object(members).bytes,
            kind: damaged ? "damaged admin document" : "admin document", mustRefuse: mustRefuse)
    }

    // MARK: Connector calls

    private func connectorRequest(_ random: inout FuzzRandom) -> FuzzRequest {
        var refusals: [String] = []
        let unknown = random.chance(0.1)
        let operation = random.pick(operations)
        let operationName =
            unknown
            ? random.pick([
                "listMovie", "ListMovies", "nope", "listMovies ", "🎬", String(repeating: "q", count: 5_000), "a\u{0}b",
            ]) : operation.name
        if unknown { refusals.append("unknown operation \(operationName.prefix(40))") }

        var endpoint: FuzzRequest.Endpoint = operation.isMutation ? .executeMutation : .executeQuery
        if random.chance(0.1) {
            endpoint = operation.isMutation ? .executeQuery : .executeMutation
            if !unknown { refusals.append("\(operation.name) sent to :\(endpoint.rawValue)") }
        }

        var members: [(String, FuzzJSON)] = []
        switch random.int(0...29) {
        case 0: refusals.append("no name")
        case 1:
            members.append(("name", .int(7)))
            refusals.append("name is not a string")
        case 2: members.append(("name", .string(random.pick(["", "whatever", "projects/x"]))))
        default: members.append(("name", .string("projects/p/locations/l/services/movies/connectors/movies")))
        }
        switch random.int(0...29) {
        case 0: refusals.append("no operationName")
        case 1:
            members.append(("operationName", random.pick([.int(1), .null, .array([.string(operation.name)])])))
            refusals.append("operationName is not a string")
        case 2:
            members.append(("operationName", .string("")))
            refusals.append("operationName is empty")
        default: members.append(("operationName", .string(operationName)))
        }
        var variableRefusals: [String] = []
        var variables = variablesObject(for: operation, &random, refusals: &variableRefusals)
        switch random.int(0...29) {
        case 0:
            refusals.append("no variables")
            variables = nil
        case 1:
            if operation.variables.contains(where: { $0.type.isNonNull && !$0.hasDefault }) {
                refusals.append("variables null with required variables")
            }
            variables = .null
        case 2:
            variables = random.pick([.array([]), .string("{}"), .int(0)])
            refusals.append("variables is not an object")
        default:
            refusals += variableRefusals
        }
        if let variables { members.append(("variables", variables)) }
        if random.chance(0.05) { members.append(("extensions", randomJSON(&random, depth: 2))) }
        if random.chance(0.03) { members.shuffle(using: &random) }

        var headers: [String: String] = [:]
        switch random.int(0...19) {
        case 0..<5: headers["X-Firebase-Auth-Token"] = Self.token(uid: "uid-fuzz-\(random.int(0...9))")
        case 5: headers["X-Firebase-Auth-Token"] = "Bearer " + Self.token(uid: "uid-fuzz-bearer")
        case 6:
            headers["X-Firebase-Auth-Token"] = random.pick(["garbage", "a.b.c", "e30.e30."])
            refusals.append("an auth token that is not a JWT with a sub")
        default: break
        }
        if operation.requiresUser && !unknown && headers["X-Firebase-Auth-Token"] == nil {
            refusals.append("\(operation.name) needs a signed-in user")
        }
        return FuzzRequest(
            endpoint: endpoint, body: FuzzJSON.object(members).bytes, headers: headers, kind: "connector",
            mustRefuse: refusals.first)
    }

    /// Variables for `operation`: mostly right, sometimes absent, null or of the wrong type (noting why the call
    /// must then be refused), plus now and then an unknown one.
    private func variablesObject(
        for operation: ConnectorOperation, _ random: inout FuzzRandom, refusals: inout [String]
    ) -> FuzzJSON? {
        var members: [(String, FuzzJSON)] = []
        for variable in operation.variables {
            let required = variable.type.isNonNull && !variable.hasDefault
            switch random.int(0...99) {
            case 0..<8:
                if required { refusals.append("required $\(variable.name) missing") }
            case 8..<13:
                if variable.type.isNonNull { refusals.append("null for $\(variable.name): \(variable.type)") }
                members.append((variable.name, .null))
            case 13..<28:
                if let (wrong, why) = wrongValue(variable.type, &random) {
                    refusals.append("$\(variable.name): \(variable.type) given \(why)")
                    members.append((variable.name, wrong))
                } else {
                    members.append((variable.name, rightValue(variable.type, &random)))
                }
            default:
                members.append((variable.name, rightValue(variable.type, &random)))
            }
        }
        if random.chance(0.1) { members.append(("unknown\(random.int(0...9))", randomJSON(&random, depth: 3))) }
        return .object(members)
    }

    private func rightValue(_ type: TypeReference, _ random: inout FuzzRandom) -> FuzzJSON {
        switch type {
        case .nonNull(let inner, _): return rightValue(inner, &random)
        case .list(let element, _): return .array((0..<random.int(0...4)).map { _ in rightValue(element, &random) })
        case .named(let name):
            switch name.value {
            case "String":
                return .string(random.pick(MoviesDocumentGenerator.strings + [String(repeating: "é", count: 40_000)]))
            case "Int":
                return .number(random.pick(["0", "-0", "1", "-1", "1977", "2147483647", "-2147483648", "5"]))
            case "Int64":
                return random.pick([
                    .string("9223372036854775807"), .string("-9223372036854775808"), .int(42), .string("0"),
                ])
            case "Float": return .number(random.pick(["1.5", "-0.0", "1e308", "-1e-308", "3", "0", "2.5E+2"]))
            case "Boolean": return .bool(random.chance(0.5))
            case "UUID":
                let id = random.chance(0.7) ? random.pick(knownIDs) : random.uuid()
                return .string(random.chance(0.1) ? id.uppercased() : id)
            case "Date": return .string(random.pick(["2024-02-29", "1977-05-25", "0001-01-01", "9999-12-31"]))
            case "Timestamp":
                return .string(random.pick(["2024-05-01T10:00:00Z", "2024-05-01T12:00:00.123456789+02:00"]))
            case "Any": return randomJSON(&random, depth: random.chance(0.1) ? 60 : 4)
            case "AspectRatio": return .string(random.pick(["ACADEMY", "WIDESCREEN", "ANAMORPHIC"]))
            case "OrderDirection": return .string(random.pick(["ASC", "DESC"]))
            case "Movie_Key": return .object([("id", .string(random.pick(knownIDs)))])
            default: return .string("x")
            }
        }
    }

    /// A value `type` does not accept, with a description; `nil` when every value fits (`Any`).
    private func wrongValue(_ type: TypeReference, _ random: inout FuzzRandom) -> (FuzzJSON, String)? {
        switch type {
        case .nonNull(let inner, _): return wrongValue(inner, &random)
        case .list(let element, _):
            guard let (wrong, why) = wrongValue(element, &random) else { return nil }
            return (.array([rightValue(element, &random), wrong]), "a list holding \(why)")
        case .named(let name):
            let choices: [FuzzJSON]
            switch name.value {
            case "String": choices = [.int(5), .bool(true), .object([]), .array([.string("a")])]
            case "Int":
                choices = [
                    .string("12"), .number("1.5"), .number("2147483648"), .number("-2147483649"), .number("1e999"),
                    .number("9223372036854775808"), .bool(true), .object([]),
                ]
            case "Int64":
                choices = [
                    .string("abc"), .string("9223372036854775808"), .number("1.5"), .bool(false), .string("1.5"),
                ]
            case "Float": choices = [.string("1.5"), .bool(true), .number("1e999"), .number("-1e999"), .object([])]
            case "Boolean": choices = [.string("true"), .int(1), .array([])]
            case "UUID":
                choices = [
                    .string("not-a-uuid"), .int(42), .string("252ff53a-a807-5c12-840b-96bff4798d7"), .string(""),
                    .string("252ff53a-a807-5c12-840b-96bff4798d7g"),
                ]
            case "Date":
                choices = [.string("2024-02-30"), .string("yesterday"), .int(20_240_101), .string("2023-02-29")]
            case "Timestamp": choices = [.string("2024-13-01T00:00:00Z"), .string("now"), .int(0)]
            case "AspectRatio", "OrderDirection": choices = [.string("SQUARE"), .string("asc"), .int(1)]
            case "Movie_Key":
                choices = [
                    .object([("id", .string("nope"))]), .object([("idd", .string(random.pick(knownIDs)))]),
                    .string(random.pick(knownIDs)), .object([]),
                    .object([("id_expr", .string("uuidV4()"))]),
                ]
            default: return nil
            }
            let wrong = random.pick(choices)
            return (wrong, wrong.text.count > 60 ? String(wrong.text.prefix(60)) + "…" : wrong.text)
        }
    }

    /// Any JSON: scalars with extreme numbers and odd strings, nested arrays and objects up to `depth`.
    private func randomJSON(_ random: inout FuzzRandom, depth: Int) -> FuzzJSON {
        switch random.int(0...(depth > 0 ? 9 : 5)) {
        case 0: return .null
        case 1: return .bool(random.chance(0.5))
        case 2:
            return .number(
                random.pick([
                    "0", "-0", "1e308", "-1e-400", "123456789012345678901234567890", "0.1", "9007199254740993",
                    "-9223372036854775809", "1E2",
                ]))
        case 3, 4: return .string(random.pick(MoviesDocumentGenerator.strings))
        case 5: return .array([])
        case 6, 7: return .array((0..<random.int(1...3)).map { _ in randomJSON(&random, depth: depth - 1) })
        default:
            return .object((0..<random.int(1...3)).map { ("k\($0)", randomJSON(&random, depth: depth - 1)) })
        }
    }

    /// An unsigned ID token the emulator decodes (it does not verify signatures).
    static func token(uid: String) -> String {
        func base64URL(_ text: String) -> String { Base64.url.encode(Array(text.utf8)) }
        let claims = #"{"sub":"\#(uid)","user_id":"\#(uid)","iat":1700000000,"exp":4102444800}"#
        return base64URL(#"{"alg":"none","typ":"JWT"}"#) + "." + base64URL(claims) + "."
    }

    // MARK: Malformed JSON

    /// A body that is not a valid JSON request: truncated, followed by garbage, with invalid UTF-8, not an object;
    /// or valid but extreme (deeply nested, huge numbers), which the emulator may accept or refuse.
    private func malformedRequest(_ random: inout FuzzRandom) -> FuzzRequest {
        let admin = random.chance(0.3)
        let valid: FuzzJSON =
            admin
            ? .object([("query", .string("query { movies(limit: 2) { title } }"))])
            : .object([
                ("name", .string("projects/p/locations/l/services/movies/connectors/movies")),
                ("operationName", .string("listMoviesByGenre")), ("variables", .object([("genre", .string("Drama"))])),
            ])
        var body = valid.bytes
        var mustRefuse: String?
        switch random.int(0...9) {
        case 0:
            body = Array(body.prefix(random.int(0...(body.count - 1))))
            mustRefuse = "truncated JSON"
        case 1:
            body += Array(random.pick(["x", "}", ",", "{}", "]", "\u{0}", "null", "\"", "/*"]).utf8)
            mustRefuse = "garbage after the JSON value"
        case 2:
            let invalid: [UInt8] = random.pick([
                [0xFF], [0xC3, 0x28], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
            ])
            body.insert(contentsOf: invalid, at: random.int(1...(body.count - 1)))
            mustRefuse = "invalid UTF-8"
        case 3:
            body = Array(random.pick(["", "null", "[]", "\"x\"", "42", "{", "true", "[{}]"]).utf8)
            mustRefuse = "not a JSON object"
        case 4:
            let literal = random.pick([
                "NaN", "Infinity", "-Infinity", "01", "+1", ".5", "1.", "0x10", "'x'", "undefined",
            ])
            body =
                admin
                ? Array(#"{"query": "query { movies { title } }", "variables": \#(literal)}"#.utf8)
                : Array(
                    #"{"name": "n", "operationName": "listMoviesByGenre", "variables": {"genre": \#(literal)}}"#.utf8)
            mustRefuse = "\(literal) is not a JSON value"
        case 5:
            let depth = random.int(100...200_000)
            let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            body = Array(
                #"{"name": "n", "operationName": "listMovies", "variables": {"deep": \#(nested)}}"#.utf8)
        case 6:
            let depth = random.int(100...100_000)
            let nested = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
            body = Array(nested.utf8)
            mustRefuse = "nested objects without the request members"
        case 7:
            body = Array(#"{"name": "n", "operationName": "listMoviesByGenre", "variables": {"genre": "\ud800"}}"#.utf8)
        case 8:
            body = Array(#"{"name": "n", "name": 5, "operationName": "listMovies", "variables": {}}"#.utf8)
        default:
            let number = random.pick(["1e999", "-1e999", "1" + String(repeating: "0", count: 5_000), "-0", "1e-999"])
            body = Array(
                #"{"name": "n", "operationName": "listMoviesPaged", "variables": {"limit": \#(number)}}"#.utf8)
            if number != "-0" && number != "1e-999" { mustRefuse = "$limit: Int given \(number.prefix(20))" }
        }
        let endpoint: FuzzRequest.Endpoint = admin ? .executeGraphql : .executeQuery
        return FuzzRequest(endpoint: endpoint, body: body, kind: "malformed JSON", mustRefuse: mustRefuse)
    }
}
