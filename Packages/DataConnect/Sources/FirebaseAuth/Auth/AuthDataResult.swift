import Foundation

/// The result of a sign-in, sign-up, link or reauthentication.
///
/// ```swift
/// let result = try await Auth.auth().signInAnonymously()
/// print(result.user.uid, result.additionalUserInfo?.isNewUser ?? false)
/// ```
public final class AuthDataResult: Sendable {
    /// The signed-in user.
    public let user: User
    /// Provider details and whether the user is new.
    public let additionalUserInfo: AdditionalUserInfo?
    /// The credential to reuse, for identity providers that return one (never set on Linux).
    public let credential: AuthCredential?

    init(user: User, additionalUserInfo: AdditionalUserInfo?, credential: AuthCredential? = nil) {
        self.user = user
        self.additionalUserInfo = additionalUserInfo
        self.credential = credential
    }
}

/// What the provider reported at sign-in.
public final class AdditionalUserInfo: Sendable {
    /// The provider ID, e.g. `password`, `google.com`; `nil` for anonymous and custom-token sign-ins.
    public let providerID: String?
    /// The provider's profile, decoded from `rawUserInfo`, as JSON text (see ``profile``).
    let rawProfile: String?
    /// The provider's user name, if any.
    public let username: String?
    /// Whether the sign-in created the account.
    public let isNewUser: Bool

    /// The provider's profile as a dictionary, if the provider sent one.
    public var profile: [String: Any]? {
        guard let rawProfile, let data = rawProfile.data(using: .utf8) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    init(providerID: String?, rawProfile: String? = nil, username: String? = nil, isNewUser: Bool) {
        self.providerID = providerID
        self.rawProfile = rawProfile
        self.username = username
        self.isNewUser = isNewUser
    }
}
