import DataConnectWire

/// An account, as firebase-tools keeps it and exports it (`GoogleCloudIdentitytoolkitV1UserInfo`).
///
/// Times are kept in the API's own string forms: `createdAt` and `lastLoginAt` in milliseconds since the epoch,
/// `validSince` in seconds, `lastRefreshAt` as an ISO 8601 date; `passwordUpdatedAt` is a number of milliseconds.
/// Fields the emulator does not model (`mfaInfo`...) are kept in ``otherFields`` so an import exports unchanged.
///
/// ```swift
/// let user = try UserRecord(json: ["localId": "u1", "email": "a@example.com"])
/// user.json["email"]  // "a@example.com"
/// ```
public struct UserRecord: Sendable, Equatable {
    /// The user id (`uid`).
    public var localId: String
    /// The email, lowercased.
    public var email: String?
    /// Whether the email is verified.
    public var emailVerified: Bool?
    /// The display name.
    public var displayName: String?
    /// The photo URL.
    public var photoUrl: String?
    /// The phone number (E.164).
    public var phoneNumber: String?
    /// The password hash (see ``PasswordHasher``).
    public var passwordHash: String?
    /// The password salt.
    public var salt: String?
    /// When the password was last set, in milliseconds since the epoch.
    public var passwordUpdatedAt: Int64?
    /// Tokens issued before this time (seconds since the epoch) are revoked.
    public var validSince: String?
    /// When the account was created, in milliseconds since the epoch.
    public var createdAt: String?
    /// When the user last signed in, in milliseconds since the epoch.
    public var lastLoginAt: String?
    /// When tokens were last issued, as an ISO 8601 date.
    public var lastRefreshAt: String?
    /// Whether the account is disabled.
    public var disabled: Bool?
    /// The custom claims, a serialized JSON object.
    public var customAttributes: String?
    /// Whether the user signed in with a custom token.
    public var customAuth: Bool?
    /// The email before the first email change.
    public var initialEmail: String?
    /// Whether the user signed in with an email link.
    public var emailLinkSignin: Bool?
    /// The linked providers.
    public var providerUserInfo: [ProviderUserInfo]?
    /// Members of the record the emulator does not model, kept as they came.
    public var otherFields: JSONObject = [:]

    /// Creates an account with only an id.
    public init(localId: String) {
        self.localId = localId
    }

    /// The custom claims as a JSON object (empty when unset or malformed).
    public var customClaims: JSONObject {
        guard let customAttributes, let value = try? JSONValue(parsing: customAttributes) else { return [:] }
        return value.objectValue ?? [:]
    }

    /// Whether the account is disabled.
    public var isDisabled: Bool { disabled ?? false }

    private static let modelledKeys: Set<String> = [
        "localId", "email", "emailVerified", "displayName", "photoUrl", "phoneNumber", "passwordHash", "salt",
        "passwordUpdatedAt", "validSince", "createdAt", "lastLoginAt", "lastRefreshAt", "disabled",
        "customAttributes", "customAuth", "initialEmail", "emailLinkSignin", "providerUserInfo",
    ]

    /// Reads an exported record.
    ///
    /// - Parameter json: A `users[]` entry of `accounts.json`.
    /// - Throws: ``AuthAPIError`` when `localId` is missing.
    public init(json: JSONValue) throws(AuthAPIError) {
        guard let localId = json["localId"]?.stringValue, !localId.isEmpty else {
            throw .badRequest("localId is missing")
        }
        self.localId = localId
        email = json["email"]?.stringValue
        emailVerified = json["emailVerified"]?.boolValue
        displayName = json["displayName"]?.stringValue
        photoUrl = json["photoUrl"]?.stringValue
        phoneNumber = json["phoneNumber"]?.stringValue
        passwordHash = json["passwordHash"]?.stringValue
        salt = json["salt"]?.stringValue
        passwordUpdatedAt = json["passwordUpdatedAt"].flatMap(Self.integer)
        validSince = json["validSince"].flatMap(Self.text)
        createdAt = json["createdAt"].flatMap(Self.text)
        lastLoginAt = json["lastLoginAt"].flatMap(Self.text)
        lastRefreshAt = json["lastRefreshAt"]?.stringValue
        disabled = json["disabled"]?.boolValue
        customAttributes = json["customAttributes"]?.stringValue
        customAuth = json["customAuth"]?.boolValue
        initialEmail = json["initialEmail"]?.stringValue
        emailLinkSignin = json["emailLinkSignin"]?.boolValue
        providerUserInfo = json["providerUserInfo"]?.arrayValue?.compactMap(ProviderUserInfo.init(json:))
        for (key, value) in json.objectValue ?? [:] where !Self.modelledKeys.contains(key) {
            otherFields[key] = value
        }
    }

    /// The record as the API answers it and as `accounts.json` holds it.
    public var json: JSONValue {
        var object: JSONObject = ["localId": .string(localId)]
        func put(_ key: String, _ value: String?) { if let value { object[key] = .string(value) } }
        func put(_ key: String, _ value: Bool?) { if let value { object[key] = .bool(value) } }
        put("createdAt", createdAt)
        put("lastLoginAt", lastLoginAt)
        put("displayName", displayName)
        put("photoUrl", photoUrl)
        put("customAttributes", customAttributes)
        put("email", email)
        put("emailVerified", emailVerified)
        put("passwordHash", passwordHash)
        put("salt", salt)
        if let passwordUpdatedAt { object["passwordUpdatedAt"] = .number(JSONNumber(passwordUpdatedAt)) }
        put("validSince", validSince)
        put("phoneNumber", phoneNumber)
        put("disabled", disabled)
        put("customAuth", customAuth)
        put("initialEmail", initialEmail)
        put("emailLinkSignin", emailLinkSignin)
        put("lastRefreshAt", lastRefreshAt)
        if let providerUserInfo { object["providerUserInfo"] = .array(providerUserInfo.map(\.json)) }
        for (key, value) in otherFields { object[key] = value }
        return .object(object)
    }

    /// A string member given as a string or a number (the Admin SDKs send numbers).
    static func text(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): return text
        case .number(let number): return number.text
        default: return nil
        }
    }

    private static func integer(_ value: JSONValue) -> Int64? {
        switch value {
        case .number(let number): return number.int64Value ?? Int64(number.doubleValue)
        case .string(let text): return Int64(text)
        default: return nil
        }
    }
}
