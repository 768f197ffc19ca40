/// The kind of out-of-band action a code performs, as upstream.
public enum ActionCodeOperation: Int, Sendable {
    /// Unknown action.
    case unknown = 0
    /// Password reset.
    case passwordReset = 1
    /// Email verification.
    case verifyEmail = 2
    /// Email change recovery.
    case recoverEmail = 3
    /// Email link sign-in.
    case emailLink = 4
    /// Verify and change email.
    case verifyAndChangeEmail = 5
    /// Revert a second factor addition.
    case revertSecondFactorAddition = 6

    /// The operation for the server's `requestType`.
    init(requestType: String?) {
        switch requestType {
        case "PASSWORD_RESET": self = .passwordReset
        case "VERIFY_EMAIL": self = .verifyEmail
        case "RECOVER_EMAIL": self = .recoverEmail
        case "EMAIL_SIGNIN": self = .emailLink
        case "VERIFY_AND_CHANGE_EMAIL": self = .verifyAndChangeEmail
        case "REVERT_SECOND_FACTOR_ADDITION": self = .revertSecondFactorAddition
        default: self = .unknown
        }
    }
}

/// What an action code does and for which email, from ``Auth/checkActionCode(_:)``.
///
/// ```swift
/// let info = try await Auth.auth().checkActionCode(code)
/// if info.operation == .passwordReset { print("reset for", info.email) }
/// ```
public final class ActionCodeInfo: Sendable {
    /// The action.
    public let operation: ActionCodeOperation
    /// The email the code was sent to.
    public let email: String
    /// The email before the change, for email-change codes.
    public let previousEmail: String?

    init(operation: ActionCodeOperation, email: String, previousEmail: String?) {
        self.operation = operation
        self.email = email
        self.previousEmail = previousEmail
    }
}
