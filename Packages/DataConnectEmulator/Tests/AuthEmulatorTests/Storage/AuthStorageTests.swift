import AuthEmulator
import DataConnectWire
import Foundation
import Testing

/// The storages the suite runs on.
enum StorageKind: String, CaseIterable, Sendable {
    case memory, sqlite
}

@Suite struct AuthStorageTests {
    /// Makes a storage of a kind; the same folder gives the same SQLite file.
    static func storage(
        _ kind: StorageKind, directory: String, shared memory: MemoryAuthStorage
    ) throws -> any AuthStorage {
        switch kind {
        case .memory: return memory
        case .sqlite: return try SQLiteAuthStorage(path: directory + "/auth.sqlite")
        }
    }

    @Test(arguments: StorageKind.allCases)
    func accountsAndConfigSurviveARestart(kind: StorageKind) async throws {
        let directory = try temporaryDirectory()
        let memory = MemoryAuthStorage()
        let clock = TestClock()
        // given: an account with claims, a deleted one, and a setting
        let refreshToken = try await AuthTestServer.with(
            storage: try Self.storage(kind, directory: directory, shared: memory), clock: clock
        ) { server in
            let user = try await server.signUp("yara@example.com")
            _ = try await server.admin(
                "accounts:update", ["localId": .string(user["localId"]!), "customAttributes": #"{"team":"red"}"#])
            let doomed = try await server.signUp("zed@example.com")
            _ = try await server.admin("accounts:delete", ["localId": .string(doomed["localId"]!)])
            _ = try await server.send(
                "PATCH", "/emulator/v1/projects/demo-project/config", ["signIn": ["allowDuplicateEmails": true]])
            return try #require(user["refreshToken"])
        }
        // when: a new emulator opens the same storage
        try await AuthTestServer.with(
            storage: try Self.storage(kind, directory: directory, shared: memory), clock: clock
        ) {
            server in
            // then
            #expect(server.auth.accounts().map(\.email) == ["yara@example.com"])
            #expect(server.auth.config().allowDuplicateEmails)
            let signIn = try await server.client(
                "signInWithPassword", ["email": "yara@example.com", "password": "hunter22"])
            #expect(signIn.status == 200)
            let refreshed = try await server.refresh(refreshToken)
            #expect(try claims(of: refreshed["id_token"])["team"] == "red")
        }
    }

    @Test func clearingAProjectEmptiesItsStorage() async throws {
        let directory = try temporaryDirectory()
        try await AuthTestServer.with(storage: try SQLiteAuthStorage(path: directory + "/auth.sqlite")) { server in
            _ = try await server.signUp("a@example.com")
            _ = try await server.send("DELETE", "/emulator/v1/projects/demo-project/accounts")
        }
        let reopened = try SQLiteAuthStorage(path: directory + "/auth.sqlite")
        #expect(try reopened.load()["demo-project"]?.accounts ?? [] == [])
    }

    @Test func exportWritesFirebaseToolsFilesAndImportRestoresThem() async throws {
        let directory = try temporaryDirectory()
        try await AuthTestServer.with { server in
            _ = try await server.signUp("exp@example.com")
            _ = try await server.send(
                "PATCH", "/emulator/v1/projects/demo-project/config",
                ["emailPrivacyConfig": ["enableImprovedEmailPrivacy": true]])
            try server.auth.export(to: directory)
        }
        let accounts = try JSONValue(
            parsing: Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/auth_export/accounts.json"))))
        #expect(accounts["kind"] == "identitytoolkit#DownloadAccountResponse")
        #expect(accounts["users"]?[0]?["email"] == "exp@example.com")
        #expect(accounts["users"]?[0]?["passwordHash"]?.stringValue?.isEmpty == false)
        let config = try JSONValue(
            parsing: Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/auth_export/config.json"))))
        #expect(
            config == [
                "signIn": ["allowDuplicateEmails": false],
                "emailPrivacyConfig": ["enableImprovedEmailPrivacy": true],
            ])
        try await AuthTestServer.with { server in
            #expect(try server.auth.importData(from: directory) == 1)
            #expect(server.auth.config().enableImprovedEmailPrivacy)
            let signIn = try await server.client(
                "signInWithPassword", ["email": "exp@example.com", "password": "hunter22"])
            #expect(signIn.status == 200, "\(signIn)")
        }
    }
}
