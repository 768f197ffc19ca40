import FirebaseCore
import Foundation
import Testing

@_spi(Testing) @testable import FirebaseAuth

/// The requests the SDK sends, compared with literal fixtures written from the public SDK sources
/// (`firebase-ios-sdk/FirebaseAuth/Sources/Swift/Backend/RPC/*Request.swift`, `SecureTokenRequest.swift`,
/// `AuthBackend.swift`) and the Identity Toolkit v1 reference, not with the SDK's own request builder.
@Suite struct RequestFixtureTests {
    /// Canned answers by method, so that tokens in later requests are literals.
    static let answers: [String: String] = [
        "signUp": #"{"idToken":"id-token-1","refreshToken":"refresh-1","expiresIn":"3600","localId":"uid-1"}"#,
        "signInWithPassword":
            #"{"idToken":"id-token-1","refreshToken":"refresh-1","expiresIn":"3600","localId":"uid-1","email":"alice@example.com"}"#,
        "signInWithCustomToken":
            #"{"idToken":"id-token-1","refreshToken":"refresh-1","expiresIn":"3600","localId":"uid-1","isNewUser":true}"#,
        "signInWithIdp":
            #"{"idToken":"id-token-1","refreshToken":"refresh-1","expiresIn":"3600","localId":"uid-1","providerId":"google.com"}"#,
        "lookup": #"{"users":[{"localId":"uid-1","email":"alice@example.com","emailVerified":false}]}"#,
        "token":
            #"{"access_token":"id-token-2","id_token":"id-token-2","refresh_token":"refresh-2","expires_in":"3600","token_type":"Bearer","user_id":"uid-1"}"#,
        "resetPassword": #"{"email":"alice@example.com","requestType":"PASSWORD_RESET"}"#,
        "update": #"{"localId":"uid-1"}"#,
        "sendOobCode": #"{"email":"alice@example.com"}"#,
        "delete": #"{}"#,
    ]

    static func scripted(_ request: StandInServer.Request) -> (status: Int, body: Data) {
        let path = request.target.split(separator: "?")[0]
        let method = path.hasSuffix("/v1/token") ? "token" : String(path.split(separator: ":").last ?? "")
        return (200, Data((answers[method] ?? "{}").utf8))
    }

    private func signedIn(_ harness: AuthHarness) async throws -> Auth {
        let auth = harness.makeAuth(persistence: .inMemory)
        try await auth.signIn(withEmail: "alice@example.com", password: "secret1")
        harness.server.clearRequests()
        return auth
    }

    /// `(target, body)` of each recorded request.
    private func calls(_ harness: AuthHarness) -> [[String]] {
        harness.server.requests.map { [$0.method, $0.target, $0.canonicalBody] }
    }

    @Test func createUserSendsSignUpThenLookup() async throws {
        // given
        let harness = try AuthHarness(handler: Self.scripted)
        let auth = harness.makeAuth(persistence: .inMemory)

        // when
        try await auth.createUser(withEmail: "alice@example.com", password: "secret1")

        // then
        #expect(
            calls(harness) == [
                [
                    "POST", "/v1/accounts:signUp?key=test-api-key",
                    canonicalJSON(
                        #"{"email":"alice@example.com","password":"secret1","clientType":"CLIENT_TYPE_IOS","returnSecureToken":true}"#
                    ),
                ],
                ["POST", "/v1/accounts:lookup?key=test-api-key", canonicalJSON(#"{"idToken":"id-token-1"}"#)],
            ])
    }

    @Test func signInWithPasswordSendsVerifyPasswordBody() async throws {
        let harness = try AuthHarness(handler: Self.scripted)
        let auth = harness.makeAuth(persistence: .inMemory)

        try await auth.signIn(withEmail: "alice@example.com", password: "secret1")

        #expect(
            calls(harness).first == [
                "POST", "/v1/accounts:signInWithPassword?key=test-api-key",
                canonicalJSON(#"{"email":"alice@example.com","password":"secret1","returnSecureToken":true}"#),
            ])
    }

    @Test func signInAnonymouslySendsSignUpWithoutEmail() async throws {
        let harness = try AuthHarness(handler: Self.scripted)
        let auth = harness.makeAuth(persistence: .inMemory)

        try await auth.signInAnonymously()

        #expect(
            calls(harness).first == [
                "POST", "/v1/accounts:signUp?key=test-api-key",
                canonicalJSON(#"{"clientType":"CLIENT_TYPE_IOS","returnSecureToken":true}"#),
            ])
    }

    @Test func customTokenAndGoogleCredentialBodies() async throws {
        let harness = try AuthHarness(handler: Self.scripted)
        let auth = harness.makeAuth(persistence: .inMemory)

        try await auth.signIn(withCustomToken: "custom-token")
        try await auth.signIn(with: GoogleAuthProvider.credential(withIDToken: "g-id", accessToken: "g-access"))

        let calls = calls(harness)
        #expect(
            calls[0] == [
                "POST", "/v1/accounts:signInWithCustomToken?key=test-api-key",
                canonicalJSON(#"{"token":"custom-token","returnSecureToken":true}"#),
            ])
        #expect(
            calls[2] == [
                "POST", "/v1/accounts:signInWithIdp?key=test-api-key",
                canonicalJSON(
                    #"{"requestUri":"http://localhost","postBody":"providerId=google.com&id_token=g-id&access_token=g-access","returnSecureToken":true,"returnIdpCredential":true,"autoCreate":true}"#
                ),
            ])
    }

    @Test func forcedRefreshPostsTheGrantToTheSecureTokenService() async throws {
        let harness = try AuthHarness(handler: Self.scripted)
        let auth = try await signedIn(harness)

        let token = try await auth.currentUser?.getIDToken(forcingRefresh: true)

        #expect(token == "id-token-2")
        #expect(
            calls(harness) == [
                [
                    "POST", "/v1/token?key=test-api-key",
                    canonicalJSON(#"{"grantType":"refresh_token","refreshToken":"refresh-1"}"#),
                ]
            ])
        #expect(auth.currentUser?.refreshToken == "refresh-2")
    }

    @Test func actionCodeBodies() async throws {
        let harness = try AuthHarness(handler: Self.scripted)
        let auth = harness.makeAuth(persistence: .inMemory)

        try await auth.sendPasswordReset(withEmail: "alice@example.com")
        _ = try await auth.verifyPasswordResetCode("code-1")
        try await auth.confirmPasswordReset(withCode: "code-1", newPassword: "newSecret")
        try await auth.applyActionCode("code-2")

        #expect(
            calls(harness) == [
                [
                    "POST", "/v1/accounts:sendOobCode?key=test-api-key",
                    canonicalJSON(#"{"requestType":"PASSWORD_RESET","email":"alice@example.com"}"#),
                ],
                ["POST", "/v1/accounts:resetPassword?key=test-api-key", canonicalJSON(#"{"oobCode":"code-1"}"#)],
                [
                    "POST", "/v1/accounts:resetPassword?key=test-api-key",
                    canonicalJSON(#"{"oobCode":"code-1","newPassword":"newSecret"}"#),
                ],
                [
                    "POST", "/v1/accounts:update?key=test-api-key",
                    canonicalJSON(#"{"oobCode":"code-2","returnSecureToken":true}"#),
                ],
            ])
    }

    @Test func userOperationBodies() async throws {
        let harness = try AuthHarness(handler: Self.scripted)
        let auth = try await signedIn(harness)
        let user = try #require(auth.currentUser)

        let change = user.createProfileChangeRequest()
        change.displayName = "Alice"
        change.photoURL = URL(string: "https://example.com/a.png")
        try await change.commitChanges()
        try await user.sendEmailVerification()
        try await user.delete()

        let calls = calls(harness).filter { !$0[1].contains("lookup") }
        #expect(
            calls == [
                [
                    "POST", "/v1/accounts:update?key=test-api-key",
                    canonicalJSON(
                        #"{"idToken":"id-token-1","displayName":"Alice","photoUrl":"https://example.com/a.png","returnSecureToken":true}"#
                    ),
                ],
                [
                    "POST", "/v1/accounts:sendOobCode?key=test-api-key",
                    canonicalJSON(#"{"requestType":"VERIFY_EMAIL","idToken":"id-token-1"}"#),
                ],
                [
                    "POST", "/v1/accounts:delete?key=test-api-key",
                    canonicalJSON(#"{"idToken":"id-token-1","localId":"uid-1"}"#),
                ],
            ])
        #expect(auth.currentUser == nil)
    }

    @Test func headersAreThoseOfTheAppleSDK() async throws {
        // given
        struct FixedAppCheck: AppCheckTokenProvider {
            func token() async throws -> String? { "app-check-token" }
        }
        let harness = try AuthHarness(bundleID: "com.example.movies", handler: Self.scripted)
        let auth = harness.makeAuth(persistence: .inMemory)
        auth.languageCode = "fr"
        auth.appCheck = FixedAppCheck()

        // when
        try await auth.sendPasswordReset(withEmail: "alice@example.com")

        // then
        let headers = try #require(harness.server.requests.first?.headers)
        #expect(headers["content-type"] == "application/json")
        #expect(headers["x-client-version"] == "Linux/FirebaseSDK/11.15.0/FirebaseCore-Linux")
        #expect(headers["x-firebase-gmpid"] == "1:123:ios:abc")
        #expect(headers["x-ios-bundle-identifier"] == "com.example.movies")
        #expect(headers["x-firebase-locale"] == "fr")
        #expect(headers["x-firebase-appcheck"] == "app-check-token")
    }

    @Test func optionalHeadersAreLeftOutWhenUnset() async throws {
        let harness = try AuthHarness(handler: Self.scripted)
        let auth = harness.makeAuth(persistence: .inMemory)

        try await auth.sendPasswordReset(withEmail: "alice@example.com")

        let headers = try #require(harness.server.requests.first?.headers)
        #expect(headers["x-ios-bundle-identifier"] == nil)
        #expect(headers["x-firebase-locale"] == nil)
        #expect(headers["x-firebase-appcheck"] == nil)
    }

    @Test func emulatorURLsCarryTheServiceHostAndAPlaceholderKey() async throws {
        // given: no API key, emulator set
        let harness = try AuthHarness(apiKey: nil, handler: Self.scripted)
        let auth = harness.makeAuth(persistence: .inMemory)
        auth.useEmulator(withHost: "127.0.0.1", port: harness.server.port)

        // when
        try await auth.signIn(withEmail: "alice@example.com", password: "secret1")
        _ = try await auth.currentUser?.getIDToken(forcingRefresh: true)

        // then
        #expect(
            harness.server.requests.map(\.target) == [
                "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=fake-api-key",
                "/identitytoolkit.googleapis.com/v1/accounts:lookup?key=fake-api-key",
                "/securetoken.googleapis.com/v1/token?key=fake-api-key",
            ])
        #expect(auth.emulatorHost == "127.0.0.1")
        #expect(auth.emulatorPort == harness.server.port)
        #expect(auth.emulatorHostAndPort == "127.0.0.1:\(harness.server.port)")
    }

    @Test func productionWithoutAnAPIKeyFailsBeforeSending() async throws {
        let harness = try AuthHarness(apiKey: nil, handler: Self.scripted)
        let auth = harness.makeAuth(persistence: .inMemory)

        await #expect {
            try await auth.signInAnonymously()
        } throws: { authCode($0) == .invalidAPIKey }
        #expect(harness.server.requests.isEmpty)
    }

    @Test func ipv6EmulatorHostsAreBracketed() throws {
        let harness = try AuthHarness(handler: Self.scripted)
        let auth = harness.makeAuth(persistence: .inMemory)

        auth.useEmulator(withHost: "::1", port: 9099)

        #expect(auth.emulatorHostAndPort == "[::1]:9099")
        #expect(auth.emulatorHost == "::1")
    }
}

extension RequestFixtureTests {
    @Test func actionCodeSettingsFillTheOobBody() async throws {
        // given
        let harness = try AuthHarness(handler: Self.scripted)
        let auth = harness.makeAuth(persistence: .inMemory)
        let settings = ActionCodeSettings()
        settings.url = URL(string: "https://example.com/finish")
        settings.handleCodeInApp = true
        settings.setIOSBundleID("com.example.movies")
        settings.setAndroidPackageName("com.example.movies", installIfNotAvailable: true, minimumVersion: "12")

        // when
        try await auth.sendPasswordReset(withEmail: "alice@example.com", actionCodeSettings: settings)

        // then
        #expect(
            harness.server.requests.first?.canonicalBody
                == canonicalJSON(
                    #"{"requestType":"PASSWORD_RESET","email":"alice@example.com","continueUrl":"https://example.com/finish","iOSBundleId":"com.example.movies","androidPackageName":"com.example.movies","androidInstallApp":true,"androidMinimumVersion":"12","canHandleCodeInApp":true}"#
                ))
    }
}
