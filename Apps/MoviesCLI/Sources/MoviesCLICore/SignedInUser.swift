import Foundation

/// What `movies whoami` prints: the signed-in Firebase Auth user and the claims of its ID token.
///
/// ```swift
/// let user = SignedInUser(
///     uid: "Zq3…", email: "ada@example.com", displayName: "ada", isEmailVerified: false,
///     signInProvider: "password", claims: ["critic": .bool(true)])
/// MovieFormatter.whoami(user)   // "Signed in as ada (uid Zq3…, ada@example.com)\n..."
/// ```
public struct SignedInUser: Encodable, Equatable, Sendable {
    /// The Firebase Auth uid.
    public var uid: String
    /// The account's email, if any.
    public var email: String?
    /// The display name, if set.
    public var displayName: String?
    /// Whether the email is verified.
    public var isEmailVerified: Bool
    /// How the user signed in (`firebase.sign_in_provider`): `password`, `anonymous`, `custom`, ...
    public var signInProvider: String
    /// The ID token's custom claims (set by an admin), without the claims every Firebase ID token has.
    public var claims: [String: ClaimValue]

    /// Creates a user.
    public init(
        uid: String, email: String?, displayName: String?, isEmailVerified: Bool, signInProvider: String,
        claims: [String: ClaimValue]
    ) {
        self.uid = uid
        self.email = email
        self.displayName = displayName
        self.isEmailVerified = isEmailVerified
        self.signInProvider = signInProvider
        self.claims = claims
    }

    /// The claims Firebase puts in every ID token, which ``customClaims(from:)`` leaves out.
    public static let standardClaims: Set<String> = [
        "iss", "aud", "auth_time", "user_id", "sub", "iat", "exp", "email", "email_verified", "firebase", "name",
        "picture", "phone_number", "provider_id",
    ]

    /// The custom claims among an ID token's decoded claims (`AuthTokenResult.claims`).
    ///
    /// - Parameter claims: Every claim of the token, as `JSONSerialization` decoded them.
    /// - Returns: The others than ``standardClaims``, as JSON values; none when they are not JSON.
    public static func customClaims(from claims: [String: Any]) -> [String: ClaimValue] {
        let custom = claims.filter { !standardClaims.contains($0.key) }
        guard
            JSONSerialization.isValidJSONObject(custom),
            let data = try? JSONSerialization.data(withJSONObject: custom),
            let values = try? JSONDecoder().decode([String: ClaimValue].self, from: data)
        else { return [:] }
        return values
    }

    enum CodingKeys: String, CodingKey {
        case uid, email, displayName
        case isEmailVerified = "emailVerified"
        case signInProvider, claims
    }
}

/// One JSON value of a custom claim.
public indirect enum ClaimValue: Codable, Equatable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number.
    case integer(Int)
    /// Any other number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([ClaimValue])
    /// An object.
    case object([String: ClaimValue])

    /// Decodes any JSON value; booleans stay booleans and whole numbers integers.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([ClaimValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: ClaimValue].self))
        }
    }

    /// Encodes the value as the JSON it came from.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
