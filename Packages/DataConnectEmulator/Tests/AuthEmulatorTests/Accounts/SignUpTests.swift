import AuthEmulator
import DataConnectWire
import Testing

@Suite struct SignUpTests {
    @Test func emailPasswordSignUpIssuesUnsignedTokens() async throws {
        try await AuthTestServer.with { server in
            // when
            let result = try await server.signUp("Alice@Example.com")
            // then
            #expect(result["kind"] == "identitytoolkit#SignupNewUserResponse")
            #expect(result["email"] == "alice@example.com")
            #expect(result["expiresIn"] == "3600")
            #expect(result["refreshToken"]?.isEmpty == false)
            let token = try claims(of: result["idToken"])
            #expect(try header(of: result["idToken"]) == ["alg": "none", "typ": "JWT"])
            #expect(result["idToken"]?.hasSuffix(".") == true)
            #expect(token["iss"] == "https://securetoken.google.com/demo-project")
            #expect(token["aud"] == "demo-project")
            #expect(token["sub"]?.stringValue == result["localId"])
            #expect(token["user_id"]?.stringValue == result["localId"])
            #expect(token["email"] == "alice@example.com")
            #expect(token["email_verified"] == false)
            #expect(token["firebase"]?["sign_in_provider"] == "password")
            #expect(token["firebase"]?["identities"]?["email"] == ["alice@example.com"])
            let issuedAt = try #require(token["iat"]?.int64Value)
            #expect(issuedAt == 1_767_225_600)
            #expect(token["exp"]?.int64Value == issuedAt + 3600)
            #expect(token["auth_time"]?.int64Value == issuedAt)
        }
    }

    @Test func signUpWithoutEmailIsAnonymous() async throws {
        try await AuthTestServer.with { server in
            let result = try await server.client("signUp", ["returnSecureToken": true])
            #expect(result.status == 200)
            let token = try claims(of: result["idToken"])
            #expect(token["firebase"]?["sign_in_provider"] == "anonymous")
            #expect(token["provider_id"] == "anonymous")
            #expect(token["email"] == nil)
        }
    }

    @Test func refusesDuplicateEmailWithFirebaseToolsErrorShape() async throws {
        try await AuthTestServer.with { server in
            _ = try await server.signUp("bob@example.com")
            let result = try await server.client("signUp", ["email": "BOB@example.com", "password": "another1"])
            #expect(result.status == 400)
            #expect(
                result.json == [
                    "error": [
                        "code": 400, "message": "EMAIL_EXISTS",
                        "errors": [["message": "EMAIL_EXISTS", "reason": "invalid", "domain": "global"]],
                    ]
                ])
        }
    }

    @Test(arguments: [
        (
            JSONValue.object(["email": "a@example.com", "password": "12345"]),
            "WEAK_PASSWORD : Password should be at least 6 characters"
        ),
        (JSONValue.object(["email": "not-an-email", "password": "123456"]), "INVALID_EMAIL"),
        (JSONValue.object(["email": "a@example.com"]), "MISSING_PASSWORD"),
        (JSONValue.object(["password": "123456"]), "MISSING_EMAIL"),
    ])
    func refusesBadInput(body: JSONValue, message: String) async throws {
        try await AuthTestServer.with { server in
            let result = try await server.client("signUp", body)
            #expect(result.status == 400)
            #expect(result.errorMessage == message)
        }
    }

    @Test func refusesRequestWithoutAPIKey() async throws {
        try await AuthTestServer.with { server in
            let result = try await server.client("signUp", ["returnSecureToken": true], key: false)
            #expect(result.status == 403)
            #expect(result.json["error"]?["status"] == "PERMISSION_DENIED")
            #expect(result.errorMessage == "The request is missing a valid API key.")
        }
    }

    @Test func acceptsAPIKeyInHeader() async throws {
        try await AuthTestServer.with { server in
            let result = try await server.send(
                "POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp", [:],
                headers: ["X-Goog-Api-Key": "fake-api-key"])
            #expect(result.status == 200)
        }
    }

    @Test func adminCreatesAccountWithChosenIDWithoutSigningIn() async throws {
        try await AuthTestServer.with { server in
            let result = try await server.admin(
                "projects/demo-project/accounts",
                ["localId": "user-1", "email": "c@example.com", "password": "secret1", "displayName": "Cee"])
            #expect(result.status == 200)
            #expect(result["localId"] == "user-1")
            #expect(result["idToken"] == nil)
            let again = try await server.admin("projects/demo-project/accounts", ["localId": "user-1"])
            #expect(again.errorMessage == "DUPLICATE_LOCAL_ID")
        }
    }

    @Test func unknownAuthPathIsNotFound() async throws {
        try await AuthTestServer.with { server in
            let result = try await server.client("noSuchMethod")
            #expect(result.status == 404)
            #expect(result.json["error"]?["status"] == "NOT_FOUND")
        }
    }
}
