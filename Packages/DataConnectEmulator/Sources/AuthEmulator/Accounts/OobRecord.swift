import DataConnectWire

/// An out-of-band code the emulator would have emailed (verify email, reset password, sign in by link).
public struct OobRecord: Sendable, Equatable {
    /// The address the email would go to.
    public var email: String
    /// `VERIFY_EMAIL`, `PASSWORD_RESET` or `EMAIL_SIGNIN`.
    public var requestType: String
    /// The code the action applies.
    public var oobCode: String
    /// The link the email would carry.
    public var oobLink: String

    /// The record as `GET /emulator/v1/projects/{p}/oobCodes` lists it.
    var json: JSONValue {
        [
            "email": .string(email), "requestType": .string(requestType), "oobCode": .string(oobCode),
            "oobLink": .string(oobLink),
        ]
    }
}
