import Foundation

/// A user's profile with one provider, as upstream.
///
/// ```swift
/// for info in Auth.auth().currentUser?.providerData ?? [] { print(info.providerID, info.email ?? "") }
/// ```
public protocol UserInfo: Sendable {
    /// The provider's ID, e.g. `password`, `google.com`, or `firebase` for the ``User`` itself.
    var providerID: String { get }
    /// The user's ID with the provider (for ``User``, the Firebase uid).
    var uid: String { get }
    /// The display name.
    var displayName: String? { get }
    /// The photo URL.
    var photoURL: URL? { get }
    /// The email.
    var email: String? { get }
    /// The phone number.
    var phoneNumber: String? { get }
}

/// One entry of ``User/providerData``, from `accounts:lookup`'s `providerUserInfo`.
struct ProviderUserInfoEntry: UserInfo {
    let providerID: String
    let uid: String
    let displayName: String?
    let photoURL: URL?
    let email: String?
    let phoneNumber: String?

    init(_ info: ProviderUserInfo) {
        providerID = info.providerId
        uid = info.rawId ?? info.federatedId ?? ""
        displayName = info.displayName
        photoURL = info.photoUrl.flatMap(URL.init(string:))
        email = info.email
        phoneNumber = info.phoneNumber
    }
}
