import Foundation

/// The error domain and `userInfo` keys of Firebase Auth errors, as upstream.
///
/// Every error the SDK throws is an `NSError` in ``domain`` whose `code` is an ``AuthErrorCode`` raw value and
/// whose `userInfo` holds ``userInfoNameKey`` (e.g. `ERROR_EMAIL_ALREADY_IN_USE`) and `NSLocalizedDescriptionKey`.
///
/// ```swift
/// do {
///     try await Auth.auth().createUser(withEmail: "alice@example.com", password: "secret1")
/// } catch let error as NSError where error.code == AuthErrorCode.emailAlreadyInUse.rawValue {
///     print(error.userInfo[AuthErrors.userInfoNameKey] ?? "")  // ERROR_EMAIL_ALREADY_IN_USE
/// }
/// ```
public enum AuthErrors {
    /// The Firebase Auth error domain.
    public static let domain = "FIRAuthErrorDomain"

    /// The key for the error's short name, e.g. `ERROR_WRONG_PASSWORD`.
    public static let userInfoNameKey = "FIRAuthErrorUserInfoNameKey"

    /// The key for the email address of the account that already exists.
    public static let userInfoEmailKey = "FIRAuthErrorUserInfoEmailKey"

    /// The key for the updated credential to recover with, where one applies.
    public static let userInfoUpdatedCredentialKey = "FIRAuthErrorUserInfoUpdatedCredentialKey"

    /// The key for the multi-factor resolver (never set on Linux: multi-factor sign-in is not supported).
    public static let userInfoMultiFactorResolverKey = "FIRAuthErrorUserInfoMultiFactorResolverKey"

    /// The key for the server's decoded answer when it could not be mapped to a code.
    static let userInfoDeserializedResponseKey = "FIRAuthErrorUserInfoDeserializedResponseKey"

    /// The key for the raw body of an answer that could not be decoded.
    static let userInfoDataKey = "FIRAuthErrorUserInfoDataKey"

    /// Builds the `NSError` upstream's `AuthErrorUtils` builds for `code`.
    ///
    /// An empty or missing `message` falls back to the code's standard description.
    static func error(_ code: AuthErrorCode, message: String? = nil, userInfo: [String: Any] = [:]) -> NSError {
        var info = userInfo
        if let message, !message.isEmpty, info[NSLocalizedDescriptionKey] == nil {
            info[NSLocalizedDescriptionKey] = message
        }
        if (info[NSLocalizedDescriptionKey] as? String ?? "").isEmpty {
            info[NSLocalizedDescriptionKey] = code.errorDescription
        }
        info[userInfoNameKey] = code.errorCodeString
        return NSError(domain: domain, code: code.rawValue, userInfo: info)
    }
}
