/// Makes credentials from Google Sign-In tokens.
///
/// ```swift
/// let credential = GoogleAuthProvider.credential(withIDToken: googleIDToken, accessToken: googleAccessToken)
/// try await Auth.auth().signIn(with: credential)
/// ```
public enum GoogleAuthProvider {
    /// The provider ID, `google.com`.
    public static let id = "google.com"

    /// A credential for Google's ID token and access token.
    ///
    /// - Parameters:
    ///   - idToken: The Google ID token.
    ///   - accessToken: The Google access token.
    /// - Returns: The credential, sent to `accounts:signInWithIdp`.
    public static func credential(withIDToken idToken: String, accessToken: String) -> AuthCredential {
        AuthCredential(provider: id, kind: .idp(providerID: id, idToken: idToken, accessToken: accessToken))
    }
}
