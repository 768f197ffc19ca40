import COpenSSL

/// Signs messages with an RSA private key, RSASSA-PKCS1-v1_5 over SHA-256 (JWT's `RS256`), through OpenSSL's
/// `EVP_DigestSign`: what a Google service account's key signs its token requests with.
///
/// ```swift
/// let signer = try RS256Signer(privateKeyPEM: serviceAccount.privateKey)
/// let signature = try signer.sign(Array("\(header).\(claims)".utf8))
/// ```
///
/// `@unchecked Sendable`: the key is not changed once loaded, and OpenSSL signs with one key from several threads,
/// each signature with a digest context of its own.
public final class RS256Signer: @unchecked Sendable {
    /// The `EVP_PKEY`.
    private let key: OpaquePointer

    /// Loads a PEM private key (`-----BEGIN PRIVATE KEY-----`, or `BEGIN RSA PRIVATE KEY`).
    ///
    /// - Parameter privateKeyPEM: the key's PEM text.
    /// - Throws: ``SigningError`` when the text holds no private key, or one that is not RSA.
    public init(privateKeyPEM: String) throws(SigningError) {
        ERR_clear_error()
        let bytes = Array(privateKeyPEM.utf8)
        let loaded: OpaquePointer? = bytes.withUnsafeBytes { raw in
            guard let buffer = BIO_new_mem_buf(raw.baseAddress, Int32(clamping: raw.count)) else { return nil }
            defer { BIO_free(buffer) }
            return PEM_read_bio_PrivateKey(buffer, nil, nil, nil)
        }
        guard let loaded else {
            throw SigningError("the private key cannot be read: \(OpenSSLErrorQueue.drain() ?? "no PEM key")")
        }
        guard EVP_PKEY_get_base_id(loaded) == EVP_PKEY_RSA else {
            EVP_PKEY_free(loaded)
            throw SigningError("the private key is not an RSA key")
        }
        key = loaded
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// Signs a message.
    ///
    /// - Parameter message: the bytes to sign (for a JWT, `base64url(header).base64url(claims)`).
    /// - Returns: the signature, as long as the key's modulus.
    /// - Throws: ``SigningError`` when OpenSSL fails.
    public func sign(_ message: [UInt8]) throws(SigningError) -> [UInt8] {
        ERR_clear_error()
        guard let context = EVP_MD_CTX_new() else { throw SigningError("OpenSSL cannot make a digest context") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else {
            throw SigningError("signing cannot start: \(OpenSSLErrorQueue.drain() ?? "OpenSSL failed")")
        }
        var length = 0
        guard message.withUnsafeBufferPointer({ EVP_DigestSign(context, nil, &length, $0.baseAddress, $0.count) }) == 1
        else {
            throw SigningError("signing failed: \(OpenSSLErrorQueue.drain() ?? "OpenSSL failed")")
        }
        var signature = [UInt8](repeating: 0, count: length)
        let signed = signature.withUnsafeMutableBufferPointer { output in
            message.withUnsafeBufferPointer { input in
                EVP_DigestSign(context, output.baseAddress, &length, input.baseAddress, input.count)
            }
        }
        guard signed == 1 else {
            throw SigningError("signing failed: \(OpenSSLErrorQueue.drain() ?? "OpenSSL failed")")
        }
        return Array(signature.prefix(length))
    }
}

/// Why a key could not be loaded or could not sign.
public struct SigningError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, without the key.
    public var description: String

    /// Creates an error.
    public init(_ description: String) {
        self.description = description
    }
}
