/// Makes email and password credentials.
///
/// ```swift
/// let credential = EmailAuthProvider.credential(withEmail: "alice@example.com", password: "secret1")
/// try await Auth.auth().currentUser?.link(with: credential)  // upgrade an anonymous user
/// ```
public enum EmailAuthProvider {
    /// The provider ID, `password`.
    public static let id = "password"

    /// A credential for an email and password.
    ///
    /// - Parameters:
    ///   - email: The user's email.
    ///   - password: The user's password.
    /// - Returns: The credential.
    public static func credential(withEmail email: String, password: String) -> AuthCredential {
        AuthCredential(provider: id, kind: .password(email: email, password: password))
    }
}
