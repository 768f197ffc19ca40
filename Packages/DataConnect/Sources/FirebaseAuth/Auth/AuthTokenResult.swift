import DataConnectEncoding
import Foundation

/// An ID token with its decoded claims.
///
/// ```swift
/// let result = try await Auth.auth().currentUser!.getIDTokenResult(forcingRefresh: false)
/// print(result.signInProvider, result.expirationDate, result.claims["admin"] ?? false)
/// ```
public final class AuthTokenResult: Sendable {
    /// The raw JWT.
    public let token: String
    /// When the token expires (`exp`).
    public let expirationDate: Date
    /// When the user signed in (`auth_time`).
    public let authDate: Date
    /// When the token was issued (`iat`).
    public let issuedAtDate: Date
    /// The sign-in provider (`firebase.sign_in_provider`), e.g. `password`, `anonymous`, `custom`.
    public let signInProvider: String
    /// The second factor used (`firebase.sign_in_second_factor`), if any.
    public let signInSecondFactor: String

    /// All claims of the token's payload.
    public var claims: [String: Any] {
        (try? Self.payload(of: token)) ?? [:]
    }

    /// Decodes `token`.
    ///
    /// - Throws: ``AuthErrorCode/malformedJWT`` when the token is not a JWT with `exp`, `iat` and `auth_time`.
    init(token: String) throws {
        let claims = try Self.payload(of: token)
        func date(_ name: String) throws -> Date {
            guard let seconds = (claims[name] as? NSNumber)?.doubleValue else {
                throw AuthErrors.error(.malformedJWT, userInfo: ["FIRAuthErrorUserInfoDataKey": token])
            }
            return Date(timeIntervalSince1970: seconds)
        }
        self.token = token
        expirationDate = try date("exp")
        issuedAtDate = try date("iat")
        authDate = (try? date("auth_time")) ?? issuedAtDate
        let firebase = claims["firebase"] as? [String: Any]
        signInProvider = firebase?["sign_in_provider"] as? String ?? ""
        signInSecondFactor = firebase?["sign_in_second_factor"] as? String ?? ""
    }

    /// The JSON payload of a JWT (its second, base64url-encoded part).
    static func payload(of token: String) throws -> [String: Any] {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2 else { throw AuthErrors.error(.malformedJWT) }
        guard
            let bytes = Base64.decodeLeniently(parts[1]),
            let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        else { throw AuthErrors.error(.malformedJWT) }
        return object
    }
}
