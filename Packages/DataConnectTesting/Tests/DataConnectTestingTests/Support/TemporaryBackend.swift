import Foundation

/// A one-connector backend written to a new temporary folder, for tests that need a schema of their own.
enum TemporaryBackend {
    /// Writes `dataconnect.yaml`, `schema/schema.gql` and `connector/` (its `connector.yaml`, queries and mutations).
    ///
    /// - Parameters:
    ///   - service: The service id, also the connector id and the folder's prefix.
    ///   - schema: The schema's text.
    ///   - queries: `connector/queries.gql`, when there are queries.
    ///   - mutations: `connector/mutations.gql`.
    /// - Returns: The folder; the caller removes it.
    static func write(service: String, schema: String, queries: String? = nil, mutations: String) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("\(service)-\(UUID().uuidString)")
        var files = [
            "dataconnect.yaml": """
            specVersion: "v1"
            serviceId: "\(service)"
            location: "us-central1"
            schema:
              source: "./schema"
              datasource:
                postgresql:
                  database: "\(service)"
            connectorDirs: ["./connector"]
            """,
            "schema/schema.gql": schema,
            "connector/connector.yaml": "connectorId: \"\(service)\"\n",
            "connector/mutations.gql": mutations,
        ]
        if let queries { files["connector/queries.gql"] = queries }
        for (path, text) in files {
            let file = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        return root
    }
}
