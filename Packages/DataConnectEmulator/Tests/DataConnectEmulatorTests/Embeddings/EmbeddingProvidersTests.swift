import DataConnectSchema
import DataConnectWire
import EmulatorHTTP
import Foundation
import OutboundHTTP
import Synchronization
import Testing

@testable import DataConnectEmulator
@testable import DataConnectEngine

/// Which embedding provider the emulator hands its engines: the option (the `--embeddings` flag) over
/// `dataconnect.yaml`'s `emulator.embeddings`, reported by `/emulator/info` and logged, never with a credential.
@Suite(.on(.sqlite))  // the choice of embedding provider
struct EmbeddingProvidersTests {
    /// A one-table backend in a temporary folder, its `dataconnect.yaml` ending with `emulatorSection`.
    final class Backend {
        let directory: URL

        init(location: String = "europe-west1", emulatorSection: String = "") throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("embeddings-\(UUID().uuidString)")
            let files = [
                "dataconnect.yaml": """
                specVersion: "v1"
                serviceId: "notes"
                location: "\(location)"
                schema:
                  source: "./schema"
                  datasource:
                    postgresql:
                      database: "notes"
                connectorDirs: ["./connector"]

                """ + emulatorSection,
                "schema/schema.gql": "type Note @table {\n  text: String!\n}\n",
                "connector/connector.yaml": "connectorId: \"notes\"\n",
                "connector/notes.gql": "query ListNotes @auth(level: PUBLIC) {\n  notes {\n    text\n  }\n}\n",
            ]
            for (path, text) in files {
                let file = directory.appendingPathComponent(path)
                try FileManager.default.createDirectory(
                    at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.write(to: file, atomically: true, encoding: .utf8)
            }
        }

        deinit {
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// Log lines, collected.
    final class LogLines: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        var write: @Sendable (String) -> Void { { [self] line in lines.withLock { $0.append(line) } } }
    }

    /// An emulator on the backend, not listening: its responder is called in-process.
    static func emulator(
        _ backend: Backend, embeddings: EmbeddingsSetting? = nil, environment: [String: String] = [:], log: LogLines
    ) throws -> Emulator {
        var options = Emulator.Options(
            backend: backend.directory.path, port: 0, readers: 1, threads: 1, log: log.write, auth: false,
            embeddings: embeddings)
        options.environment = environment
        return try Emulator(options: options)
    }

    /// `/emulator/info`'s `embeddings`.
    static func reported(_ emulator: Emulator) throws -> JSONValue? {
        let response = emulator.responder.respond(
            to: HTTPRequest(method: .get, path: "/emulator/info", headers: ["Host": "127.0.0.1"]))
        return try JSONValue(parsing: response.bodyBytes ?? [])["embeddings"]
    }

    @Test func dataConnectYAMLChoosesTheProvider() throws {
        // given a service whose dataconnect.yaml names a local server, a model mapping and a key variable
        let backend = try Backend(
            emulatorSection: """
                emulator:
                  embeddings:
                    url: http://127.0.0.1:11434/v1/embeddings
                    models: {textembedding-gecko@003: nomic-embed-text}
                    apiKeyEnv: EMBEDDINGS_KEY

                """)
        let log = LogLines()

        // when the emulator starts without the option
        let emulator = try Self.emulator(backend, environment: ["EMBEDDINGS_KEY": "sk-secret"], log: log)
        defer { emulator.stop() }

        // then the engine has that provider, info reports it and the log names it, without the key
        let provider = try #require(emulator.engine.embeddings as? HTTPEmbeddings)
        #expect(provider.url == "http://127.0.0.1:11434/v1/embeddings")
        #expect(provider.serverModel(for: "textembedding-gecko@003") == "nomic-embed-text")
        let summary = "http://127.0.0.1:11434/v1/embeddings (1 model mapped, bearer token from $EMBEDDINGS_KEY)"
        #expect(try Self.reported(emulator) == ["provider": "http", "summary": .string(summary)])
        #expect(log.all.contains("embeddings: \(summary)"), "\(log.all)")
        #expect(!log.all.joined().contains("sk-secret"))
        // and the engine calls custom resolvers through the emulator's transport
        #expect(emulator.engine.transport != nil)
    }

    @Test func theOptionWinsOverDataConnectYAML() throws {
        // given a service that asks for hashing
        let backend = try Backend(emulatorSection: "emulator:\n  embeddings: hashing\n")
        let log = LogLines()

        // when the emulator is told vertex, with a token and a project in its environment
        let emulator = try Self.emulator(
            backend, embeddings: .vertex,
            environment: ["GOOGLE_OAUTH_ACCESS_TOKEN": "ya29.secret", "GOOGLE_CLOUD_PROJECT": "demo-project"], log: log)
        defer { emulator.stop() }

        // then Vertex AI serves, in the service's region, and no token is shown
        #expect(emulator.engine.embeddings is VertexEmbeddings)
        let summary =
            "vertex (project demo-project, location europe-west1, access token from GOOGLE_OAUTH_ACCESS_TOKEN)"
        #expect(try Self.reported(emulator) == ["provider": "vertex", "summary": .string(summary)])
        #expect(log.all.contains("embeddings: \(summary)"), "\(log.all)")
        #expect(!log.all.joined().contains("ya29.secret"))
    }

    @Test func withoutASettingThereIsNoProviderAndTheLogSaysHowToChooseOne() throws {
        let backend = try Backend()
        let log = LogLines()
        let emulator = try Self.emulator(backend, log: log)
        defer { emulator.stop() }
        #expect(emulator.engine.embeddings == nil)
        #expect(try Self.reported(emulator) == ["provider": "none"])
        let line = try #require(log.all.first { $0.hasPrefix("embeddings: ") })
        #expect(
            line.contains("FAILED_PRECONDITION") && line.contains("--embeddings")
                && line.contains("emulator.embeddings"))
    }

    @Test func hashingIsTheEnginesOfflineProvider() throws {
        let backend = try Backend(emulatorSection: "emulator:\n  embeddings: hashing\n")
        let emulator = try Self.emulator(backend, log: LogLines())
        defer { emulator.stop() }
        #expect(emulator.engine.embeddings is HashingEmbeddings)
        #expect(try Self.reported(emulator)?["provider"] == "hashing")
    }

    @Test func aReloadKeepsTheProviderUntilItsSettingChanges() throws {
        // given an emulator serving a service that names a server
        let backend = try Backend(emulatorSection: "emulator:\n  embeddings: http://127.0.0.1:1/v1/embeddings\n")
        let log = LogLines()
        let emulator = try Self.emulator(backend, log: log)
        defer { emulator.stop() }
        let first = try #require(emulator.engine.embeddings as? HTTPEmbeddings)

        // when the service reloads unchanged
        emulator.reload()

        // then the provider is the same object, and nothing more is logged about it
        #expect(emulator.engine.embeddings as? HTTPEmbeddings === first)
        #expect(log.all.filter { $0.hasPrefix("embeddings: ") }.count == 1)

        // when the setting changes
        try
            "specVersion: \"v1\"\nserviceId: \"notes\"\nlocation: \"l\"\nconnectorDirs: [\"./connector\"]\nemulator:\n  embeddings: http://127.0.0.1:2/v1/embeddings\n"
            .write(to: backend.directory.appendingPathComponent("dataconnect.yaml"), atomically: true, encoding: .utf8)
        emulator.reload()

        // then a new provider serves, and is logged
        let second = try #require(emulator.engine.embeddings as? HTTPEmbeddings)
        #expect(second.url == "http://127.0.0.1:2/v1/embeddings")
        #expect(log.all.contains("embeddings: http://127.0.0.1:2/v1/embeddings"), "\(log.all)")
    }
}
