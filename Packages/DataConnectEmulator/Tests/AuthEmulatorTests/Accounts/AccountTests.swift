import AuthEmulator
import DataConnectWire
import Testing

@Suite struct AccountTests {
    @Test func lookupUpdateAndDeleteByIDToken() async throws {
        try await AuthTestServer.with { server in
            let user = try await server.signUp("pat@example.com")
            let idToken = try #require(user["idToken"])
            // profile changes keep the token and issue none
            let profile = try await server.client(
                "update", ["idToken": .string(idToken), "displayName": "Pat", "photoUrl": "http://p/x.png"])
            #expect(profile.status == 200, "\(profile)")
            #expect(profile["displayName"] == "Pat")
            #expect(profile["idToken"] == nil)
            let lookup = try await server.client("lookup", ["idToken": .string(idToken)])
            #expect(lookup["kind"] == "identitytoolkit#GetAccountInfoResponse")
            #expect(lookup.json["users"]?[0]?["displayName"] == "Pat")
            #expect(lookup.json["users"]?[0]?["email"] == "pat@example.com")
            // a password change issues new tokens with the profile in them
            server.clock.advance(seconds: 2)
            let password = try await server.client(
                "update", ["idToken": .string(idToken), "password": "new-password", "returnSecureToken": true])
            #expect(password.status == 200, "\(password)")
            let newToken = try claims(of: password["idToken"])
            #expect(newToken["name"] == "Pat")
            #expect(newToken["picture"] == "http://p/x.png")
            // the old token is revoked by the change
            #expect(try await server.client("lookup", ["idToken": .string(idToken)]).errorMessage == "TOKEN_EXPIRED")
            // deleteAttribute
            let cleared = try await server.client(
                "update", ["idToken": .string(password["idToken"]!), "deleteAttribute": ["DISPLAY_NAME"]])
            #expect(cleared["displayName"] == nil)
            // delete
            let deleted = try await server.client("delete", ["idToken": .string(password["idToken"]!)])
            #expect(deleted["kind"] == "identitytoolkit#DeleteAccountResponse")
            let gone = try await server.client("lookup", ["idToken": .string(password["idToken"]!)])
            #expect(gone.errorMessage == "USER_NOT_FOUND")
        }
    }

    @Test func clientCannotSetCustomAttributes() async throws {
        try await AuthTestServer.with { server in
            let user = try await server.signUp("quinn@example.com")
            let result = try await server.client(
                "update", ["idToken": .string(user["idToken"]!), "customAttributes": #"{"admin":true}"#])
            #expect(result.status == 400)
            #expect(result.errorMessage == "INSUFFICIENT_PERMISSION")
        }
    }

    @Test func adminRefusesReservedClaims() async throws {
        try await AuthTestServer.with { server in
            let user = try await server.signUp("rae@example.com")
            let reserved = try await server.admin(
                "accounts:update", ["localId": .string(user["localId"]!), "customAttributes": #"{"firebase":1}"#])
            #expect(reserved.errorMessage == "FORBIDDEN_CLAIM : firebase")
            let notObject = try await server.admin(
                "accounts:update", ["localId": .string(user["localId"]!), "customAttributes": "[1]"])
            #expect(notObject.errorMessage == "INVALID_CLAIMS")
            let missing = try await server.admin("accounts:update", ["localId": "nosuch", "validSince": 1_611_780_718])
            #expect(missing.errorMessage == "USER_NOT_FOUND")
        }
    }

    @Test func changingEmailChecksIt() async throws {
        try await AuthTestServer.with { server in
            _ = try await server.signUp("sam@example.com")
            let user = try await server.signUp("tess@example.com")
            let taken = try await server.client(
                "update", ["idToken": .string(user["idToken"]!), "email": "sam@example.com"])
            #expect(taken.errorMessage == "EMAIL_EXISTS")
            let invalid = try await server.client("update", ["idToken": .string(user["idToken"]!), "email": "nope"])
            #expect(invalid.errorMessage == "INVALID_EMAIL")
            let weak = try await server.client("update", ["idToken": .string(user["idToken"]!), "password": "abc"])
            #expect(weak.errorMessage == "WEAK_PASSWORD : Password should be at least 6 characters")
            let changed = try await server.client(
                "update",
                ["idToken": .string(user["idToken"]!), "email": "tess2@example.com", "returnSecureToken": true])
            #expect(changed["email"] == "tess2@example.com")
            #expect(try claims(of: changed["idToken"])["email"] == "tess2@example.com")
        }
    }
}
