import DataConnectWire

/// The settings of one project the emulator lets tests change (`/emulator/v1/projects/{p}/config`).
///
/// ```swift
/// var config = ProjectConfig()
/// config.enableImprovedEmailPrivacy = true   // sign-in failures answer INVALID_LOGIN_CREDENTIALS
/// config.json  // {"signIn":{"allowDuplicateEmails":false},"emailPrivacyConfig":{"enableImprovedEmailPrivacy":true}}
/// ```
public struct ProjectConfig: Sendable, Equatable {
    /// `signIn.allowDuplicateEmails`: whether several accounts may share an email (firebase-tools' default: no).
    public var allowDuplicateEmails = false
    /// `emailPrivacyConfig.enableImprovedEmailPrivacy`: sign-in failures do not tell a missing email from a wrong
    /// password.
    public var enableImprovedEmailPrivacy = false

    /// The default settings.
    public init() {}

    /// Reads the settings as `config.json` and `GET /emulator/v1/projects/{p}/config` write them.
    public init(json: JSONValue) {
        allowDuplicateEmails = json["signIn"]?["allowDuplicateEmails"]?.boolValue ?? false
        enableImprovedEmailPrivacy = json["emailPrivacyConfig"]?["enableImprovedEmailPrivacy"]?.boolValue ?? false
    }

    /// Applies the members a `PATCH` names, leaving the others.
    mutating func apply(patch json: JSONValue) {
        if let value = json["signIn"]?["allowDuplicateEmails"]?.boolValue { allowDuplicateEmails = value }
        if let value = json["emailPrivacyConfig"]?["enableImprovedEmailPrivacy"]?.boolValue {
            enableImprovedEmailPrivacy = value
        }
    }

    /// Whether an email belongs to one account at most.
    var oneAccountPerEmail: Bool { !allowDuplicateEmails }

    /// The settings as the emulator API answers them and `config.json` holds them.
    public var json: JSONValue {
        [
            "signIn": ["allowDuplicateEmails": .bool(allowDuplicateEmails)],
            "emailPrivacyConfig": ["enableImprovedEmailPrivacy": .bool(enableImprovedEmailPrivacy)],
        ]
    }
}
