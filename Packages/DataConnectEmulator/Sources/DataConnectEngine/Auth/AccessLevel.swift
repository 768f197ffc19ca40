/// The levels of `@auth(level:)`, from open to closed.
///
/// | Level | Lets through |
/// |---|---|
/// | `PUBLIC` | everyone |
/// | `USER_ANON` | any signed-in user, anonymous included |
/// | `USER` | signed-in users who are not anonymous |
/// | `USER_EMAIL_VERIFIED` | non-anonymous users whose token has `email_verified: true` |
/// | `NO_ACCESS` | nobody (admin calls without impersonation skip `@auth` altogether) |
///
/// An operation without `@auth` is `NO_ACCESS`.
///
/// ```swift
/// AccessLevel(rawValue: "USER")  // .USER
/// ```
public enum AccessLevel: String, CaseIterable, Hashable, Sendable {
    /// Everyone, with or without a token.
    case PUBLIC
    /// Any signed-in user, anonymous included.
    case USER_ANON
    /// Signed-in users who are not anonymous.
    case USER
    /// Non-anonymous users with a verified email.
    case USER_EMAIL_VERIFIED
    /// Nobody but privileged callers.
    case NO_ACCESS
}

/// Whether a caller may run an operation, and if not, which error to answer.
///
/// ```swift
/// switch authorize(level: .USER, auth: nil) {
/// case .allowed: break
/// case .unauthenticated(let message): print("401", message)
/// case .permissionDenied(let message): print("403", message)
/// }
/// ```
public enum AuthOutcome: Hashable, Sendable {
    /// The caller may run the operation.
    case allowed
    /// The caller must sign in (differently): `UNAUTHENTICATED`, HTTP 401.
    case unauthenticated(String)
    /// No sign-in would help: `PERMISSION_DENIED`, HTTP 403.
    case permissionDenied(String)

    /// Whether the outcome is ``allowed``.
    public var isAllowed: Bool {
        self == .allowed
    }
}

/// Decides an `@auth(level:)` for a caller, following the emulator's outcome table.
///
/// | Caller | PUBLIC | USER_ANON | USER | USER_EMAIL_VERIFIED | NO_ACCESS |
/// |---|---|---|---|---|---|
/// | no token | ok | UNAUTHENTICATED | UNAUTHENTICATED | UNAUTHENTICATED | PERMISSION_DENIED |
/// | anonymous | ok | ok | UNAUTHENTICATED | UNAUTHENTICATED | PERMISSION_DENIED |
/// | signed in | ok | ok | ok | UNAUTHENTICATED | PERMISSION_DENIED |
/// | signed in, `email_verified` | ok | ok | ok | ok | PERMISSION_DENIED |
///
/// A context without a user id counts as no token.
///
/// ```swift
/// authorize(level: .USER, auth: nil)
/// // .unauthenticated("operation requires a signed-in user (@auth(level: USER))")
/// ```
///
/// - Parameters:
///   - level: the operation's level.
///   - auth: the caller, or `nil` when no token was sent.
/// - Returns: the outcome, with a message for the refusals.
public func authorize(level: AccessLevel, auth: AuthContext?) -> AuthOutcome {
    // Built only for a refusal: an allowed request writes no message.
    var directive: String { "(@auth(level: \(level.rawValue)))" }
    let signedIn = auth?.isAuthenticated == true
    let anonymous = signedIn && auth?.isAnonymous == true
    switch level {
    case .PUBLIC:
        return .allowed
    case .USER_ANON:
        guard signedIn else {
            return .unauthenticated("operation requires a signed-in user, anonymous or not \(directive)")
        }
        return .allowed
    case .USER:
        guard signedIn else { return .unauthenticated("operation requires a signed-in user \(directive)") }
        guard !anonymous else {
            return .unauthenticated("operation requires a signed-in user, not an anonymous one \(directive)")
        }
        return .allowed
    case .USER_EMAIL_VERIFIED:
        guard signedIn, !anonymous else {
            return .unauthenticated("operation requires a signed-in user with a verified email \(directive)")
        }
        guard auth?.emailVerified == true else {
            return .unauthenticated("operation requires a verified email (email_verified is not true) \(directive)")
        }
        return .allowed
    case .NO_ACCESS:
        return .permissionDenied("operation is not accessible to clients \(directive)")
    }
}
