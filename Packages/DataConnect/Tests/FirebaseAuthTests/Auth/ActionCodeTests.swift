import FirebaseCore
import Foundation
import Testing

@_spi(Testing) @testable import FirebaseAuth

@Suite struct ActionCodeTests {
    @Test func passwordResetFlow() async throws {
        // given
        let harness = try AuthHarness()
        let uid = harness.fake.addAccount(email: "alice@example.com", password: "secret1")
        let auth = harness.makeAuth(persistence: .inMemory)
        try await auth.sendPasswordReset(withEmail: "alice@example.com")
        harness.fake.addOobCode("reset-1", type: "PASSWORD_RESET", email: "alice@example.com")

        // when
        let info = try await auth.checkActionCode("reset-1")
        let email = try await auth.verifyPasswordResetCode("reset-1")
        try await auth.confirmPasswordReset(withCode: "reset-1", newPassword: "new-secret")

        // then
        #expect(info.operation == .passwordReset)
        #expect(info.email == "alice@example.com")
        #expect(email == "alice@example.com")
        #expect(try await auth.signIn(withEmail: "alice@example.com", password: "new-secret").user.uid == uid)
    }

    @Test func unknownCodesAndEmailsAreMapped() async throws {
        let harness = try AuthHarness()
        let auth = harness.makeAuth(persistence: .inMemory)

        await #expect {
            try await auth.applyActionCode("nope")
        } throws: { authCode($0) == .invalidActionCode }
        await #expect {
            try await auth.sendPasswordReset(withEmail: "nobody@example.com")
        } throws: { authCode($0) == .userNotFound }
        harness.fake.failNext("resetPassword", with: "EXPIRED_OOB_CODE")
        await #expect {
            try await auth.confirmPasswordReset(withCode: "old", newPassword: "new-secret")
        } throws: { authCode($0) == .expiredActionCode }
    }
}
