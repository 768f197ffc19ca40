import DataConnectWire

/// One sign-in provider linked to an account (`providerUserInfo[]`): `password`, `google.com`, `phone`...
public struct ProviderUserInfo: Sendable, Equatable {
    /// `password`, `google.com`, `phone`...
    public var providerId: String
    /// The user's id at the provider (the email for `password`).
    public var rawId: String
    /// The federated id (firebase-tools sets it to ``rawId``).
    public var federatedId: String?
    /// The email the provider reports.
    public var email: String?
    /// The display name the provider reports.
    public var displayName: String?
    /// The photo URL the provider reports.
    public var photoUrl: String?
    /// The phone number, for `phone`.
    public var phoneNumber: String?
    /// The screen name the provider reports.
    public var screenName: String?

    /// Creates a provider entry.
    public init(
        providerId: String, rawId: String, federatedId: String? = nil, email: String? = nil,
        displayName: String? = nil, photoUrl: String? = nil, phoneNumber: String? = nil, screenName: String? = nil
    ) {
        self.providerId = providerId
        self.rawId = rawId
        self.federatedId = federatedId
        self.email = email
        self.displayName = displayName
        self.photoUrl = photoUrl
        self.phoneNumber = phoneNumber
        self.screenName = screenName
    }

    /// Reads an entry of `providerUserInfo`; `nil` without `providerId` and `rawId`.
    init?(json: JSONValue) {
        guard let providerId = json["providerId"]?.stringValue, let rawId = json["rawId"]?.stringValue else {
            return nil
        }
        self.init(
            providerId: providerId, rawId: rawId, federatedId: json["federatedId"]?.stringValue,
            email: json["email"]?.stringValue, displayName: json["displayName"]?.stringValue,
            photoUrl: json["photoUrl"]?.stringValue, phoneNumber: json["phoneNumber"]?.stringValue,
            screenName: json["screenName"]?.stringValue)
    }

    /// The entry as the API writes it.
    var json: JSONValue {
        var object: JSONObject = ["providerId": .string(providerId)]
        if let email { object["email"] = .string(email) }
        if let federatedId { object["federatedId"] = .string(federatedId) }
        object["rawId"] = .string(rawId)
        if let displayName { object["displayName"] = .string(displayName) }
        if let photoUrl { object["photoUrl"] = .string(photoUrl) }
        if let phoneNumber { object["phoneNumber"] = .string(phoneNumber) }
        if let screenName { object["screenName"] = .string(screenName) }
        return .object(object)
    }
}
