import Foundation

// The request bodies and answers of the REST calls, with the field names of upstream's `Backend/RPC/*Request.swift`
// and of the Identity Toolkit v1 reference. `nil` fields are left out of the JSON.

/// `accounts:signUp` (upstream `SignUpNewUserRequest`): email sign-up, or anonymous sign-in with no fields.
struct SignUpBody: Encodable {
    var email: String?
    var password: String?
    var displayName: String?
    var idToken: String?
    /// Upstream always sends `CLIENT_TYPE_IOS`, for reCAPTCHA enforcement.
    var clientType = "CLIENT_TYPE_IOS"
    var returnSecureToken = true
}

/// `accounts:signInWithPassword` (upstream `VerifyPasswordRequest`).
struct SignInWithPasswordBody: Encodable {
    var email: String
    var password: String
    var returnSecureToken = true
}

/// `accounts:signInWithCustomToken` (upstream `VerifyCustomTokenRequest`).
struct SignInWithCustomTokenBody: Encodable {
    var token: String
    var returnSecureToken = true
}

/// `accounts:signInWithIdp` (upstream `VerifyAssertionRequest`); `idToken` links to the signed-in user.
struct SignInWithIdpBody: Encodable {
    var requestUri = "http://localhost"
    var postBody: String
    var idToken: String?
    var returnSecureToken = true
    var returnIdpCredential = true
    var autoCreate = true
}

/// `accounts:lookup` (upstream `GetAccountInfoRequest`).
struct LookupBody: Encodable {
    var idToken: String
}

/// `accounts:update` (upstream `SetAccountInfoRequest`).
struct UpdateBody: Encodable {
    var idToken: String?
    var displayName: String?
    var email: String?
    var password: String?
    var photoUrl: String?
    var oobCode: String?
    var deleteAttribute: [String]?
    var returnSecureToken = true
}

/// `accounts:sendOobCode` (upstream `GetOOBConfirmationCodeRequest`).
struct SendOobCodeBody: Encodable {
    var requestType: String
    var email: String?
    var idToken: String?
    var newEmail: String?
    var continueUrl: String?
    var iOSBundleId: String?
    var androidPackageName: String?
    var androidMinimumVersion: String?
    var androidInstallApp: Bool?
    var canHandleCodeInApp: Bool?
    var linkDomain: String?
}

/// `accounts:resetPassword` (upstream `ResetPasswordRequest`): with only `oobCode` it checks the code.
struct ResetPasswordBody: Encodable {
    var oobCode: String
    var newPassword: String?
}

/// `accounts:delete` (upstream `DeleteAccountRequest`).
struct DeleteBody: Encodable {
    var idToken: String
    var localId: String
}

/// `v1/token` (upstream `SecureTokenRequest`).
struct SecureTokenBody: Encodable {
    var grantType: String
    var refreshToken: String
}

/// The answer of every sign-in call and of `accounts:update` when tokens change.
struct SignInAnswer: Decodable {
    var idToken: String?
    var refreshToken: String?
    var expiresIn: Seconds?
    var localId: String?
    var email: String?
    var displayName: String?
    var isNewUser: Bool?
    var providerId: String?
    var rawUserInfo: String?
    var federatedId: String?
    var oauthIdToken: String?
    var oauthAccessToken: String?
}

/// The answer of `accounts:update`.
struct UpdateAnswer: Decodable {
    var idToken: String?
    var refreshToken: String?
    var expiresIn: Seconds?
    var email: String?
}

/// The answer of `accounts:lookup`.
struct LookupAnswer: Decodable {
    var users: [AccountInfo]?
}

/// One account in `accounts:lookup`.
struct AccountInfo: Codable, Equatable {
    var localId: String
    var email: String?
    var emailVerified: Bool?
    var displayName: String?
    var photoUrl: String?
    var phoneNumber: String?
    var providerUserInfo: [ProviderUserInfo]?
    var passwordHash: String?
    var createdAt: String?
    var lastLoginAt: String?
}

/// One linked provider in `accounts:lookup`.
struct ProviderUserInfo: Codable, Equatable {
    var providerId: String
    var federatedId: String?
    var rawId: String?
    var email: String?
    var displayName: String?
    var photoUrl: String?
    var phoneNumber: String?
}

/// The answer of `accounts:sendOobCode`.
struct SendOobCodeAnswer: Decodable {
    var email: String?
}

/// The answer of `accounts:resetPassword`.
struct ResetPasswordAnswer: Decodable {
    var email: String?
    var newEmail: String?
    var requestType: String?
}

/// An answer whose content is not used.
struct EmptyAnswer: Decodable {}

/// The answer of `v1/token`: snake_case, as the secure token service sends it.
struct SecureTokenAnswer: Decodable {
    var accessToken: String?
    var idToken: String?
    var refreshToken: String?
    var expiresIn: Seconds?

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case idToken = "id_token"
        case refreshToken = "refresh_token"
        case expiresIn = "expires_in"
    }
}

/// A count of seconds sent as a string (`"3600"`, as the services do) or as a number.
struct Seconds: Decodable, Equatable {
    var value: TimeInterval

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self), let value = TimeInterval(text) {
            self.value = value
        } else {
            value = try container.decode(TimeInterval.self)
        }
    }
}
