/// The error codes of Firebase Auth, with upstream's names and raw values (Firebase Apple SDK 11).
///
/// Errors are thrown as `NSError`s in ``AuthErrors/domain``; read the code back with `AuthErrorCode(rawValue:)`.
/// Codes for Apple-only flows (phone, Game Center, web contexts, keychain, reCAPTCHA) exist so that app code
/// compiles unchanged, but the Linux SDK never throws them.
///
/// ```swift
/// do {
///     try await Auth.auth().signIn(withEmail: email, password: password)
/// } catch {
///     switch AuthErrorCode(rawValue: (error as NSError).code) {
///     case .wrongPassword, .invalidCredential: showWrongPassword()
///     case .userNotFound: offerSignUp()
///     default: show(error)
///     }
/// }
/// ```
public enum AuthErrorCode: Int, Sendable, CaseIterable {
    /// The custom token format is incorrect. Please check the documentation.
    case invalidCustomToken = 17000
    /// The custom token corresponds to a different audience.
    case customTokenMismatch = 17002
    /// The supplied auth credential is malformed or has expired.
    case invalidCredential = 17004
    /// The user account has been disabled by an administrator.
    case userDisabled = 17005
    /// Error `ERROR_OPERATION_NOT_ALLOWED`.
    case operationNotAllowed = 17006
    /// The email address is already in use by another account.
    case emailAlreadyInUse = 17007
    /// The email address is badly formatted.
    case invalidEmail = 17008
    /// The password is invalid or the user does not have a password.
    case wrongPassword = 17009
    /// We have blocked all requests from this device due to unusual activity. Try again later.
    case tooManyRequests = 17010
    /// There is no user record corresponding to this identifier. The user may have been deleted.
    case userNotFound = 17011
    /// Error `ERROR_ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIAL`.
    case accountExistsWithDifferentCredential = 17012
    /// This operation is sensitive and requires recent authentication. Log in again before retrying this re
    case requiresRecentLogin = 17014
    /// [ERROR_PROVIDER_ALREADY_LINKED] - User can only be linked to one identity for the given provider.
    case providerAlreadyLinked = 17015
    /// User was not linked to an account with the given provider.
    case noSuchProvider = 17016
    /// Error `ERROR_INVALID_USER_TOKEN`.
    case invalidUserToken = 17017
    /// Network error (such as timeout, interrupted connection or unreachable host) has occurred.
    case networkError = 17020
    /// The user's credential is no longer valid. The user must sign in again.
    case userTokenExpired = 17021
    /// An invalid API Key was supplied in the request.
    case invalidAPIKey = 17023
    /// The supplied credentials do not correspond to the previously signed in user.
    case userMismatch = 17024
    /// This credential is already associated with a different user account.
    case credentialAlreadyInUse = 17025
    /// The password must be 6 characters long or more.
    case weakPassword = 17026
    /// Error `ERROR_APP_NOT_AUTHORIZED`.
    case appNotAuthorized = 17028
    /// The action code has expired.
    case expiredActionCode = 17029
    /// The action code is invalid. This can happen if the code is malformed, expired, or has already been u
    case invalidActionCode = 17030
    /// The action code is invalid. This can happen if the code is malformed, expired, or has already been u
    case invalidMessagePayload = 17031
    /// Error `ERROR_INVALID_SENDER`.
    case invalidSender = 17032
    /// The action code is invalid. This can happen if the code is malformed, expired, or has already been u
    case invalidRecipientEmail = 17033
    /// An email address must be provided.
    case missingEmail = 17034
    /// An iOS Bundle ID must be provided if an App Store ID is provided.
    case missingIosBundleID = 17036
    /// An Android Package Name must be provided if the Android App is required to be installed.
    case missingAndroidPackageName = 17037
    /// The domain of the continue URL is not allowlisted. Please allowlist the domain in the Firebase conso
    case unauthorizedDomain = 17038
    /// The continue URL provided in the request is invalid.
    case invalidContinueURI = 17039
    /// A continue URL must be provided in the request.
    case missingContinueURI = 17040
    /// To send verification codes, provide a phone number for the recipient.
    case missingPhoneNumber = 17041
    /// The format of the phone number provided is incorrect.
    case invalidPhoneNumber = 17042
    /// The phone auth credential was created with an empty SMS verification Code.
    case missingVerificationCode = 17043
    /// The verification code used to create the auth credential is invalid.
    case invalidVerificationCode = 17044
    /// The phone auth credential was created with an empty verification ID.
    case missingVerificationID = 17045
    /// The verification ID used to create the phone auth credential is invalid.
    case invalidVerificationID = 17046
    /// The phone verification request is missing an APNs Device token.
    case missingAppCredential = 17047
    /// Error `INVALID_APP_CREDENTIAL`.
    case invalidAppCredential = 17048
    /// The SMS code has expired. Please re-send the verification code to try again.
    case sessionExpired = 17051
    /// The quota for this operation has been exceeded.
    case quotaExceeded = 17052
    /// There seems to be a problem with your project's Firebase phone number authentication set-up.
    case missingAppToken = 17053
    /// Remote notifications need to be forwarded to FirebaseAuth's canHandleNotification method.
    case notificationNotForwarded = 17054
    /// Firebase could not retrieve the silent push notification and therefore could not verify your app.
    case appNotVerified = 17055
    /// The reCAPTCHA response token provided is either invalid, expired or already
    case captchaCheckFailed = 17056
    /// User interaction is still ongoing, another view cannot be presented.
    case webContextAlreadyPresented = 17057
    /// The interaction was cancelled by the user.
    case webContextCancelled = 17058
    /// The app verification process has failed, print and inspect the error details for more information
    case appVerificationUserInteractionFailure = 17059
    /// The OAuth client ID provided is either invalid or does not match the specified API key.
    case invalidClientID = 17060
    /// Error `ERROR_WEB_NETWORK_REQUEST_FAILED`.
    case webNetworkRequestFailed = 17061
    /// An internal error has occurred within the SFSafariViewController or WKWebView.
    case webInternalError = 17062
    /// The app verification process has failed, print and inspect the error details for more information
    case webSignInUserInteractionFailure = 17063
    /// The local player is not authenticated. Please log the local player in to Game Center.
    case localPlayerNotAuthenticated = 17066
    /// A null user object was provided as the argument for an operation which requires a non-null user obje
    case nullUser = 17067
    /// Please activate Dynamic Links in the Firebase Console and agree to the terms and conditions.
    case dynamicLinkNotActivated = 17068
    /// The provider ID provided for the attempted web operation is invalid.
    case invalidProviderID = 17071
    /// The provided user's tenant ID does not match the Auth instance's tenant ID.
    case tenantIDMismatch = 17072
    /// This operation is not supported in a multi-tenant context.
    case unsupportedTenantOperation = 17073
    /// The Firebase Dynamic Link domain used is either not configured or is unauthorized for the current pr
    case invalidDynamicLinkDomain = 17074
    /// The request contains malformed or mismatching credentials.
    case rejectedCredential = 17075
    /// The GameKit framework is not linked. Please turn on the Game Center capability.
    case gameKitNotLinked = 17076
    /// Please complete a second factor challenge to finish signing into this account.
    case secondFactorRequired = 17078
    /// The request is missing proof of first factor successful sign-in.
    case missingMultiFactorSession = 17081
    /// No second factor identifier is provided.
    case missingMultiFactorInfo = 17082
    /// The request does not contain a valid proof of first factor successful sign-in.
    case invalidMultiFactorSession = 17083
    /// The user does not have a second factor matching the identifier provided.
    case multiFactorInfoNotFound = 17084
    /// This operation is restricted to administrators only.
    case adminRestrictedOperation = 17085
    /// The operation requires a verified email.
    case unverifiedEmail = 17086
    /// The second factor is already enrolled on this account.
    case secondFactorAlreadyEnrolled = 17087
    /// The maximum allowed number of second factors on a user has been exceeded.
    case maximumSecondFactorCountExceeded = 17088
    /// Error `ERROR_UNSUPPORTED_FIRST_FACTOR`.
    case unsupportedFirstFactor = 17089
    /// Multi-factor users must always have a verified email.
    case emailChangeNeedsVerification = 17090
    /// The request does not contain a client identifier.
    case missingClientIdentifier = 17093
    /// The request contains malformed or mismatched credentials.
    case missingOrInvalidNonce = 17094
    /// Blocking cloud function returned an error.
    case blockingCloudFunctionError = 17105
    /// reCAPTCHA Enterprise is not enabled for this project.
    case recaptchaNotEnabled = 17200
    /// The backend request is missing the reCAPTCHA verification token.
    case missingRecaptchaToken = 17201
    /// The reCAPTCHA verification token is invalid or has expired.
    case invalidRecaptchaToken = 17202
    /// The reCAPTCHA verification failed due to an invalid action.
    case invalidRecaptchaAction = 17203
    /// The request is missing a client type or the client type is invalid.
    case missingClientType = 17204
    /// The request is missing the reCAPTCHA version parameter.
    case missingRecaptchaVersion = 17205
    /// The request specifies an invalid version of reCAPTCHA.
    case invalidRecaptchaVersion = 17206
    /// The request is not supported or is invalid.
    case invalidReqType = 17207
    /// The reCAPTCHA SDK is not linked to your app.
    case recaptchaSDKNotLinked = 17208
    /// The reCAPTCHA SDK site key wasn't found.
    case recaptchaSiteKeyMissing = 17209
    /// The reCAPTCHA SDK action class failed to initialize.
    case recaptchaActionCreationFailed = 17210
    /// An error occurred when accessing the keychain.
    case keychainError = 17995
    /// An internal error has occurred, print and inspect the error details for more information.
    case internalError = 17999
    /// Failed to parse JWT. Check the userInfo dictionary for the full token.
    case malformedJWT = 18000

    /// The short name upstream stores under ``AuthErrors/userInfoNameKey``, e.g. `ERROR_EMAIL_ALREADY_IN_USE`.
    public var errorCodeString: String {
        switch self {
        case .invalidCustomToken: return "ERROR_INVALID_CUSTOM_TOKEN"
        case .customTokenMismatch: return "ERROR_CUSTOM_TOKEN_MISMATCH"
        case .invalidCredential: return "ERROR_INVALID_CREDENTIAL"
        case .userDisabled: return "ERROR_USER_DISABLED"
        case .operationNotAllowed: return "ERROR_OPERATION_NOT_ALLOWED"
        case .emailAlreadyInUse: return "ERROR_EMAIL_ALREADY_IN_USE"
        case .invalidEmail: return "ERROR_INVALID_EMAIL"
        case .wrongPassword: return "ERROR_WRONG_PASSWORD"
        case .tooManyRequests: return "ERROR_TOO_MANY_REQUESTS"
        case .userNotFound: return "ERROR_USER_NOT_FOUND"
        case .accountExistsWithDifferentCredential: return "ERROR_ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIAL"
        case .requiresRecentLogin: return "ERROR_REQUIRES_RECENT_LOGIN"
        case .providerAlreadyLinked: return "ERROR_PROVIDER_ALREADY_LINKED"
        case .noSuchProvider: return "ERROR_NO_SUCH_PROVIDER"
        case .invalidUserToken: return "ERROR_INVALID_USER_TOKEN"
        case .networkError: return "ERROR_NETWORK_REQUEST_FAILED"
        case .userTokenExpired: return "ERROR_USER_TOKEN_EXPIRED"
        case .invalidAPIKey: return "ERROR_INVALID_API_KEY"
        case .userMismatch: return "ERROR_USER_MISMATCH"
        case .credentialAlreadyInUse: return "ERROR_CREDENTIAL_ALREADY_IN_USE"
        case .weakPassword: return "ERROR_WEAK_PASSWORD"
        case .appNotAuthorized: return "ERROR_APP_NOT_AUTHORIZED"
        case .expiredActionCode: return "ERROR_EXPIRED_ACTION_CODE"
        case .invalidActionCode: return "ERROR_INVALID_ACTION_CODE"
        case .invalidMessagePayload: return "ERROR_INVALID_MESSAGE_PAYLOAD"
        case .invalidSender: return "ERROR_INVALID_SENDER"
        case .invalidRecipientEmail: return "ERROR_INVALID_RECIPIENT_EMAIL"
        case .missingEmail: return "ERROR_MISSING_EMAIL"
        case .missingIosBundleID: return "ERROR_MISSING_IOS_BUNDLE_ID"
        case .missingAndroidPackageName: return "ERROR_MISSING_ANDROID_PKG_NAME"
        case .unauthorizedDomain: return "ERROR_UNAUTHORIZED_DOMAIN"
        case .invalidContinueURI: return "ERROR_INVALID_CONTINUE_URI"
        case .missingContinueURI: return "ERROR_MISSING_CONTINUE_URI"
        case .missingPhoneNumber: return "ERROR_MISSING_PHONE_NUMBER"
        case .invalidPhoneNumber: return "ERROR_INVALID_PHONE_NUMBER"
        case .missingVerificationCode: return "ERROR_MISSING_VERIFICATION_CODE"
        case .invalidVerificationCode: return "ERROR_INVALID_VERIFICATION_CODE"
        case .missingVerificationID: return "ERROR_MISSING_VERIFICATION_ID"
        case .invalidVerificationID: return "ERROR_INVALID_VERIFICATION_ID"
        case .missingAppCredential: return "MISSING_APP_CREDENTIAL"
        case .invalidAppCredential: return "INVALID_APP_CREDENTIAL"
        case .sessionExpired: return "ERROR_SESSION_EXPIRED"
        case .quotaExceeded: return "ERROR_QUOTA_EXCEEDED"
        case .missingAppToken: return "ERROR_MISSING_APP_TOKEN"
        case .notificationNotForwarded: return "ERROR_NOTIFICATION_NOT_FORWARDED"
        case .appNotVerified: return "ERROR_APP_NOT_VERIFIED"
        case .captchaCheckFailed: return "ERROR_CAPTCHA_CHECK_FAILED"
        case .webContextAlreadyPresented: return "ERROR_WEB_CONTEXT_ALREADY_PRESENTED"
        case .webContextCancelled: return "ERROR_WEB_CONTEXT_CANCELLED"
        case .appVerificationUserInteractionFailure: return "ERROR_APP_VERIFICATION_FAILED"
        case .invalidClientID: return "ERROR_INVALID_CLIENT_ID"
        case .webNetworkRequestFailed: return "ERROR_WEB_NETWORK_REQUEST_FAILED"
        case .webInternalError: return "ERROR_WEB_INTERNAL_ERROR"
        case .webSignInUserInteractionFailure: return "ERROR_WEB_USER_INTERACTION_FAILURE"
        case .localPlayerNotAuthenticated: return "ERROR_LOCAL_PLAYER_NOT_AUTHENTICATED"
        case .nullUser: return "ERROR_NULL_USER"
        case .dynamicLinkNotActivated: return "ERROR_DYNAMIC_LINK_NOT_ACTIVATED"
        case .invalidProviderID: return "ERROR_INVALID_PROVIDER_ID"
        case .tenantIDMismatch: return "ERROR_TENANT_ID_MISMATCH"
        case .unsupportedTenantOperation: return "ERROR_UNSUPPORTED_TENANT_OPERATION"
        case .invalidDynamicLinkDomain: return "ERROR_INVALID_DYNAMIC_LINK_DOMAIN"
        case .rejectedCredential: return "ERROR_REJECTED_CREDENTIAL"
        case .gameKitNotLinked: return "ERROR_GAME_KIT_NOT_LINKED"
        case .secondFactorRequired: return "ERROR_SECOND_FACTOR_REQUIRED"
        case .missingMultiFactorSession: return "ERROR_MISSING_MULTI_FACTOR_SESSION"
        case .missingMultiFactorInfo: return "ERROR_MISSING_MULTI_FACTOR_INFO"
        case .invalidMultiFactorSession: return "ERROR_INVALID_MULTI_FACTOR_SESSION"
        case .multiFactorInfoNotFound: return "ERROR_MULTI_FACTOR_INFO_NOT_FOUND"
        case .adminRestrictedOperation: return "ERROR_ADMIN_RESTRICTED_OPERATION"
        case .unverifiedEmail: return "ERROR_UNVERIFIED_EMAIL"
        case .secondFactorAlreadyEnrolled: return "ERROR_SECOND_FACTOR_ALREADY_ENROLLED"
        case .maximumSecondFactorCountExceeded: return "ERROR_MAXIMUM_SECOND_FACTOR_COUNT_EXCEEDED"
        case .unsupportedFirstFactor: return "ERROR_UNSUPPORTED_FIRST_FACTOR"
        case .emailChangeNeedsVerification: return "ERROR_EMAIL_CHANGE_NEEDS_VERIFICATION"
        case .missingClientIdentifier: return "ERROR_MISSING_CLIENT_IDENTIFIER"
        case .missingOrInvalidNonce: return "ERROR_MISSING_OR_INVALID_NONCE"
        case .blockingCloudFunctionError: return "ERROR_BLOCKING_CLOUD_FUNCTION_RETURNED_ERROR"
        case .recaptchaNotEnabled: return "ERROR_RECAPTCHA_NOT_ENABLED"
        case .missingRecaptchaToken: return "ERROR_MISSING_RECAPTCHA_TOKEN"
        case .invalidRecaptchaToken: return "ERROR_INVALID_RECAPTCHA_TOKEN"
        case .invalidRecaptchaAction: return "ERROR_INVALID_RECAPTCHA_ACTION"
        case .missingClientType: return "ERROR_MISSING_CLIENT_TYPE"
        case .missingRecaptchaVersion: return "ERROR_MISSING_RECAPTCHA_VERSION"
        case .invalidRecaptchaVersion: return "ERROR_INVALID_RECAPTCHA_VERSION"
        case .invalidReqType: return "ERROR_INVALID_REQ_TYPE"
        case .recaptchaSDKNotLinked: return "ERROR_RECAPTCHA_SDK_NOT_LINKED"
        case .recaptchaSiteKeyMissing: return "ERROR_RECAPTCHA_SITE_KEY_MISSING"
        case .recaptchaActionCreationFailed: return "ERROR_RECAPTCHA_ACTION_CREATION_FAILED"
        case .keychainError: return "ERROR_KEYCHAIN_ERROR"
        case .internalError: return "ERROR_INTERNAL_ERROR"
        case .malformedJWT: return "ERROR_MALFORMED_JWT"
        }
    }

    /// The standard localized description, used when the server sends no detail.
    public var errorDescription: String {
        switch self {
        case .invalidCustomToken: return "The custom token format is incorrect. Please check the documentation."
        case .customTokenMismatch: return "The custom token corresponds to a different audience."
        case .invalidCredential: return "The supplied auth credential is malformed or has expired."
        case .userDisabled: return "The user account has been disabled by an administrator."
        case .operationNotAllowed:
            return "The given sign-in provider is disabled for this Firebase project. Enable it in the "
                + "Firebase console, under the sign-in method tab of the Auth section."
        case .emailAlreadyInUse: return "The email address is already in use by another account."
        case .invalidEmail: return "The email address is badly formatted."
        case .wrongPassword: return "The password is invalid or the user does not have a password."
        case .tooManyRequests:
            return "We have blocked all requests from this device due to unusual activity. Try again later."
        case .userNotFound:
            return "There is no user record corresponding to this identifier. The user may have been deleted."
        case .accountExistsWithDifferentCredential:
            return "An account already exists with the same email address but different sign-in credentials. "
                + "Sign in using a provider associated with this email address."
        case .requiresRecentLogin:
            return "This operation is sensitive and requires recent authentication. Log in again before "
                + "retrying this request."
        case .providerAlreadyLinked:
            return "[ERROR_PROVIDER_ALREADY_LINKED] - User can only be linked to one identity for the given "
                + "provider."
        case .noSuchProvider: return "User was not linked to an account with the given provider."
        case .invalidUserToken:
            return "This user's credential isn't valid for this project. This can happen if the user's token "
                + "has been tampered with, or if the user doesn't belong to the project associated with the "
                + "API key used in your request."
        case .networkError:
            return "Network error (such as timeout, interrupted connection or unreachable host) has occurred."
        case .userTokenExpired: return "The user's credential is no longer valid. The user must sign in again."
        case .invalidAPIKey: return "An invalid API Key was supplied in the request."
        case .userMismatch: return "The supplied credentials do not correspond to the previously signed in user."
        case .credentialAlreadyInUse: return "This credential is already associated with a different user account."
        case .weakPassword: return "The password must be 6 characters long or more."
        case .appNotAuthorized:
            return "This app is not authorized to use Firebase Authentication with the provided API key. "
                + "Review your key configuration in the Google API console and ensure that it accepts "
                + "requests from your app's bundle ID."
        case .expiredActionCode: return "The action code has expired."
        case .invalidActionCode:
            return "The action code is invalid. This can happen if the code is malformed, expired, or has "
                + "already been used."
        case .invalidMessagePayload:
            return "The action code is invalid. This can happen if the code is malformed, expired, or has "
                + "already been used."
        case .invalidSender:
            return "The email template corresponding to this action contains invalid characters in its "
                + "message. Please fix by going to the Auth email templates section in the Firebase Console."
        case .invalidRecipientEmail:
            return "The action code is invalid. This can happen if the code is malformed, expired, or has "
                + "already been used."
        case .missingEmail: return "An email address must be provided."
        case .missingIosBundleID: return "An iOS Bundle ID must be provided if an App Store ID is provided."
        case .missingAndroidPackageName:
            return "An Android Package Name must be provided if the Android App is required to be installed."
        case .unauthorizedDomain:
            return "The domain of the continue URL is not allowlisted. Please allowlist the domain in the "
                + "Firebase console."
        case .invalidContinueURI: return "The continue URL provided in the request is invalid."
        case .missingContinueURI: return "A continue URL must be provided in the request."
        case .missingPhoneNumber: return "To send verification codes, provide a phone number for the recipient."
        case .invalidPhoneNumber: return "The format of the phone number provided is incorrect."
        case .missingVerificationCode:
            return "The phone auth credential was created with an empty SMS verification Code."
        case .invalidVerificationCode: return "The verification code used to create the auth credential is invalid."
        case .missingVerificationID: return "The phone auth credential was created with an empty verification ID."
        case .invalidVerificationID: return "The verification ID used to create the phone auth credential is invalid."
        case .missingAppCredential: return "The phone verification request is missing an APNs Device token."
        case .invalidAppCredential:
            return "The APNs device token provided is either incorrect or does not match the private "
                + "certificate uploaded to the Firebase Console."
        case .sessionExpired: return "The SMS code has expired. Please re-send the verification code to try again."
        case .quotaExceeded: return "The quota for this operation has been exceeded."
        case .missingAppToken:
            return "There seems to be a problem with your project's Firebase phone number authentication set-"
                + "up."
        case .notificationNotForwarded:
            return "Remote notifications need to be forwarded to FirebaseAuth's canHandleNotification method."
        case .appNotVerified:
            return "Firebase could not retrieve the silent push notification and therefore could not verify "
                + "your app."
        case .captchaCheckFailed: return "The reCAPTCHA response token provided is either invalid, expired or already"
        case .webContextAlreadyPresented: return "User interaction is still ongoing, another view cannot be presented."
        case .webContextCancelled: return "The interaction was cancelled by the user."
        case .appVerificationUserInteractionFailure:
            return "The app verification process has failed, print and inspect the error details for more "
                + "information"
        case .invalidClientID:
            return "The OAuth client ID provided is either invalid or does not match the specified API key."
        case .webNetworkRequestFailed:
            return "A network error (such as timeout, interrupted connection, or unreachable host) has "
                + "occurred within the web context."
        case .webInternalError: return "An internal error has occurred within the SFSafariViewController or WKWebView."
        case .webSignInUserInteractionFailure:
            return "The app verification process has failed, print and inspect the error details for more "
                + "information"
        case .localPlayerNotAuthenticated:
            return "The local player is not authenticated. Please log the local player in to Game Center."
        case .nullUser:
            return "A null user object was provided as the argument for an operation which requires a non-null"
                + " user object."
        case .dynamicLinkNotActivated:
            return "Please activate Dynamic Links in the Firebase Console and agree to the terms and "
                + "conditions."
        case .invalidProviderID: return "The provider ID provided for the attempted web operation is invalid."
        case .tenantIDMismatch: return "The provided user's tenant ID does not match the Auth instance's tenant ID."
        case .unsupportedTenantOperation: return "This operation is not supported in a multi-tenant context."
        case .invalidDynamicLinkDomain:
            return "The Firebase Dynamic Link domain used is either not configured or is unauthorized for the "
                + "current project."
        case .rejectedCredential: return "The request contains malformed or mismatching credentials."
        case .gameKitNotLinked: return "The GameKit framework is not linked. Please turn on the Game Center capability."
        case .secondFactorRequired:
            return "Please complete a second factor challenge to finish signing into this account."
        case .missingMultiFactorSession: return "The request is missing proof of first factor successful sign-in."
        case .missingMultiFactorInfo: return "No second factor identifier is provided."
        case .invalidMultiFactorSession:
            return "The request does not contain a valid proof of first factor successful sign-in."
        case .multiFactorInfoNotFound: return "The user does not have a second factor matching the identifier provided."
        case .adminRestrictedOperation: return "This operation is restricted to administrators only."
        case .unverifiedEmail: return "The operation requires a verified email."
        case .secondFactorAlreadyEnrolled: return "The second factor is already enrolled on this account."
        case .maximumSecondFactorCountExceeded:
            return "The maximum allowed number of second factors on a user has been exceeded."
        case .unsupportedFirstFactor:
            return "Enrolling a second factor or signing in with a multi-factor account requires sign-in with "
                + "a supported first factor."
        case .emailChangeNeedsVerification: return "Multi-factor users must always have a verified email."
        case .missingClientIdentifier: return "The request does not contain a client identifier."
        case .missingOrInvalidNonce: return "The request contains malformed or mismatched credentials."
        case .blockingCloudFunctionError: return "Blocking cloud function returned an error."
        case .recaptchaNotEnabled: return "reCAPTCHA Enterprise is not enabled for this project."
        case .missingRecaptchaToken: return "The backend request is missing the reCAPTCHA verification token."
        case .invalidRecaptchaToken: return "The reCAPTCHA verification token is invalid or has expired."
        case .invalidRecaptchaAction: return "The reCAPTCHA verification failed due to an invalid action."
        case .missingClientType: return "The request is missing a client type or the client type is invalid."
        case .missingRecaptchaVersion: return "The request is missing the reCAPTCHA version parameter."
        case .invalidRecaptchaVersion: return "The request specifies an invalid version of reCAPTCHA."
        case .invalidReqType: return "The request is not supported or is invalid."
        case .recaptchaSDKNotLinked: return "The reCAPTCHA SDK is not linked to your app."
        case .recaptchaSiteKeyMissing: return "The reCAPTCHA SDK site key wasn't found."
        case .recaptchaActionCreationFailed: return "The reCAPTCHA SDK action class failed to initialize."
        case .keychainError: return "An error occurred when accessing the keychain."
        case .internalError:
            return "An internal error has occurred, print and inspect the error details for more information."
        case .malformedJWT: return "Failed to parse JWT. Check the userInfo dictionary for the full token."
        }
    }
}
