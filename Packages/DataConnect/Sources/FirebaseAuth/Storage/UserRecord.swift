import Foundation

/// Everything known about the signed-in user: the state of a ``User`` and the content of `user.json`.
struct UserRecord: Codable, Equatable, Sendable {
    var uid: String
    var email: String?
    var displayName: String?
    var photoURL: String?
    var phoneNumber: String?
    var emailVerified = false
    var isAnonymous = false
    var providers: [ProviderUserInfo] = []
    var creationDate: Date?
    var lastSignInDate: Date?
    var tokens: Tokens

    /// The ID token, the refresh token and the ID token's expiry.
    struct Tokens: Codable, Equatable, Sendable {
        var idToken: String
        var refreshToken: String
        var expirationDate: Date
    }

    /// Copies the fields of an `accounts:lookup` answer.
    mutating func update(from account: AccountInfo) {
        email = account.email
        displayName = account.displayName
        photoURL = account.photoUrl
        phoneNumber = account.phoneNumber
        emailVerified = account.emailVerified ?? false
        providers = account.providerUserInfo ?? []
        creationDate = account.createdAt.flatMap(Double.init).map { Date(timeIntervalSince1970: $0 / 1000) }
        lastSignInDate = account.lastLoginAt.flatMap(Double.init).map { Date(timeIntervalSince1970: $0 / 1000) }
        if !providers.isEmpty || account.passwordHash != nil {
            isAnonymous = false
        }
    }
}
