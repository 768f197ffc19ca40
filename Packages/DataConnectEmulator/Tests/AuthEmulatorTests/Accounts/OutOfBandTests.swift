import AuthEmulator
import DataConnectWire
import Testing

@Suite struct OutOfBandTests {
    @Test func verifyEmailCodeIsListedAndApplied() async throws {
        try await AuthTestServer.with { server in
            let user = try await server.signUp("uma@example.com")
            let sent = try await server.client(
                "sendOobCode", ["requestType": "VERIFY_EMAIL", "idToken": .string(user["idToken"]!)])
            #expect(sent.status == 200, "\(sent)")
            #expect(
                sent.json == ["kind": "identitytoolkit#GetOobConfirmationCodeResponse", "email": "uma@example.com"])
            let listed = try await server.send("GET", "/emulator/v1/projects/demo-project/oobCodes")
            let codes = try #require(listed.json["oobCodes"]?.arrayValue)
            #expect(codes.count == 1)
            #expect(codes[0]["requestType"] == "VERIFY_EMAIL")
            #expect(codes[0]["email"] == "uma@example.com")
            let code = try #require(codes[0]["oobCode"]?.stringValue)
            #expect(codes[0]["oobLink"]?.stringValue?.contains("mode=verifyEmail&lang=en&oobCode=\(code)") == true)
            let applied = try await server.client("update", ["oobCode": .string(code)])
            #expect(applied.status == 200, "\(applied)")
            #expect(applied.json["emailVerified"] == true)
            let again = try await server.client("update", ["oobCode": .string(code)])
            #expect(again.errorMessage == "INVALID_OOB_CODE")
        }
    }

    @Test func passwordResetChecksThenAppliesCode() async throws {
        try await AuthTestServer.with { server in
            _ = try await server.signUp("vic@example.com", "old-password")
            let unknown = try await server.client(
                "sendOobCode", ["requestType": "PASSWORD_RESET", "email": "x@example.com"])
            #expect(unknown.errorMessage == "EMAIL_NOT_FOUND")
            _ = try await server.client("sendOobCode", ["requestType": "PASSWORD_RESET", "email": "vic@example.com"])
            let code = try #require(server.auth.oobCodes().first?.oobCode)
            let check = try await server.client("resetPassword", ["oobCode": .string(code)])
            #expect(
                check.json == [
                    "kind": "identitytoolkit#ResetPasswordResponse", "requestType": "PASSWORD_RESET",
                    "email": "vic@example.com",
                ])
            let reset = try await server.client(
                "resetPassword", ["oobCode": .string(code), "newPassword": "new-password"])
            #expect(reset.status == 200, "\(reset)")
            let signIn = try await server.client(
                "signInWithPassword", ["email": "vic@example.com", "password": "new-password"])
            #expect(signIn.status == 200)
            let reused = try await server.client(
                "resetPassword", ["oobCode": .string(code), "newPassword": "other-password"])
            #expect(reused.errorMessage == "INVALID_OOB_CODE")
        }
    }

    @Test func oobLinkIsForAdminsOnly() async throws {
        try await AuthTestServer.with { server in
            _ = try await server.signUp("wes@example.com")
            let client = try await server.client(
                "sendOobCode", ["requestType": "PASSWORD_RESET", "email": "wes@example.com", "returnOobLink": true])
            #expect(client.errorMessage == "INSUFFICIENT_PERMISSION")
            let admin = try await server.admin(
                "projects/demo-project/accounts:sendOobCode",
                ["requestType": "VERIFY_EMAIL", "email": "wes@example.com", "returnOobLink": true])
            #expect(admin.status == 200, "\(admin)")
            #expect(admin["oobLink"]?.contains("/emulator/action?mode=verifyEmail") == true)
        }
    }

    @Test func emailLinkSignInCreatesVerifiedAccount() async throws {
        try await AuthTestServer.with { server in
            _ = try await server.client("sendOobCode", ["requestType": "EMAIL_SIGNIN", "email": "xan@example.com"])
            let code = try #require(server.auth.oobCodes().first?.oobCode)
            let result = try await server.client(
                "signInWithEmailLink", ["email": "xan@example.com", "oobCode": .string(code)])
            #expect(result.status == 200, "\(result)")
            #expect(result.json["isNewUser"] == true)
            #expect(try claims(of: result["idToken"])["email_verified"] == true)
        }
    }
}
