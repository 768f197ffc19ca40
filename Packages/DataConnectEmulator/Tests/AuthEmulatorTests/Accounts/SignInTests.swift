import AuthEmulator
import DataConnectWire
import Testing

@Suite struct SignInTests {
    @Test func signsInWithPassword() async throws {
        try await AuthTestServer.with { server in
            let created = try await server.signUp("dana@example.com", "correct-horse")
            server.clock.advance(seconds: 60)
            let result = try await server.client(
                "signInWithPassword",
                ["email": "DANA@example.com", "password": "correct-horse", "returnSecureToken": true])
            #expect(result.status == 200)
            #expect(result["kind"] == "identitytoolkit#VerifyPasswordResponse")
            #expect(result.json["registered"] == true)
            #expect(result["localId"] == created["localId"])
            #expect(try claims(of: result["idToken"])["auth_time"]?.int64Value == 1_767_225_660)
        }
    }

    @Test func wrongEmailOrPasswordAnswersDistinctErrors() async throws {
        try await AuthTestServer.with { server in
            _ = try await server.signUp("erin@example.com")
            let unknown = try await server.client(
                "signInWithPassword", ["email": "nobody@example.com", "password": "x"])
            #expect(unknown.errorMessage == "EMAIL_NOT_FOUND")
            let wrong = try await server.client(
                "signInWithPassword", ["email": "erin@example.com", "password": "wrong"])
            #expect(wrong.errorMessage == "INVALID_PASSWORD")
            let missing = try await server.client("signInWithPassword", ["email": "erin@example.com"])
            #expect(missing.errorMessage == "MISSING_PASSWORD")
            let invalid = try await server.client("signInWithPassword", ["email": "erin", "password": "x"])
            #expect(invalid.errorMessage == "INVALID_EMAIL")
        }
    }

    @Test func improvedEmailPrivacyAnswersInvalidLoginCredentials() async throws {
        try await AuthTestServer.with { server in
            _ = try await server.signUp("fay@example.com")
            let patched = try await server.send(
                "PATCH", "/emulator/v1/projects/demo-project/config",
                ["emailPrivacyConfig": ["enableImprovedEmailPrivacy": true]])
            #expect(
                patched.json == [
                    "signIn": ["allowDuplicateEmails": false],
                    "emailPrivacyConfig": ["enableImprovedEmailPrivacy": true],
                ])
            let unknown = try await server.client(
                "signInWithPassword", ["email": "nobody@example.com", "password": "x"])
            #expect(unknown.errorMessage == "INVALID_LOGIN_CREDENTIALS")
            let wrong = try await server.client(
                "signInWithPassword", ["email": "fay@example.com", "password": "wrong"])
            #expect(wrong.errorMessage == "INVALID_LOGIN_CREDENTIALS")
            let config = try await server.send("GET", "/emulator/v1/projects/demo-project/config")
            #expect(config.json["emailPrivacyConfig"]?["enableImprovedEmailPrivacy"] == true)
        }
    }

    @Test func disabledUserCannotSignIn() async throws {
        try await AuthTestServer.with { server in
            let created = try await server.signUp("gus@example.com")
            let disabled = try await server.admin(
                "projects/demo-project/accounts:update", ["localId": .string(created["localId"]!), "disableUser": true])
            #expect(disabled.status == 200)
            let result = try await server.client(
                "signInWithPassword", ["email": "gus@example.com", "password": "hunter22"])
            #expect(result.errorMessage == "USER_DISABLED")
        }
    }

    @Test func customTokenSignInCarriesClaims() async throws {
        try await AuthTestServer.with { server in
            let token = unsignedJWT([
                "aud": "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit",
                "iss": "firebase-adminsdk@demo-project.iam.gserviceaccount.com", "uid": "custom-1",
                "claims": ["role": "admin"],
            ])
            let result = try await server.client(
                "signInWithCustomToken", ["token": .string(token), "returnSecureToken": true])
            #expect(result.status == 200, "\(result)")
            #expect(result.json["isNewUser"] == true)
            let idToken = try claims(of: result["idToken"])
            #expect(idToken["user_id"] == "custom-1")
            #expect(idToken["role"] == "admin")
            #expect(idToken["firebase"]?["sign_in_provider"] == "custom")
            // the claims survive a refresh
            let refreshed = try await server.refresh(try #require(result["refreshToken"]))
            #expect(try claims(of: refreshed["id_token"])["role"] == "admin")
            let reserved = try await server.client(
                "signInWithCustomToken", ["token": .string(#"{"uid":"x","claims":{"sub":"y"}}"#)])
            #expect(reserved.errorMessage == "FORBIDDEN_CLAIM : sub")
        }
    }

    @Test func googleSignInCreatesThenLinksAccount() async throws {
        try await AuthTestServer.with { server in
            let idToken = #"{"sub":"g-123","email":"hal@example.com","email_verified":true,"name":"Hal"}"#
            let body: JSONValue = [
                "postBody": .string(
                    "id_token=\(idToken.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)&providerId=google.com"
                ),
                "requestUri": "http://localhost", "returnSecureToken": true, "returnIdpCredential": true,
            ]
            let first = try await server.client("signInWithIdp", body)
            #expect(first.status == 200, "\(first)")
            #expect(first.json["isNewUser"] == true)
            #expect(first["federatedId"] == "https://accounts.google.com/g-123")
            let token = try claims(of: first["idToken"])
            #expect(token["firebase"]?["sign_in_provider"] == "google.com")
            #expect(token["firebase"]?["identities"]?["google.com"] == ["g-123"])
            #expect(token["email"] == "hal@example.com")
            let second = try await server.client("signInWithIdp", body)
            #expect(second["localId"] == first["localId"])
            #expect(second.json["isNewUser"] == nil)
            let lookup = try await server.client("lookup", ["idToken": .string(second["idToken"]!)])
            let providers = lookup.json["users"]?[0]?["providerUserInfo"]?.arrayValue ?? []
            #expect(providers.map { $0["providerId"] } == ["google.com"])
        }
    }
}
