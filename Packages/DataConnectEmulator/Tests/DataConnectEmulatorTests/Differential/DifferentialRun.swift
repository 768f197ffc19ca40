import DataConnectEngine
import DataConnectWire
import EmulatorTesting
import Foundation
import GraphQLLanguage

/// A backend served twice, from SQLite in memory and from a fresh PostgreSQL schema, both seeded from the same
/// file: each call goes to both engines in-process and the two answers are compared.
///
/// Two answers agree when they have the same status; for a request-level error, the same error status; for a
/// GraphQL response, the same error codes at the same paths and the same `data` once normalised:
/// - keys the PostgreSQL side generated (`uuidV4()`) are replaced by the ones SQLite generated for the same
///   mutation field, in that answer and every later one (and SQLite's keys in later variables by PostgreSQL's);
/// - timestamps and dates between the start of the run and now (`request.time`, `{today: true}`) become
///   `<request.time>`: the two databases ran the request at two instants;
/// - lists are compared as ``ResponseShape`` reads the operation: without `orderBy` as multisets, with it in
///   order of its keys, rows that tie on every key as multisets.
/// Error messages are not compared (the databases word constraint failures differently): ``wordings`` keeps the
/// pairs that differ; nor is the text of equal answers (``spellings`` keeps one example per operation).
final class DifferentialRun {
    /// The backend on SQLite.
    let sqlite: TestEmulator
    /// The same backend on PostgreSQL.
    let postgreSQL: TestEmulator
    /// Every connector operation of the backend, by `connector/name`, with its connector's fragments.
    let declared: [String: (operation: OperationDefinition, fragments: [String: FragmentDefinition])]
    /// The requests sent to each database.
    private(set) var requests = 0
    /// One line per request whose answers differ.
    private(set) var differences: [String] = []
    /// Error messages that differ while the codes agree, each pair once: `operation: SQLite … | PostgreSQL …`.
    private(set) var wordings: [String] = []
    /// Per operation, the first answer that is equal as JSON but not as text: the order of the keys of an object,
    /// or the spelling of a number (`5.0` and `5`).
    private(set) var spellings: [String] = []
    private var spelledOperations: Set<String> = []

    /// PostgreSQL's generated keys mapped to SQLite's, learnt from mutation answers.
    private var generatedKeys: [String: String] = [:]
    /// SQLite's generated keys mapped to PostgreSQL's, for variables.
    private var generatedKeysBack: [String: String] = [:]
    /// The first second `request.time` may take.
    private let windowStart: String

    /// Starts both emulators, in-process, seeded from the backend's seed file.
    ///
    /// - Throws: ``EmulatorError`` when the backend does not compile, the seed fails or PostgreSQL cannot start.
    init(backend: DifferentialBackend) throws {
        windowStart = Self.secondText(Date().addingTimeInterval(-60))
        let directory = Repository.root + "/" + backend.path
        let seedFile = directory + "/seed_data.gql"
        sqlite = try TestEmulator(backend: directory, seedFile: seedFile, mode: .inProcess, database: .sqlite)
        postgreSQL = try TestEmulator(backend: directory, seedFile: seedFile, mode: .inProcess, database: .postgreSQL)
        var declared: [String: (operation: OperationDefinition, fragments: [String: FragmentDefinition])] = [:]
        for connector in sqlite.emulator.engine.service.connectors {
            let id = connector.sources.manifest.connectorId
            for operation in connector.validated.operations {
                guard let name = operation.name?.value else { continue }
                declared[id + "/" + name] = (operation, connector.validated.fragments)
            }
        }
        self.declared = declared
    }

    /// Runs the queries, then each mutation followed by the queries again.
    func run(_ script: DifferentialScript) {
        for query in script.queries { run(query) }
        for mutation in script.mutations {
            run(mutation)
            for query in script.queries { run(query) }
        }
    }

    /// Sends one call to both databases and compares the answers.
    func run(_ call: DifferentialCall) {
        guard let (operation, fragments) = declared[call.operationID] else {
            differences.append("\(call): no such operation in the backend's connectors")
            return
        }
        let isMutation = operation.operation == .mutation
        requests += 1
        let expected = Self.send(call, variables: call.variables, mutation: isMutation, to: sqlite)
        let backVariables = JSONValue.object(call.variables).mappingStrings { self.generatedKeysBack[$0] ?? $0 }
        let actual = Self.send(
            call, variables: backVariables.objectValue ?? call.variables, mutation: isMutation, to: postgreSQL)

        var problems: [String] = []
        if expected.status != actual.status {
            problems.append("status \(expected.status.name) on SQLite, \(actual.status.name) on PostgreSQL")
        }
        if expected.status != .ok || actual.status != .ok {
            compareRequestErrors(call, expected.body, actual.body, into: &problems)
        } else {
            compareGraphQLErrors(call, expected.body["errors"], actual.body["errors"], into: &problems)
            if (expected.body["data"] == nil) != (actual.body["data"] == nil) {
                problems.append("`data` is absent from one answer only")
            }
            if isMutation { learnGeneratedKeys(expected.body["data"] ?? .null, actual.body["data"] ?? .null) }
            let shape = ResponseShape(operation: operation, fragments: fragments, variables: call.variables)
            let sqliteData = shape.canonical(normalised(expected.body["data"] ?? .null))
            let postgreSQLData = shape.canonical(
                normalised((actual.body["data"] ?? .null).mappingStrings { self.generatedKeys[$0] ?? $0 }))
            if sqliteData != postgreSQLData {
                problems.append(
                    "data differs\n  SQLite:     \(sqliteData.jsonString())\n  PostgreSQL: \(postgreSQLData.jsonString())"
                )
            } else if sqliteData.jsonString() != postgreSQLData.jsonString(),
                spelledOperations.insert(call.operationID).inserted
            {
                spellings.append(
                    "\(call)\n  SQLite:     \(sqliteData.jsonString())\n  PostgreSQL: \(postgreSQLData.jsonString())")
            }
        }
        if !problems.isEmpty {
            differences.append("request \(requests), \(call): " + problems.joined(separator: "; "))
        }
    }

    // MARK: Sending

    private static func send(
        _ call: DifferentialCall, variables: JSONObject, mutation: Bool, to emulator: TestEmulator
    ) -> (status: StatusCode, body: JSONValue) {
        let response = emulator.emulator.engine.execute(
            EngineRequest(
                kind: .connector(connector: call.connector, operationName: call.operation, mutation: mutation),
                variables: variables, auth: call.caller))
        let body = (try? JSONValue(parsing: response.body)) ?? .string(String(decoding: response.body, as: UTF8.self))
        return (response.status, body)
    }

    // MARK: Errors

    /// `{"error": {"code", "message", "status"}}`: the same status; the message may differ.
    private func compareRequestErrors(
        _ call: DifferentialCall, _ expected: JSONValue, _ actual: JSONValue, into problems: inout [String]
    ) {
        let expectedStatus = expected["error"]?["status"]
        let actualStatus = actual["error"]?["status"]
        if expectedStatus != actualStatus {
            problems.append(
                "error \(expectedStatus?.description ?? "none") on SQLite, \(actualStatus?.description ?? "none") on PostgreSQL"
            )
        }
        noteWording(
            call, expectedStatus?.stringValue ?? "", expected["error"]?["message"], actual["error"]?["message"])
    }

    /// GraphQL `errors`: the same codes at the same paths, in any order; messages may differ.
    private func compareGraphQLErrors(
        _ call: DifferentialCall, _ expected: JSONValue?, _ actual: JSONValue?, into problems: inout [String]
    ) {
        let expectedErrors = Self.signedErrors(expected)
        let actualErrors = Self.signedErrors(actual)
        let expectedSignatures = expectedErrors.map(\.signature)
        let actualSignatures = actualErrors.map(\.signature)
        if expectedSignatures != actualSignatures {
            problems.append("errors \(expectedSignatures) on SQLite, \(actualSignatures) on PostgreSQL")
            return
        }
        for (left, right) in zip(expectedErrors, actualErrors) {
            noteWording(call, left.signature, left.message, right.message)
        }
    }

    /// Each error as `path code`, sorted, with its message.
    private static func signedErrors(_ errors: JSONValue?) -> [(signature: String, message: JSONValue?)] {
        (errors?.arrayValue ?? [])
            .map { error in
                let path = error["path"]?.jsonString() ?? "[]"
                let code = error["extensions"]?["code"]?.stringValue ?? "no code"
                return (path + " " + code, error["message"])
            }
            .sorted { $0.signature < $1.signature }
    }

    private func noteWording(
        _ call: DifferentialCall, _ code: String, _ expected: JSONValue?, _ actual: JSONValue?
    ) {
        guard expected != actual else { return }
        let wording =
            "\(call.operationID) \(code): SQLite \(expected?.description ?? "none") | PostgreSQL \(actual?.description ?? "none")"
        if !wordings.contains(wording) { wordings.append(wording) }
    }

    // MARK: Normalising

    /// Pairs up keys both databases generated for the same mutation field.
    private func learnGeneratedKeys(_ expected: JSONValue, _ actual: JSONValue) {
        switch (expected, actual) {
        case (.string(let sqliteKey), .string(let postgreSQLKey)):
            guard sqliteKey != postgreSQLKey, Self.isUUID(sqliteKey), Self.isUUID(postgreSQLKey),
                generatedKeys[postgreSQLKey] == nil, generatedKeysBack[sqliteKey] == nil
            else { return }
            generatedKeys[postgreSQLKey] = sqliteKey
            generatedKeysBack[sqliteKey] = postgreSQLKey
        case (.array(let left), .array(let right)):
            for (l, r) in zip(left, right) { learnGeneratedKeys(l, r) }
        case (.object(let left), .object(let right)):
            for (key, value) in left {
                if let other = right[key] { learnGeneratedKeys(value, other) }
            }
        default:
            return
        }
    }

    /// The value with each `_metadata` rank made comparable across the databases: a relevance (computed by
    /// `bm25` on one, `ts_rank` on the other) becomes `<relevance>`, and a distance is rounded to nine significant
    /// digits.
    static func maskingRanks(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let items):
            return .array(items.map(maskingRanks))
        case .object(var object):
            for (key, child) in object {
                if key == "_metadata", case .object(var metadata) = child {
                    if let relevance = metadata["relevance"], !relevance.isNull {
                        metadata["relevance"] = "<relevance>"
                    }
                    if let distance = metadata["distance"]?.doubleValue {
                        metadata["distance"] = .number(JSONNumber(Double(String(format: "%.9g", distance)) ?? distance))
                    }
                    object[key] = .object(metadata)
                } else {
                    object[key] = maskingRanks(child)
                }
            }
            return .object(object)
        default:
            return value
        }
    }

    /// The value with every timestamp and date that `request.time` may have produced in this run replaced, and
    /// its ranks masked (``maskingRanks(_:)``).
    private func normalised(_ value: JSONValue) -> JSONValue {
        let windowEnd = Self.secondText(Date().addingTimeInterval(60))
        let firstDay = String(windowStart.prefix(10))
        let lastDay = String(windowEnd.prefix(10))
        return Self.maskingRanks(value).mappingStrings { text in
            let characters = Array(text.utf8)
            if characters.count == 10, Self.isDate(characters) {
                return text >= firstDay && text <= lastDay ? "<request.time>" : text
            }
            if characters.count >= 20, Self.isDate(characters[0..<10]), characters[10] == UInt8(ascii: "T"),
                characters.last == UInt8(ascii: "Z")
            {
                let second = String(text.prefix(19))
                return second >= windowStart && second <= windowEnd ? "<request.time>" : text
            }
            return text
        }
    }

    /// `YYYY-MM-DDTHH:MM:SS` in UTC.
    private static func secondText(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return String(formatter.string(from: date).prefix(19))
    }

    private static func isDate<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        guard bytes.count == 10 else { return false }
        for (offset, byte) in bytes.enumerated() {
            let isDash = offset == 4 || offset == 7
            if isDash ? byte != UInt8(ascii: "-") : !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                return false
            }
        }
        return true
    }

    /// 32 hexadecimal digits, as the wire writes UUIDs, or the dashed form.
    private static func isUUID(_ text: String) -> Bool {
        let digits = text.utf8.filter { $0 != UInt8(ascii: "-") }
        return digits.count == 32 && digits.allSatisfy { Character(UnicodeScalar($0)).isHexDigit }
    }
}
