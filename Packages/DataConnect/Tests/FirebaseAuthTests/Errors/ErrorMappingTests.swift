import Foundation
import Testing

@_spi(Testing) @testable import FirebaseAuth

@Suite struct ErrorMappingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var serverMessage: String
        var code: AuthErrorCode
        var name: String
        var testDescription: String { serverMessage }
    }

    static let cases: [Case] = [
        Case(serverMessage: "EMAIL_EXISTS", code: .emailAlreadyInUse, name: "ERROR_EMAIL_ALREADY_IN_USE"),
        Case(serverMessage: "EMAIL_NOT_FOUND", code: .userNotFound, name: "ERROR_USER_NOT_FOUND"),
        Case(serverMessage: "INVALID_PASSWORD", code: .wrongPassword, name: "ERROR_WRONG_PASSWORD"),
        Case(serverMessage: "INVALID_LOGIN_CREDENTIALS", code: .invalidCredential, name: "ERROR_INVALID_CREDENTIAL"),
        Case(serverMessage: "USER_DISABLED", code: .userDisabled, name: "ERROR_USER_DISABLED"),
        Case(serverMessage: "USER_NOT_FOUND", code: .userNotFound, name: "ERROR_USER_NOT_FOUND"),
        Case(serverMessage: "TOKEN_EXPIRED", code: .userTokenExpired, name: "ERROR_USER_TOKEN_EXPIRED"),
        Case(serverMessage: "INVALID_REFRESH_TOKEN", code: .invalidUserToken, name: "ERROR_INVALID_USER_TOKEN"),
        Case(
            serverMessage: "WEAK_PASSWORD : Password should be at least 6 characters", code: .weakPassword,
            name: "ERROR_WEAK_PASSWORD"),
        Case(serverMessage: "INVALID_EMAIL", code: .invalidEmail, name: "ERROR_INVALID_EMAIL"),
        Case(serverMessage: "INVALID_OOB_CODE", code: .invalidActionCode, name: "ERROR_INVALID_ACTION_CODE"),
        Case(serverMessage: "EXPIRED_OOB_CODE", code: .expiredActionCode, name: "ERROR_EXPIRED_ACTION_CODE"),
        Case(
            serverMessage: "CREDENTIAL_TOO_OLD_LOGIN_AGAIN", code: .requiresRecentLogin,
            name: "ERROR_REQUIRES_RECENT_LOGIN"),
        Case(serverMessage: "INVALID_ID_TOKEN", code: .invalidUserToken, name: "ERROR_INVALID_USER_TOKEN"),
        Case(serverMessage: "OPERATION_NOT_ALLOWED", code: .operationNotAllowed, name: "ERROR_OPERATION_NOT_ALLOWED"),
        Case(serverMessage: "PASSWORD_LOGIN_DISABLED", code: .operationNotAllowed, name: "ERROR_OPERATION_NOT_ALLOWED"),
        Case(serverMessage: "TOO_MANY_ATTEMPTS_TRY_LATER", code: .tooManyRequests, name: "ERROR_TOO_MANY_REQUESTS"),
        Case(serverMessage: "INVALID_CUSTOM_TOKEN", code: .invalidCustomToken, name: "ERROR_INVALID_CUSTOM_TOKEN"),
        Case(serverMessage: "CREDENTIAL_MISMATCH", code: .customTokenMismatch, name: "ERROR_CUSTOM_TOKEN_MISMATCH"),
        Case(serverMessage: "INVALID_IDP_RESPONSE", code: .invalidCredential, name: "ERROR_INVALID_CREDENTIAL"),
        Case(serverMessage: "MISSING_EMAIL", code: .missingEmail, name: "ERROR_MISSING_EMAIL"),
    ]

    @Test(arguments: cases)
    func serverMessageMapsToTheAppleSDKCode(_ testCase: Case) async throws {
        // given
        let harness = try AuthHarness()
        harness.fake.failNext("signInWithPassword", with: testCase.serverMessage)
        let auth = harness.makeAuth(persistence: .inMemory)

        // when
        var thrown: NSError?
        do {
            try await auth.signIn(withEmail: "alice@example.com", password: "secret1")
        } catch {
            thrown = error as NSError
        }

        // then
        let error = try #require(thrown)
        #expect(error.domain == "FIRAuthErrorDomain")
        #expect(error.code == testCase.code.rawValue)
        #expect(error.userInfo["FIRAuthErrorUserInfoNameKey"] as? String == testCase.name)
        #expect(!(error.localizedDescription).isEmpty)
    }

    @Test func errorCodeValuesAreUpstreams() {
        #expect(AuthErrorCode.invalidCustomToken.rawValue == 17000)
        #expect(AuthErrorCode.emailAlreadyInUse.rawValue == 17007)
        #expect(AuthErrorCode.wrongPassword.rawValue == 17009)
        #expect(AuthErrorCode.userNotFound.rawValue == 17011)
        #expect(AuthErrorCode.requiresRecentLogin.rawValue == 17014)
        #expect(AuthErrorCode.invalidUserToken.rawValue == 17017)
        #expect(AuthErrorCode.networkError.rawValue == 17020)
        #expect(AuthErrorCode.userTokenExpired.rawValue == 17021)
        #expect(AuthErrorCode.weakPassword.rawValue == 17026)
        #expect(AuthErrorCode.internalError.rawValue == 17999)
        #expect(AuthErrorCode.malformedJWT.rawValue == 18000)
        #expect(AuthErrors.domain == "FIRAuthErrorDomain")
        #expect(AuthErrors.userInfoNameKey == "FIRAuthErrorUserInfoNameKey")
    }

    @Test func weakPasswordKeepsTheServersReason() {
        let error = ServerErrorMapping.error(
            for: ["message": "WEAK_PASSWORD : Password should be at least 6 characters"], statusCode: 400)

        #expect(
            error.userInfo[NSLocalizedFailureReasonErrorKey] as? String == "Password should be at least 6 characters")
        #expect(error.localizedDescription == "The password must be 6 characters long or more.")
    }

    @Test func detailAfterTheColonBecomesTheDescription() {
        let error = ServerErrorMapping.error(for: ["message": "USER_DISABLED : Ask an admin"], statusCode: 400)

        #expect(error.localizedDescription == "Ask an admin")
    }

    @Test func invalidAPIKeyAndUnknownMessages() {
        let keyError = ServerErrorMapping.error(
            for: [
                "message": "API key not valid. Please pass a valid API key.",
                "errors": [["reason": "keyInvalid"]],
            ], statusCode: 400)
        let unknown = ServerErrorMapping.error(for: ["message": "SOMETHING_NEW"], statusCode: 400)

        #expect(keyError.code == AuthErrorCode.invalidAPIKey.rawValue)
        #expect(unknown.code == AuthErrorCode.internalError.rawValue)
    }

    @Test func unreachableServerIsANetworkError() async throws {
        let harness = try AuthHarness()
        let auth = harness.makeAuth(persistence: .inMemory)
        harness.server.stop()

        await #expect {
            try await auth.signInAnonymously()
        } throws: { authCode($0) == .networkError }
    }
}
