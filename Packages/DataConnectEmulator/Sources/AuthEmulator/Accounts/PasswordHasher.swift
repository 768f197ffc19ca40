import DataConnectEncoding

/// Salted password hashes.
///
/// The emulator stores base64(SHA-256(salt ‖ password)) with a random salt. It also verifies firebase-tools' own
/// format, `fakeHash:salt=<salt>:password=<password>`, so accounts exported by firebase-tools sign in after an
/// import here.
///
/// ```swift
/// let (hash, salt) = PasswordHasher.hash("hunter22")
/// PasswordHasher.verify("hunter22", hash: hash, salt: salt)  // true
/// ```
enum PasswordHasher {
    /// Hashes a new password with a fresh salt.
    ///
    /// - Parameter password: The password.
    /// - Returns: The hash and the salt to store.
    static func hash(_ password: String) -> (hash: String, salt: String) {
        let salt = "fakeSalt" + Identifiers.randomID(20)
        return (hash(password, salt: salt), salt)
    }

    /// The hash of `password` with `salt`.
    static func hash(_ password: String, salt: String) -> String {
        Base64.standard.encode(SHA256.hash(Array(salt.utf8) + Array(password.utf8)))
    }

    /// Whether `password` matches a stored hash (either format).
    static func verify(_ password: String, hash: String, salt: String) -> Bool {
        if hash.hasPrefix("fakeHash:") { return hash == "fakeHash:salt=\(salt):password=\(password)" }
        return hash == self.hash(password, salt: salt)
    }
}
