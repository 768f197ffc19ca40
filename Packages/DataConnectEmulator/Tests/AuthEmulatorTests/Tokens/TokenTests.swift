import AuthEmulator
import DataConnectWire
import Testing

@Suite struct TokenTests {
    @Test func refreshMintsTokenWithCurrentCustomClaims() async throws {
        try await AuthTestServer.with { server in
            // given
            let user = try await server.signUp("ivy@example.com")
            let localId = try #require(user["localId"])
            let set = try await server.admin(
                "projects/demo-project/accounts:update",
                ["localId": .string(localId), "customAttributes": #"{"admin":true,"tier":"gold"}"#])
            #expect(set.status == 200, "\(set)")
            server.clock.advance(seconds: 10)
            // when
            let refreshed = try await server.refresh(try #require(user["refreshToken"]))
            // then
            #expect(refreshed.status == 200, "\(refreshed)")
            #expect(refreshed["token_type"] == "Bearer")
            #expect(refreshed["expires_in"] == "3600")
            #expect(refreshed["user_id"] == localId)
            #expect(refreshed["project_id"] == "12345")
            #expect(refreshed["access_token"] == refreshed["id_token"])
            let token = try claims(of: refreshed["id_token"])
            #expect(token["admin"] == true)
            #expect(token["tier"] == "gold")
            #expect(token["iat"]?.int64Value == 1_767_225_610)
        }
    }

    @Test func refreshAcceptsJSONBody() async throws {
        try await AuthTestServer.with { server in
            let user = try await server.signUp("jay@example.com")
            let refreshed = try await server.send(
                "POST", "/securetoken.googleapis.com/v1/token?key=k",
                ["grant_type": "refresh_token", "refresh_token": .string(user["refreshToken"]!)])
            #expect(refreshed.status == 200, "\(refreshed)")
        }
    }

    @Test func refreshRefusesGarbageDisabledDeletedAndRevoked() async throws {
        try await AuthTestServer.with { server in
            let garbage = try await server.refresh("not-a-token")
            #expect(garbage.errorMessage == "INVALID_REFRESH_TOKEN")

            let disabled = try await server.signUp("kim@example.com")
            _ = try await server.admin(
                "projects/demo-project/accounts:update",
                ["localId": .string(disabled["localId"]!), "disableUser": true])
            #expect(try await server.refresh(disabled["refreshToken"]!).errorMessage == "USER_DISABLED")

            let deleted = try await server.signUp("lee@example.com")
            _ = try await server.admin(
                "projects/demo-project/accounts:delete", ["localId": .string(deleted["localId"]!)])
            #expect(try await server.refresh(deleted["refreshToken"]!).errorMessage == "USER_NOT_FOUND")

            let revoked = try await server.signUp("max@example.com")
            server.clock.advance(seconds: 5)
            let revoke = try await server.admin(
                "projects/demo-project/accounts:update",
                ["localId": .string(revoked["localId"]!), "validSince": .string(String(1_767_225_605))])
            #expect(revoke.status == 200, "\(revoke)")
            #expect(try await server.refresh(revoked["refreshToken"]!).errorMessage == "TOKEN_EXPIRED")
            let lookup = try await server.client("lookup", ["idToken": .string(revoked["idToken"]!)])
            #expect(lookup.errorMessage == "TOKEN_EXPIRED")
        }
    }

    @Test func expiredOrMalformedIDTokenIsRefused() async throws {
        try await AuthTestServer.with { server in
            let user = try await server.signUp("ned@example.com")
            let fresh = try await server.client("lookup", ["idToken": .string(user["idToken"]!)])
            #expect(fresh.status == 200)
            server.clock.advance(seconds: 3601)
            let expired = try await server.client("lookup", ["idToken": .string(user["idToken"]!)])
            #expect(expired.errorMessage == "TOKEN_EXPIRED")
            let update = try await server.client("update", ["idToken": .string(user["idToken"]!), "displayName": "N"])
            #expect(update.errorMessage == "TOKEN_EXPIRED")
            let malformed = try await server.client("lookup", ["idToken": "garbage"])
            #expect(malformed.errorMessage == "INVALID_ID_TOKEN")
        }
    }

    @Test func sessionCookieIsUnsignedWithSessionIssuer() async throws {
        try await AuthTestServer.with { server in
            let user = try await server.signUp("ola@example.com")
            let result = try await server.admin(
                "projects/demo-project:createSessionCookie",
                ["idToken": .string(user["idToken"]!), "validDuration": 3600])
            #expect(result.status == 200, "\(result)")
            let cookie = try claims(of: result["sessionCookie"])
            #expect(cookie["iss"] == "https://session.firebase.google.com/demo-project")
            let expiry: Int64 = 1_767_225_600 + 3600
            #expect(cookie["exp"]?.int64Value == expiry)
            #expect(cookie["user_id"]?.stringValue == user["localId"])
            #expect(try header(of: result["sessionCookie"])["alg"] == "none")
        }
    }
}
