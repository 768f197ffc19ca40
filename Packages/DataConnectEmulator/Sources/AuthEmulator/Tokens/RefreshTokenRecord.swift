import DataConnectEncoding
import DataConnectWire

/// What a refresh token stands for: the account, how it signed in, the custom token's claims and when it was issued.
///
/// The token is the record itself, base64-encoded JSON marked `_AuthEmulatorRefreshToken`, as firebase-tools makes
/// them: clients treat it as opaque, and it stays valid across restarts of the emulator as long as the account does.
struct RefreshTokenRecord: Sendable, Equatable {
    /// The account.
    var localId: String
    /// `password`, `anonymous`, `custom`, `google.com`...
    var provider: String
    /// The claims of the custom token the user signed in with, re-issued on every refresh.
    var extraClaims: JSONObject
    /// The project the token belongs to.
    var projectId: String
    /// When the token was issued, in seconds since the epoch; revoked when before the account's `validSince`.
    var issuedAt: Int64

    /// The token text.
    var token: String {
        let record: JSONValue = [
            "_AuthEmulatorRefreshToken": "DO NOT MODIFY", "localId": .string(localId), "provider": .string(provider),
            "extraClaims": .object(extraClaims), "projectId": .string(projectId),
            "issuedAt": .number(JSONNumber(issuedAt)),
        ]
        return Base64.url.encode(record.serialized())
    }

    /// Reads a token.
    ///
    /// - Throws: ``AuthAPIError`` `INVALID_REFRESH_TOKEN` when it is not one of the emulator's.
    init(token: String) throws(AuthAPIError) {
        guard let bytes = Base64.decodeLeniently(token), let record = try? JSONValue(parsing: bytes),
            record["_AuthEmulatorRefreshToken"]?.stringValue != nil, let localId = record["localId"]?.stringValue,
            let projectId = record["projectId"]?.stringValue
        else { throw .badRequest("INVALID_REFRESH_TOKEN") }
        self.localId = localId
        self.projectId = projectId
        provider = record["provider"]?.stringValue ?? "password"
        extraClaims = record["extraClaims"]?.objectValue ?? [:]
        issuedAt = record["issuedAt"]?.int64Value ?? 0
    }

    init(localId: String, provider: String, extraClaims: JSONObject, projectId: String, issuedAt: Int64) {
        self.localId = localId
        self.provider = provider
        self.extraClaims = extraClaims
        self.projectId = projectId
        self.issuedAt = issuedAt
    }
}
