import DataConnectWire

/// The accounts, out-of-band codes and settings of one project, with the lookups the API needs.
///
/// The indexes (email, phone number, provider id) are kept in step with the accounts by ``save(_:)`` and
/// ``remove(localId:)``; out-of-band codes live in memory only, as in firebase-tools.
struct ProjectState: Sendable {
    /// The project id.
    let projectID: String
    /// The accounts by user id.
    private(set) var users: [String: UserRecord] = [:]
    private var localIDForEmail: [String: String] = [:]
    private var localIDForPhoneNumber: [String: String] = [:]
    private var localIDForProviderRawID: [String: [String: String]] = [:]
    /// Codes not yet applied, oldest first.
    private(set) var oobCodes: [OobRecord] = []
    /// The project's settings.
    var config = ProjectConfig()

    init(projectID: String) {
        self.projectID = projectID
    }

    func user(localId: String) -> UserRecord? { users[localId] }

    func user(email: String) -> UserRecord? { localIDForEmail[email].flatMap { users[$0] } }

    func user(phoneNumber: String) -> UserRecord? { localIDForPhoneNumber[phoneNumber].flatMap { users[$0] } }

    func user(providerId: String, rawId: String) -> UserRecord? {
        localIDForProviderRawID[providerId]?[rawId].flatMap { users[$0] }
    }

    /// The accounts sorted by user id.
    var usersByLocalID: [UserRecord] { users.values.sorted { $0.localId < $1.localId } }

    /// Stores an account (new or changed) and re-indexes it.
    mutating func save(_ user: UserRecord) {
        if let previous = users[user.localId] { unindex(previous) }
        users[user.localId] = user
        if let email = user.email { localIDForEmail[email] = user.localId }
        if let phone = user.phoneNumber { localIDForPhoneNumber[phone] = user.localId }
        for info in user.providerUserInfo ?? [] {
            localIDForProviderRawID[info.providerId, default: [:]][info.rawId] = user.localId
        }
    }

    /// Removes an account.
    mutating func remove(localId: String) {
        guard let user = users.removeValue(forKey: localId) else { return }
        unindex(user)
    }

    /// Removes every account (out-of-band codes stay, as in firebase-tools).
    mutating func removeAllUsers() {
        users = [:]
        localIDForEmail = [:]
        localIDForPhoneNumber = [:]
        localIDForProviderRawID = [:]
    }

    private mutating func unindex(_ user: UserRecord) {
        if let email = user.email, localIDForEmail[email] == user.localId { localIDForEmail[email] = nil }
        if let phone = user.phoneNumber, localIDForPhoneNumber[phone] == user.localId {
            localIDForPhoneNumber[phone] = nil
        }
        for info in user.providerUserInfo ?? []
        where localIDForProviderRawID[info.providerId]?[info.rawId] == user.localId {
            localIDForProviderRawID[info.providerId]?[info.rawId] = nil
        }
    }

    /// Keeps a new out-of-band code.
    mutating func add(_ oob: OobRecord) { oobCodes.append(oob) }

    func oob(code: String) -> OobRecord? { oobCodes.first { $0.oobCode == code } }

    /// Forgets an applied code.
    mutating func removeOob(code: String) { oobCodes.removeAll { $0.oobCode == code } }
}
