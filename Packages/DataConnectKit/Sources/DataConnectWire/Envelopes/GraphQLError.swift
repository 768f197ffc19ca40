/// An execution error in a GraphQL response's `errors` list.
///
/// Execution errors travel with HTTP 200 beside (possibly partial) `data`:
///
/// ```json
/// {"message": "duplicate key value violates unique constraint", "path": ["second"],
///  "extensions": {"code": "ALREADY_EXISTS", "debugDetails": "…"}}
/// ```
///
/// ```swift
/// let error = GraphQLError(message: "not found", path: ["movie"], code: .notFound)
/// error.toJSON().description
/// // {"message":"not found","path":["movie"],"extensions":{"code":"NOT_FOUND"}}
/// ```
public struct GraphQLError: Error, Hashable, Sendable {
    /// A position in a GraphQL source document.
    public struct SourceLocation: Hashable, Sendable {
        /// The 1-based line.
        public var line: Int
        /// The 1-based column.
        public var column: Int

        /// Creates a location.
        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }
    }

    /// The `extensions` of an error.
    public struct Extensions: Hashable, Sendable {
        /// The canonical code; absent on the wire means `INTERNAL` (see ``GraphQLError/effectiveCode``).
        ///
        /// A name this library does not know reads as `UNKNOWN`.
        public var code: StatusCode?
        /// Details for developers; filled by the emulator, hidden in production.
        public var debugDetails: String?
        /// The warning level, e.g. `LOG_ONLY`, when the error is a warning.
        public var warningLevel: String?
        /// Any other members, kept in order so that reading and writing loses nothing.
        public var other: JSONObject

        /// Creates extensions.
        public init(
            code: StatusCode? = nil, debugDetails: String? = nil, warningLevel: String? = nil, other: JSONObject = [:]
        ) {
            self.code = code
            self.debugDetails = debugDetails
            self.warningLevel = warningLevel
            self.other = other
        }

        /// Whether there is nothing to write.
        public var isEmpty: Bool {
            code == nil && debugDetails == nil && warningLevel == nil && other.isEmpty
        }
    }

    /// The human-readable message.
    public var message: String
    /// Source locations; only admin endpoints fill them.
    public var locations: [SourceLocation]
    /// The path of the response field the error belongs to; empty for errors not tied to a field.
    public var path: [PathSegment]
    /// The extensions; `nil` when absent.
    public var extensions: Extensions?

    /// Creates an error.
    public init(
        message: String, path: [PathSegment] = [], locations: [SourceLocation] = [], extensions: Extensions? = nil
    ) {
        self.message = message
        self.path = path
        self.locations = locations
        self.extensions = extensions
    }

    /// Creates an error with a code and optional debug details.
    public init(message: String, path: [PathSegment] = [], code: StatusCode, debugDetails: String? = nil) {
        self.init(message: message, path: path, extensions: Extensions(code: code, debugDetails: debugDetails))
    }

    /// The code, reading an absent code as `INTERNAL`, as the protocol specifies.
    public var effectiveCode: StatusCode {
        extensions?.code ?? .internal
    }

    /// Reads an error object.
    ///
    /// - Throws: ``WireFormatError`` when `message` is missing or a member has the wrong type.
    public init(json: JSONValue) throws(WireFormatError) {
        try self.init(json: json, path: "")
    }

    init(json: JSONValue, path fieldPath: String) throws(WireFormatError) {
        let fields = try WireFields(json, path: fieldPath, what: "an error")
        message = try fields.string("message")
        path = try PathSegment.path(from: fields.optionalArray("path") ?? [], at: fields.fieldPath("path"))
        locations = []
        for (position, location) in (try fields.optionalArray("locations") ?? []).enumerated() {
            let locationFields = try WireFields(
                location, path: fields.fieldPath("locations") + "[\(position)]", what: "a location"
            )
            locations.append(
                SourceLocation(
                    line: try locationFields.optionalInt("line") ?? 0,
                    column: try locationFields.optionalInt("column") ?? 0
                )
            )
        }
        if let extensionsObject = try fields.optionalObject("extensions") {
            let extensionFields = WireFields(object: extensionsObject, path: fields.fieldPath("extensions"))
            var other = extensionsObject
            other.removeValue(forKey: "code")
            other.removeValue(forKey: "debugDetails")
            other.removeValue(forKey: "warningLevel")
            extensions = Extensions(
                code: try extensionFields.optionalString("code").map { StatusCode(name: $0) ?? .unknown },
                debugDetails: try extensionFields.optionalString("debugDetails"),
                warningLevel: try extensionFields.optionalString("warningLevel"),
                other: other
            )
        } else {
            extensions = nil
        }
    }

    /// The error as JSON: `message`, then `locations` and `path` when not empty, then `extensions` when present.
    public func toJSON() -> JSONValue {
        var object: JSONObject = ["message": .string(message)]
        if !locations.isEmpty {
            object["locations"] = .array(
                locations.map { ["line": JSONValue($0.line), "column": JSONValue($0.column)] }
            )
        }
        if !path.isEmpty {
            object["path"] = .array(path.map(\.jsonValue))
        }
        if let extensions {
            var members = JSONObject()
            if let code = extensions.code {
                members["code"] = .string(code.name)
            }
            if let debugDetails = extensions.debugDetails {
                members["debugDetails"] = .string(debugDetails)
            }
            if let warningLevel = extensions.warningLevel {
                members["warningLevel"] = .string(warningLevel)
            }
            for entry in extensions.other where members[entry.key] == nil {
                members[entry.key] = entry.value
            }
            object["extensions"] = .object(members)
        }
        return .object(object)
    }

    /// Writes the error as one JSON object, as ``toJSON()`` builds it.
    public func write(to writer: inout JSONWriter) {
        writer.write(toJSON())
    }
}

extension GraphQLError: CustomStringConvertible {
    /// The message, prefixed by the code and followed by the path when there is one.
    public var description: String {
        let place = path.isEmpty ? "" : " (at \(path.map(\.description).joined(separator: ".")))"
        return "\(effectiveCode.name): \(message)\(place)"
    }
}
