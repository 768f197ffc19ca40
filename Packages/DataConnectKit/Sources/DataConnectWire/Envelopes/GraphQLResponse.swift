/// The body of a successful (HTTP 200) execution: `data`, `errors` and `extensions.dataConnect`.
///
/// ```json
/// {"data": {"movies": [{"id": "m1", "title": "Alien"}]},
///  "errors": [],
///  "extensions": {"dataConnect": [{"path": ["movies"], "entityIds": ["m1"], "action": "LIST"}]}}
/// ```
///
/// `data` may be partial when `errors` is not empty. A missing `errors` reads as `[]` and a missing
/// `extensions` as `{"dataConnect": []}`; other members of `extensions` are not kept.
///
/// ```swift
/// let response = try GraphQLResponse(json: JSONValue(parsing: body))
/// if response.errors.isEmpty, let movies = response.data?["movies"] { ... }
/// ```
public struct GraphQLResponse: Hashable, Sendable {
    /// The response's `extensions`.
    public struct Extensions: Hashable, Sendable {
        /// Entity ids and actions per path.
        public var dataConnect: [DataConnectProperties]

        /// Creates extensions.
        public init(dataConnect: [DataConnectProperties] = []) {
            self.dataConnect = dataConnect
        }
    }

    /// The result; `nil` when the member is absent, ``JSONValue/null`` when it is `null`.
    public var data: JSONValue?
    /// Execution errors.
    public var errors: [GraphQLError]
    /// Data Connect metadata.
    public var extensions: Extensions

    /// Creates a response.
    public init(data: JSONValue?, errors: [GraphQLError] = [], extensions: Extensions = Extensions()) {
        self.data = data
        self.errors = errors
        self.extensions = extensions
    }

    /// Reads a response body.
    ///
    /// - Throws: ``WireFormatError`` when the body is not an object or a member has the wrong shape.
    public init(json: JSONValue) throws(WireFormatError) {
        let fields = try WireFields(json, what: "a response")
        data = fields.object["data"]
        errors = []
        for (position, error) in (try fields.optionalArray("errors") ?? []).enumerated() {
            errors.append(try GraphQLError(json: error, path: "errors[\(position)]"))
        }
        var dataConnect: [DataConnectProperties] = []
        if let extensionsObject = try fields.optionalObject("extensions") {
            let extensionFields = WireFields(object: extensionsObject, path: "extensions")
            for (position, item) in (try extensionFields.optionalArray("dataConnect") ?? []).enumerated() {
                dataConnect.append(try DataConnectProperties(json: item, path: "extensions.dataConnect[\(position)]"))
            }
        }
        extensions = Extensions(dataConnect: dataConnect)
    }

    /// The response as JSON: `data` when present, then `errors` and `extensions`, always.
    public func toJSON() -> JSONValue {
        var object = JSONObject()
        if let data {
            object["data"] = data
        }
        object["errors"] = .array(errors.map { $0.toJSON() })
        object["extensions"] = ["dataConnect": .array(extensions.dataConnect.map { $0.toJSON() })]
        return .object(object)
    }

    /// Writes the response as one JSON object, in the order of ``toJSON()``.
    public func write(to writer: inout JSONWriter) {
        Self.write(to: &writer, errors: errors, dataConnect: extensions.dataConnect) { writer in
            if let data {
                writer.key("data")
                writer.write(data)
            }
        }
    }

    /// Writes a response whose `data` member is produced by `writeData`, for servers that write results
    /// straight from storage.
    ///
    /// `writeData` writes the `data` key and its value, or nothing to leave `data` out.
    ///
    /// ```swift
    /// GraphQLResponse.write(to: &writer, errors: [], dataConnect: properties) { writer in
    ///     writer.key("data")
    ///     writer.raw(resultBytes)
    /// }
    /// ```
    public static func write(
        to writer: inout JSONWriter, errors: [GraphQLError], dataConnect: [DataConnectProperties],
        data writeData: (inout JSONWriter) -> Void
    ) {
        write(to: &writer, errors: errors) { writer in
            for properties in dataConnect {
                properties.write(to: &writer)
            }
        } data: {
            writeData(&$0)
        }
    }

    /// Writes a response whose `data` member and `extensions.dataConnect` elements are produced by closures,
    /// for servers that write both straight from storage.
    ///
    /// `writeDataConnect` writes the elements of the `dataConnect` array (each one object, for example with
    /// ``DataConnectProperties/write(to:)``, or `raw` for objects already encoded); `writeData`
    /// writes the `data` key and its value, or nothing to leave `data` out.
    public static func write(
        to writer: inout JSONWriter, errors: [GraphQLError],
        dataConnect writeDataConnect: (inout JSONWriter) -> Void,
        data writeData: (inout JSONWriter) -> Void
    ) {
        writer.beginObject()
        writeData(&writer)
        writer.key("errors")
        writer.beginArray()
        for error in errors {
            error.write(to: &writer)
        }
        writer.endArray()
        writer.key("extensions")
        writer.beginObject()
        writer.key("dataConnect")
        writer.beginArray()
        writeDataConnect(&writer)
        writer.endArray()
        writer.endObject()
        writer.endObject()
    }
}
