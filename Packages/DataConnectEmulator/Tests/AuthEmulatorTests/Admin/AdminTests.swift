import AuthEmulator
import DataConnectWire
import Testing

@Suite struct AdminTests {
    @Test func lookupByListsAndBatchGetPages() async throws {
        try await AuthTestServer.with { server in
            for (id, email) in [("a1", "a1@example.com"), ("b2", "b2@example.com"), ("c3", "c3@example.com")] {
                let created = try await server.admin(
                    "projects/demo-project/accounts", ["localId": .string(id), "email": .string(email)])
                #expect(created.status == 200, "\(created)")
            }
            let lookup = try await server.admin(
                "projects/demo-project/accounts:lookup", ["localId": ["a1", "nosuch"], "email": ["C3@example.com"]])
            #expect(lookup.json["users"]?.arrayValue?.map { $0["localId"] } == ["a1", "c3"])
            let none = try await server.admin("projects/demo-project/accounts:lookup", ["localId": ["nosuch"]])
            #expect(none.json == ["kind": "identitytoolkit#GetAccountInfoResponse"])

            let first = try await server.admin(
                "projects/demo-project/accounts:batchGet?maxResults=2", nil, method: "GET")
            #expect(first.json["users"]?.arrayValue?.map { $0["localId"] } == ["a1", "b2"])
            #expect(first["nextPageToken"] == "b2")
            let second = try await server.admin(
                "projects/demo-project/accounts:batchGet?maxResults=2&nextPageToken=b2", nil, method: "GET")
            #expect(second.json["users"]?.arrayValue?.map { $0["localId"] } == ["c3"])
            #expect(second["nextPageToken"] == nil)
            let query = try await server.admin("projects/demo-project/accounts:query", ["returnUserInfo": false])
            #expect(query["recordsCount"] == "3")
        }
    }

    @Test func projectPathsNeedAdminCredentials() async throws {
        try await AuthTestServer.with { server in
            let keyOnly = try await server.send(
                "POST", "/identitytoolkit.googleapis.com/v1/projects/demo-project/accounts:lookup?key=k",
                ["localId": ["x"]])
            #expect(keyOnly.status == 400)
            #expect(
                keyOnly.errorMessage
                    == "INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id.")
            let nothing = try await server.send(
                "POST", "/identitytoolkit.googleapis.com/v1/projects/demo-project/accounts:lookup", ["localId": ["x"]])
            #expect(nothing.status == 403)
            let badBearer = try await server.send(
                "POST", "/identitytoolkit.googleapis.com/v1/projects/demo-project/accounts:lookup", ["localId": ["x"]],
                headers: ["Authorization": "Bearer not-a-token"])
            #expect(badBearer.status == 401)
            #expect(badBearer.json["error"]?["status"] == "UNAUTHENTICATED")
        }
    }

    @Test func projectsAreSeparate() async throws {
        try await AuthTestServer.with { server in
            _ = try await server.admin("projects/other-project/accounts", ["localId": "o1", "email": "o@example.com"])
            #expect(server.auth.accounts(inProject: "other-project").map(\.localId) == ["o1"])
            #expect(server.auth.accounts().isEmpty)
            let cleared = try await server.send("DELETE", "/emulator/v1/projects/other-project/accounts")
            #expect(cleared.status == 200)
            #expect(server.auth.accounts(inProject: "other-project").isEmpty)
        }
    }

    @Test func batchCreateImportsFirebaseToolsHashesAndBatchDeleteNeedsForce() async throws {
        try await AuthTestServer.with { server in
            let created = try await server.admin(
                "projects/demo-project/accounts:batchCreate",
                [
                    "users": [
                        [
                            "localId": "imp1", "email": "IMP@example.com", "salt": "beach",
                            "passwordHash": "fakeHash:salt=beach:password=hawaii", "customAttributes": #"{"role":"x"}"#,
                        ],
                        ["localId": "imp2", "rawPassword": "secret12", "email": "imp2@example.com"],
                        ["localId": "imp3", "customAttributes": #"{"iss":"x"}"#],
                    ]
                ])
            #expect(
                created.json == [
                    "kind": "identitytoolkit#UploadAccountResponse",
                    "error": [["index": 2, "message": "Custom claims provided include a reserved claim."]],
                ])
            let signIn = try await server.client(
                "signInWithPassword", ["email": "imp@example.com", "password": "hawaii"])
            #expect(signIn["localId"] == "imp1")
            #expect(try claims(of: signIn["idToken"])["role"] == "x")
            let raw = try await server.client(
                "signInWithPassword", ["email": "imp2@example.com", "password": "secret12"])
            #expect(raw.status == 200)
            let empty = try await server.admin("projects/demo-project/accounts:batchCreate", ["users": []])
            #expect(empty.errorMessage == "MISSING_USER_ACCOUNT")

            let refused = try await server.admin("projects/demo-project/accounts:batchDelete", ["localIds": ["imp1"]])
            #expect(
                refused.json["errors"]?[0]?["message"] == "NOT_DISABLED : Disable the account before batch deletion.")
            let forced = try await server.admin(
                "projects/demo-project/accounts:batchDelete", ["localIds": ["imp1", "imp2"], "force": true])
            #expect(forced.json == [:])
            #expect(server.auth.accounts().map(\.localId).isEmpty)
        }
    }
}
