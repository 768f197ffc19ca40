import DataConnectWire
import Foundation

/// One API call on one project: the request's members, who calls, the time, and the project's state, with the
/// accounts it changed so the emulator can write them through to its ``AuthStorage``.
///
/// The operations (`AuthSession+SignIn.swift`, `+Accounts`, `+Admin`, `+OutOfBand`, `+Tokens`) follow
/// firebase-tools' `operations.ts`: same checks in the same order, same messages, same response members.
struct AuthSession {
    /// The project's state, changed in place.
    var project: ProjectState
    /// The request members, names camelCased.
    let body: JSONObject
    /// Whether the caller has admin credentials (`Authorization: Bearer owner`).
    let isAdmin: Bool
    /// The time of the call.
    let now: Date
    /// `http://host:port` of the emulator as the caller reached it, for out-of-band links.
    let origin: String
    /// The query parameters (`maxResults`, `nextPageToken`).
    let query: [String: String]

    /// Accounts saved during the call.
    private(set) var savedIDs: Set<String> = []
    /// Accounts removed during the call.
    private(set) var removedIDs: Set<String> = []
    /// Whether every account was removed.
    private(set) var removedAll = false
    /// Whether the settings changed.
    var configChanged = false

    init(
        project: ProjectState, body: JSONObject, isAdmin: Bool, now: Date, origin: String, query: [String: String]
    ) {
        self.project = project
        self.body = body
        self.isAdmin = isAdmin
        self.now = now
        self.origin = origin
        self.query = query
    }

    /// Stores a new or changed account, after recomputing its `password` and `phone` providers.
    @discardableResult
    mutating func save(
        _ user: UserRecord, upserting upserts: [ProviderUserInfo] = [], deleting deletes: [String] = []
    ) -> UserRecord {
        var user = user
        var upserts = upserts
        var deletes = deletes
        if let email = user.email, user.passwordHash != nil || user.emailLinkSignin == true {
            upserts.append(
                ProviderUserInfo(
                    providerId: "password", rawId: email, federatedId: email, email: email,
                    displayName: user.displayName, photoUrl: user.photoUrl))
        } else {
            deletes.append("password")
        }
        if let phone = user.phoneNumber {
            upserts.append(ProviderUserInfo(providerId: "phone", rawId: phone, phoneNumber: phone))
        } else {
            deletes.append("phone")
        }
        if var providers = user.providerUserInfo {
            providers.removeAll { deletes.contains($0.providerId) }
            user.providerUserInfo = providers
        }
        if !upserts.isEmpty {
            var providers = user.providerUserInfo ?? []
            for upsert in upserts {
                if let index = providers.firstIndex(where: { $0.providerId == upsert.providerId }) {
                    providers[index] = upsert
                } else {
                    providers.append(upsert)
                }
            }
            user.providerUserInfo = providers
        }
        project.save(user)
        savedIDs.insert(user.localId)
        removedIDs.remove(user.localId)
        return user
    }

    /// Removes an account.
    mutating func delete(_ localId: String) {
        project.remove(localId: localId)
        savedIDs.remove(localId)
        removedIDs.insert(localId)
    }

    /// Removes every account.
    mutating func deleteAll() {
        project.removeAllUsers()
        savedIDs = []
        removedIDs = []
        removedAll = true
    }

    /// A fresh user id no account has.
    func newLocalID() -> String {
        var id = Identifiers.randomID(28)
        while project.user(localId: id) != nil { id = Identifiers.randomID(28) }
        return id
    }

    /// `now` in milliseconds, as text.
    var nowMilliseconds: String { Identifiers.milliseconds(now) }

    /// `now` in seconds.
    var nowSeconds: Int64 { Identifiers.seconds(now) }

    /// The account a privileged call names by `localId`.
    func requireUser(localId: String?) throws(AuthAPIError) -> UserRecord {
        guard let localId, !localId.isEmpty else { throw .badRequest("MISSING_LOCAL_ID") }
        guard let user = project.user(localId: localId) else { throw .badRequest("USER_NOT_FOUND") }
        return user
    }
}

/// The password rule firebase-tools applies.
enum PasswordRule {
    static let minimumLength = 6
    static let weakPasswordMessage = "WEAK_PASSWORD : Password should be at least 6 characters"
}
