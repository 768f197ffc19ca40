import Foundation

/// A credential to sign in, link or reauthenticate with, made by a provider such as ``EmailAuthProvider``.
///
/// ```swift
/// let credential = EmailAuthProvider.credential(withEmail: "alice@example.com", password: "secret1")
/// try await Auth.auth().signIn(with: credential)
/// ```
public final class AuthCredential: Sendable {
    enum Kind: Sendable, Equatable {
        case password(email: String, password: String)
        case idp(providerID: String, idToken: String?, accessToken: String?)
    }

    /// The provider's ID, e.g. `password` or `google.com`.
    public let provider: String

    let kind: Kind

    init(provider: String, kind: Kind) {
        self.provider = provider
        self.kind = kind
    }

    /// The `postBody` of `accounts:signInWithIdp` for an identity-provider credential, as upstream builds it:
    /// `providerId=...&id_token=...&access_token=...` (URL-query encoded).
    var idpPostBody: String? {
        guard case .idp(let providerID, let idToken, let accessToken) = kind else { return nil }
        var components = URLComponents()
        var items = [URLQueryItem(name: "providerId", value: providerID)]
        if let idToken { items.append(URLQueryItem(name: "id_token", value: idToken)) }
        if let accessToken { items.append(URLQueryItem(name: "access_token", value: accessToken)) }
        components.queryItems = items
        return components.percentEncodedQuery
    }
}
