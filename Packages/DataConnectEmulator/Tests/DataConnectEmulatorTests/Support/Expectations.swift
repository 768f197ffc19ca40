import DataConnectWire
import Foundation
import Testing

/// The names of the operations a connector folder declares (`query name` / `mutation name`), read from its
/// `.gql` files.
func declaredOperations(inConnectorFolder folder: String) throws -> Set<String> {
    let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".gql") }
    var names: Set<String> = []
    for file in files {
        let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
        // Operations start at the beginning of a line; `query @redact { … }` inside a mutation is indented.
        for line in text.split(separator: "\n") where line.first?.isWhitespace == false {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "(" || $0 == "{" })
            guard words.count >= 2, words[0] == "query" || words[0] == "mutation" else { continue }
            names.insert(String(words[1]))
        }
    }
    return names
}

/// Expects a GraphQL response: HTTP 200, JSON, no errors; returns `data`.
@discardableResult
func expectData(_ result: HTTPResult, sourceLocation: SourceLocation = #_sourceLocation) -> JSONValue {
    #expect(result.status == 200, "\(result)", sourceLocation: sourceLocation)
    #expect(result.contentType?.hasPrefix("application/json") == true, "\(result)", sourceLocation: sourceLocation)
    #expect(result.errors.isEmpty, "\(result)", sourceLocation: sourceLocation)
    return result.data ?? .null
}

/// Expects a request-level failure in the production shape `{"error": {"code", "message", "status"}}`.
func expectRequestError(
    _ result: HTTPResult, _ httpStatus: Int, _ status: String, messageContains fragments: [String] = [],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(result.status == httpStatus, "\(result)", sourceLocation: sourceLocation)
    #expect(result.contentType?.hasPrefix("application/json") == true, "\(result)", sourceLocation: sourceLocation)
    let error = result.json["error"]
    #expect(error?["code"]?.intValue == httpStatus, "\(result)", sourceLocation: sourceLocation)
    #expect(error?["status"]?.stringValue == status, "\(result)", sourceLocation: sourceLocation)
    #expect(result.errorMessage.isEmpty == false, "\(result)", sourceLocation: sourceLocation)
    #expect(result.json["data"] == nil, "a request-level error has no data: \(result)", sourceLocation: sourceLocation)
    for fragment in fragments {
        #expect(
            result.errorMessage.contains(fragment), "message should name \"\(fragment)\": \(result)",
            sourceLocation: sourceLocation)
    }
}

/// The strings of an array value (its non-string elements dropped).
func strings(_ value: JSONValue?) -> [String] {
    value?.arrayValue?.compactMap(\.stringValue) ?? []
}

/// One field of every element of an array value.
func column(_ value: JSONValue?, _ key: String) -> [JSONValue] {
    value?.arrayValue?.compactMap { $0[key] } ?? []
}

/// Whether two doubles agree to the given relative tolerance.
func approximately(_ a: Double?, _ b: Double, tolerance: Double = 1e-9) -> Bool {
    guard let a else { return false }
    return abs(a - b) <= tolerance * max(1, abs(b))
}

/// The strings among values.
func strings(_ values: [JSONValue]) -> [String] {
    values.compactMap(\.stringValue)
}

/// One field of each of the values.
func column(_ values: [JSONValue], _ key: String) -> [JSONValue] {
    values.compactMap { $0[key] }
}
