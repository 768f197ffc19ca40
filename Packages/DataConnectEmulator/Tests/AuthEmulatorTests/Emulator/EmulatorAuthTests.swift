import AuthEmulator
import DataConnectEmulator
import DataConnectWire
import Foundation
import Testing

/// The Auth emulator inside `dataconnect emulator`: served on the main port, optionally on its own, persisted with
/// the data, exported and imported with it, kept by `/emulator/clear`, behind the origin policy.
@Suite struct EmulatorAuthTests {
    /// Starts an emulator without a service, on a free port.
    static func start(_ configure: (inout Emulator.Options) -> Void = { _ in }) throws -> Emulator {
        var options = Emulator.Options(backend: nil, port: 0, threads: 2)
        configure(&options)
        let emulator = try Emulator(options: options)
        try emulator.start()
        return emulator
    }

    /// A client of an emulator's URL.
    static func client(_ url: String, _ emulator: Emulator) throws -> AuthTestServer {
        AuthTestServer(auth: try #require(emulator.auth), clock: TestClock(), baseURL: url)
    }

    @Test func mainPortServesAuthAndInfoNamesTheProject() async throws {
        let emulator = try Self.start { $0.projectID = "my-project" }
        defer { emulator.stop() }
        let client = try Self.client(emulator.url, emulator)
        let created = try await client.signUp("main@example.com")
        #expect(try claims(of: created["idToken"])["aud"] == "my-project")
        let info = try await client.send("GET", "/emulator/info")
        #expect(info.json["auth"] == ["projectId": "my-project"])
        #expect(emulator.authEmulatorURL == emulator.url)
    }

    @Test func authPortServesOnlyAuth() async throws {
        let emulator = try Self.start { $0.authPort = 0 }
        defer { emulator.stop() }
        let authURL = try #require(emulator.authURL)
        #expect(authURL != emulator.url)
        let client = try Self.client(authURL, emulator)
        let created = try await client.signUp("port@example.com")
        #expect(created.status == 200)
        let status = try await client.send("GET", "/")
        #expect(status.json["authEmulator"]?["ready"] == true)
        let info = try await client.send("GET", "/emulator/info")
        #expect(info.status == 404)
        // the main port serves the same accounts
        let main = try Self.client(emulator.url, emulator)
        let signIn = try await main.client("signInWithPassword", ["email": "port@example.com", "password": "hunter22"])
        #expect(signIn.status == 200)
    }

    @Test func noAuthLeavesThePathsToTheService() async throws {
        let emulator = try Self.start { $0.auth = false }
        defer { emulator.stop() }
        #expect(emulator.auth == nil)
        let info = try await AuthTestServer(
            auth: try AuthEmulator(storage: MemoryAuthStorage()), clock: TestClock(), baseURL: emulator.url
        ).send("GET", "/emulator/info")
        #expect(info.json["auth"] == nil)
    }

    @Test func accountsPersistInTheDataDirectoryAndSurviveClear() async throws {
        let directory = try temporaryDirectory()
        do {
            let emulator = try Self.start { $0.dataDirectory = directory }
            defer { emulator.stop() }
            let client = try Self.client(emulator.url, emulator)
            _ = try await client.signUp("keep@example.com")
            let cleared = try await client.send("POST", "/emulator/clear", [:])
            #expect(cleared.status == 200, "\(cleared)")
            #expect(emulator.auth?.accounts().count == 1)
        }
        #expect(FileManager.default.fileExists(atPath: directory + "/auth.sqlite"))
        let emulator = try Self.start { $0.dataDirectory = directory }
        defer { emulator.stop() }
        let client = try Self.client(emulator.url, emulator)
        let signIn = try await client.client(
            "signInWithPassword", ["email": "keep@example.com", "password": "hunter22"])
        #expect(signIn.status == 200, "\(signIn)")
    }

    @Test func exportThenImportRoundTrips() async throws {
        let exportDirectory = try temporaryDirectory()
        do {
            let emulator = try Self.start()
            defer { emulator.stop() }
            let client = try Self.client(emulator.url, emulator)
            _ = try await client.signUp("trip@example.com")
            let exported = try await client.send("POST", "/emulator/export", ["path": .string(exportDirectory)])
            #expect(exported.status == 200, "\(exported)")
        }
        #expect(FileManager.default.fileExists(atPath: exportDirectory + "/auth_export/accounts.json"))
        #expect(FileManager.default.fileExists(atPath: exportDirectory + "/auth_export/config.json"))
        let emulator = try Self.start { $0.importDirectory = exportDirectory }
        defer { emulator.stop() }
        let client = try Self.client(emulator.url, emulator)
        let signIn = try await client.client(
            "signInWithPassword", ["email": "trip@example.com", "password": "hunter22"])
        #expect(signIn.status == 200, "\(signIn)")
    }

    @Test func foreignOriginIsRefused() async throws {
        let emulator = try Self.start { $0.authPort = 0 }
        defer { emulator.stop() }
        for url in [emulator.url, try #require(emulator.authURL)] {
            let client = try Self.client(url, emulator)
            let refused = try await client.send(
                "POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k", [:],
                headers: ["Origin": "https://evil.example"])
            #expect(refused.status == 403, "\(url)")
            let allowed = try await client.send(
                "POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k", [:],
                headers: ["Origin": "http://localhost:3000"])
            #expect(allowed.status == 200, "\(url)")
            #expect(allowed.headers["access-control-allow-origin"] == "http://localhost:3000")
            let admin = try await client.send(
                "DELETE", "/emulator/v1/projects/demo-project/accounts", headers: ["Origin": "http://localhost:3000"])
            #expect(admin.status == 403, "\(url)")
        }
    }
}
