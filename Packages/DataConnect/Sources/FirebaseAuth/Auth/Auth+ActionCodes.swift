import Foundation

/// Out-of-band codes: password reset and email actions.
extension Auth {
    /// Sends a password-reset email (`accounts:sendOobCode`, `PASSWORD_RESET`).
    ///
    /// ```swift
    /// try await Auth.auth().sendPasswordReset(withEmail: "alice@example.com")
    /// ```
    ///
    /// - Parameter email: The account's email.
    /// - Throws: ``AuthErrorCode/userNotFound``, ``AuthErrorCode/invalidEmail``.
    public func sendPasswordReset(withEmail email: String) async throws {
        let _: SendOobCodeAnswer = try await backend().identityToolkit(
            "sendOobCode", SendOobCodeBody(requestType: "PASSWORD_RESET", email: email))
    }

    /// Sends a password-reset email whose link follows `actionCodeSettings`.
    ///
    /// - Parameters:
    ///   - email: The account's email.
    ///   - actionCodeSettings: The continue URL and the apps that may open the link.
    /// - Throws: ``AuthErrorCode/userNotFound``, ``AuthErrorCode/invalidEmail``,
    ///   ``AuthErrorCode/unauthorizedDomain``, ``AuthErrorCode/invalidContinueURI``.
    public func sendPasswordReset(withEmail email: String, actionCodeSettings: ActionCodeSettings) async throws {
        var body = SendOobCodeBody(requestType: "PASSWORD_RESET", email: email)
        actionCodeSettings.apply(to: &body)
        let _: SendOobCodeAnswer = try await backend().identityToolkit("sendOobCode", body)
    }

    /// ``sendPasswordReset(withEmail:)`` with a completion handler.
    ///
    /// - Parameters:
    ///   - email: The account's email.
    ///   - completion: Called with `nil` or the error.
    public func sendPasswordReset(withEmail email: String, completion: (@Sendable ((any Error)?) -> Void)?) {
        Task {
            do {
                try await sendPasswordReset(withEmail: email)
                completion?(nil)
            } catch {
                completion?(error)
            }
        }
    }

    /// Sets a new password with the code of a password-reset email (`accounts:resetPassword`).
    ///
    /// - Parameters:
    ///   - code: The `oobCode` of the email's link.
    ///   - newPassword: The new password.
    /// - Throws: ``AuthErrorCode/invalidActionCode``, ``AuthErrorCode/expiredActionCode``,
    ///   ``AuthErrorCode/weakPassword``.
    public func confirmPasswordReset(withCode code: String, newPassword: String) async throws {
        let _: ResetPasswordAnswer = try await backend().identityToolkit(
            "resetPassword", ResetPasswordBody(oobCode: code, newPassword: newPassword))
    }

    /// Checks a password-reset code and returns its email (`accounts:resetPassword` without a password).
    ///
    /// - Parameter code: The `oobCode`.
    /// - Returns: The account's email.
    /// - Throws: ``AuthErrorCode/invalidActionCode``, ``AuthErrorCode/expiredActionCode``.
    public func verifyPasswordResetCode(_ code: String) async throws -> String {
        let answer: ResetPasswordAnswer = try await backend().identityToolkit(
            "resetPassword", ResetPasswordBody(oobCode: code))
        return answer.email ?? ""
    }

    /// Reads what a code does (`accounts:resetPassword` without a password).
    ///
    /// - Parameter code: The `oobCode`.
    /// - Returns: The operation and its email.
    /// - Throws: ``AuthErrorCode/invalidActionCode``, ``AuthErrorCode/expiredActionCode``.
    public func checkActionCode(_ code: String) async throws -> ActionCodeInfo {
        let answer: ResetPasswordAnswer = try await backend().identityToolkit(
            "resetPassword", ResetPasswordBody(oobCode: code))
        let operation = ActionCodeOperation(requestType: answer.requestType)
        if operation == .verifyAndChangeEmail || operation == .recoverEmail, let newEmail = answer.newEmail {
            return ActionCodeInfo(operation: operation, email: newEmail, previousEmail: answer.email)
        }
        return ActionCodeInfo(operation: operation, email: answer.email ?? "", previousEmail: answer.newEmail)
    }

    /// Applies an email-verification or email-change code (`accounts:update` with `oobCode`).
    ///
    /// - Parameter code: The `oobCode`.
    /// - Throws: ``AuthErrorCode/invalidActionCode``, ``AuthErrorCode/expiredActionCode``.
    public func applyActionCode(_ code: String) async throws {
        var body = UpdateBody()
        body.oobCode = code
        let _: UpdateAnswer = try await backend().identityToolkit("update", body)
    }
}
