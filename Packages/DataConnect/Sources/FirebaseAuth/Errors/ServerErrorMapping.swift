import Foundation

/// Maps the Identity Toolkit's and the secure token service's error messages to ``AuthErrorCode``s, as upstream's
/// `AuthBackend.clientError(withServerErrorMessage:)` does.
///
/// The server answers `{"error": {"code": 400, "message": "WEAK_PASSWORD : Password should be at least 6
/// characters", "errors": [...]}}`. The part before ` : ` names the error; the part after, when present, becomes
/// the `NSLocalizedDescriptionKey` (or, for `WEAK_PASSWORD`, `NSLocalizedFailureReasonErrorKey`).
enum ServerErrorMapping {
    /// The code for each short server message.
    ///
    /// `INVALID_REFRESH_TOKEN` is not in upstream's table (it surfaces there as an internal error); here it is
    /// ``AuthErrorCode/invalidUserToken``, as the Android SDK maps it, so a dead refresh token signs the user out.
    static let codes: [String: AuthErrorCode] = [
        "USER_NOT_FOUND": .userNotFound,
        "EMAIL_NOT_FOUND": .userNotFound,
        "MISSING_CONTINUE_URI": .missingContinueURI,
        "INVALID_IDENTIFIER": .invalidEmail,
        "INVALID_ID_TOKEN": .invalidUserToken,
        "INVALID_REFRESH_TOKEN": .invalidUserToken,
        "CREDENTIAL_TOO_OLD_LOGIN_AGAIN": .requiresRecentLogin,
        "EMAIL_EXISTS": .emailAlreadyInUse,
        "OPERATION_NOT_ALLOWED": .operationNotAllowed,
        "PASSWORD_LOGIN_DISABLED": .operationNotAllowed,
        "USER_DISABLED": .userDisabled,
        "INVALID_EMAIL": .invalidEmail,
        "EXPIRED_OOB_CODE": .expiredActionCode,
        "INVALID_OOB_CODE": .invalidActionCode,
        "INVALID_MESSAGE_PAYLOAD": .invalidMessagePayload,
        "INVALID_SENDER": .invalidSender,
        "INVALID_RECIPIENT_EMAIL": .invalidRecipientEmail,
        "WEAK_PASSWORD": .weakPassword,
        "TOO_MANY_ATTEMPTS_TRY_LATER": .tooManyRequests,
        "MISSING_EMAIL": .missingEmail,
        "MISSING_IOS_BUNDLE_ID": .missingIosBundleID,
        "MISSING_ANDROID_PACKAGE_NAME": .missingAndroidPackageName,
        "UNAUTHORIZED_DOMAIN": .unauthorizedDomain,
        "INVALID_CONTINUE_URI": .invalidContinueURI,
        "INVALID_PASSWORD": .wrongPassword,
        "INVALID_IDP_RESPONSE": .invalidCredential,
        "INVALID_PENDING_TOKEN": .invalidCredential,
        "INVALID_LOGIN_CREDENTIALS": .invalidCredential,
        "INVALID_CUSTOM_TOKEN": .invalidCustomToken,
        "CREDENTIAL_MISMATCH": .customTokenMismatch,
        "INVALID_PHONE_NUMBER": .invalidPhoneNumber,
        "QUOTA_EXCEEDED": .quotaExceeded,
        "APP_NOT_VERIFIED": .appNotVerified,
        "CAPTCHA_CHECK_FAILED": .captchaCheckFailed,
        "INVALID_APP_CREDENTIAL": .invalidAppCredential,
        "MISSING_APP_CREDENTIAL": .missingAppCredential,
        "INVALID_CODE": .invalidVerificationCode,
        "INVALID_SESSION_INFO": .invalidVerificationID,
        "SESSION_EXPIRED": .sessionExpired,
        "ADMIN_ONLY_OPERATION": .adminRestrictedOperation,
        "BLOCKING_FUNCTION_ERROR_RESPONSE": .blockingCloudFunctionError,
        "EMAIL_CHANGE_NEEDS_VERIFICATION": .emailChangeNeedsVerification,
        "INVALID_MFA_PENDING_CREDENTIAL": .invalidMultiFactorSession,
        "INVALID_PROVIDER_ID": .invalidProviderID,
        "MFA_ENROLLMENT_NOT_FOUND": .multiFactorInfoNotFound,
        "MISSING_CLIENT_IDENTIFIER": .missingClientIdentifier,
        "MISSING_IOS_APP_TOKEN": .missingAppToken,
        "MISSING_MFA_ENROLLMENT_ID": .missingMultiFactorInfo,
        "MISSING_MFA_PENDING_CREDENTIAL": .missingMultiFactorSession,
        "MISSING_OR_INVALID_NONCE": .missingOrInvalidNonce,
        "SECOND_FACTOR_EXISTS": .secondFactorAlreadyEnrolled,
        "SECOND_FACTOR_LIMIT_EXCEEDED": .maximumSecondFactorCountExceeded,
        "TENANT_ID_MISMATCH": .tenantIDMismatch,
        "TOKEN_EXPIRED": .userTokenExpired,
        "UNSUPPORTED_FIRST_FACTOR": .unsupportedFirstFactor,
        "UNSUPPORTED_TENANT_OPERATION": .unsupportedTenantOperation,
        "UNVERIFIED_EMAIL": .unverifiedEmail,
        "FEDERATED_USER_ID_ALREADY_LINKED": .credentialAlreadyInUse,
    ]

    /// Codes whose error carries no server detail upstream.
    private static let withoutDetail: Set<AuthErrorCode> = [
        .emailAlreadyInUse, .missingAppToken, .tenantIDMismatch, .unsupportedTenantOperation,
    ]

    /// The error for an error answer: `errorObject` is the value of the answer's `error` member.
    ///
    /// - Parameters:
    ///   - errorObject: The decoded `error` object, with `message` and perhaps `errors`.
    ///   - statusCode: The HTTP status, kept for an unknown message.
    /// - Returns: The mapped error, or ``AuthErrorCode/internalError`` carrying the answer.
    static func error(for errorObject: [String: Any], statusCode: Int) -> NSError {
        let message = errorObject["message"] as? String ?? ""
        let separator = message.firstIndex(of: ":")
        let short = String(message[..<(separator ?? message.endIndex)]).trimmingCharacters(in: .whitespaces)
        let detail = separator.map { String(message[message.index(after: $0)...]) }?
            .trimmingCharacters(in: .whitespaces)
        if let code = codes[short] {
            if code == .weakPassword {
                let reason = detail.flatMap { $0.isEmpty ? nil : $0 }
                return AuthErrors.error(code, userInfo: reason.map { [NSLocalizedFailureReasonErrorKey: $0] } ?? [:])
            }
            return AuthErrors.error(code, message: withoutDetail.contains(code) ? nil : detail)
        }
        for reason in (errorObject["errors"] as? [[String: Any]] ?? []).compactMap({ $0["reason"] as? String }) {
            if reason.hasPrefix("keyInvalid") { return AuthErrors.error(.invalidAPIKey) }
            if reason == "ipRefererBlocked" { return AuthErrors.error(.appNotAuthorized) }
        }
        return AuthErrors.error(
            .internalError,
            userInfo: [AuthErrors.userInfoDeserializedResponseKey: errorObject, "statusCode": statusCode])
    }
}
