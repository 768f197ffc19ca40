import DataConnectEncoding
import Foundation
import Synchronization

/// An in-memory Identity Toolkit and secure token service behind a ``StandInServer``: enough of the v1 REST
/// contract for the SDK's behaviour tests, with scripted failures.
///
/// Tokens are unsigned JWTs whose `iat`/`exp` come from the ``ManualClock``. Custom tokens are `custom:<uid>`;
/// Google ID tokens are `google:<sub>:<email>`.
final class FakeIdentityToolkit: Sendable {
    struct Account: Sendable {
        var uid: String
        var email: String?
        var password: String?
        var displayName: String?
        var photoUrl: String?
        var emailVerified = false
        var providers: [String: String] = [:]  // providerId -> rawId
        var createdAt: Int64
    }

    private struct State {
        var accounts: [String: Account] = [:]
        var refreshTokens: [String: String] = [:]  // refresh token -> uid
        var idTokens: [String: String] = [:]  // id token -> uid
        var oobCodes: [String: (type: String, email: String)] = [:]
        var failures: [String: [String]] = [:]  // method -> server messages, first used first
        var counter = 0
        var tokenLifetime: Int = 3600
    }

    private let state = Mutex(State())
    let clock: ManualClock
    let projectID: String

    init(clock: ManualClock, projectID: String = "demo-auth") {
        self.clock = clock
        self.projectID = projectID
    }

    /// Makes the next call to `method` (`signUp`, `token`, ...) fail with `message`.
    func failNext(_ method: String, with message: String) {
        state.withLock { $0.failures[method, default: []].append(message) }
    }

    /// Stores an out-of-band code.
    func addOobCode(_ code: String, type: String, email: String) {
        state.withLock { $0.oobCodes[code] = (type, email) }
    }

    /// The account with `uid`, if any.
    func account(_ uid: String) -> Account? {
        state.withLock { $0.accounts[uid] }
    }

    /// Adds an account directly.
    func addAccount(email: String, password: String) -> String {
        state.withLock { state in
            state.counter += 1
            let uid = "uid-\(state.counter)"
            state.accounts[uid] = Account(
                uid: uid, email: email, password: password, providers: ["password": email],
                createdAt: Int64(clock.now.timeIntervalSince1970 * 1000))
            return uid
        }
    }

    // MARK: Responder

    func respond(_ request: StandInServer.Request) -> (status: Int, body: Data) {
        let path = request.target.split(separator: "?").first.map(String.init) ?? ""
        let method: String
        if let range = path.range(of: "/v1/accounts:") {
            method = String(path[range.upperBound...])
        } else if path.hasSuffix("/v1/token") {
            method = "token"
        } else {
            return failure("NOT_FOUND", status: 404)
        }
        let body = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any] ?? [:]
        return state.withLock { state in
            if var queued = state.failures[method], !queued.isEmpty {
                let message = queued.removeFirst()
                state.failures[method] = queued
                return failure(message)
            }
            return handle(method, body, &state)
        }
    }

    private func handle(_ method: String, _ body: [String: Any], _ state: inout State) -> (status: Int, body: Data) {
        let now = Int64(clock.now.timeIntervalSince1970 * 1000)
        func uid(ofIDToken key: String = "idToken") -> String? {
            (body[key] as? String).flatMap { state.idTokens[$0] }
        }
        switch method {
        case "signUp":
            if let email = body["email"] as? String {
                if state.accounts.values.contains(where: { $0.email == email }) { return failure("EMAIL_EXISTS") }
                if (body["password"] as? String ?? "").count < 6 {
                    return failure("WEAK_PASSWORD : Password should be at least 6 characters")
                }
            }
            state.counter += 1
            let uid = "uid-\(state.counter)"
            var account = Account(uid: uid, email: body["email"] as? String, createdAt: now)
            account.password = body["password"] as? String
            if let email = account.email { account.providers["password"] = email }
            state.accounts[uid] = account
            return session(for: uid, provider: account.email == nil ? "anonymous" : "password", &state, extra: [:])
        case "signInWithPassword":
            guard let account = state.accounts.values.first(where: { $0.email == body["email"] as? String }) else {
                return failure("EMAIL_NOT_FOUND")
            }
            guard account.password == body["password"] as? String else { return failure("INVALID_PASSWORD") }
            return session(for: account.uid, provider: "password", &state, extra: [:])
        case "signInWithCustomToken":
            guard let token = body["token"] as? String, token.hasPrefix("custom:") else {
                return failure("INVALID_CUSTOM_TOKEN")
            }
            let uid = String(token.dropFirst("custom:".count))
            let isNew = state.accounts[uid] == nil
            if isNew { state.accounts[uid] = Account(uid: uid, createdAt: now) }
            return session(for: uid, provider: "custom", &state, extra: ["isNewUser": isNew])
        case "signInWithIdp":
            let query = URLComponents(string: "?" + (body["postBody"] as? String ?? ""))?.queryItems ?? []
            let parts = (query.first { $0.name == "id_token" }?.value ?? "").split(separator: ":").map(String.init)
            guard parts.count == 3, parts[0] == "google" else { return failure("INVALID_IDP_RESPONSE") }
            let target: String
            var isNew = false
            if let linking = uid(ofIDToken: "idToken") {
                target = linking
            } else if let existing = state.accounts.values.first(where: { $0.providers["google.com"] == parts[1] }) {
                target = existing.uid
            } else {
                state.counter += 1
                target = "uid-\(state.counter)"
                state.accounts[target] = Account(uid: target, email: parts[2], createdAt: now)
                isNew = true
            }
            state.accounts[target]?.providers["google.com"] = parts[1]
            return session(for: target, provider: "google.com", &state, extra: ["isNewUser": isNew])
        case "lookup":
            guard let uid = uid(), let account = state.accounts[uid] else { return failure("INVALID_ID_TOKEN") }
            return ok(["users": [accountJSON(account)]])
        case "update":
            if let code = body["oobCode"] as? String {
                guard let entry = state.oobCodes.removeValue(forKey: code) else { return failure("INVALID_OOB_CODE") }
                if let index = state.accounts.values.first(where: { $0.email == entry.email })?.uid {
                    state.accounts[index]?.emailVerified = true
                }
                return ok(["email": entry.email])
            }
            guard let uid = uid(), var account = state.accounts[uid] else { return failure("INVALID_ID_TOKEN") }
            if let email = body["email"] as? String {
                if state.accounts.values.contains(where: { $0.email == email && $0.uid != uid }) {
                    return failure("EMAIL_EXISTS")
                }
                account.email = email
                account.providers["password"] = email
            }
            if let password = body["password"] as? String {
                if password.count < 6 { return failure("WEAK_PASSWORD : Password should be at least 6 characters") }
                account.password = password
            }
            if let name = body["displayName"] as? String { account.displayName = name }
            if let photo = body["photoUrl"] as? String { account.photoUrl = photo }
            for attribute in body["deleteAttribute"] as? [String] ?? [] {
                if attribute == "DISPLAY_NAME" { account.displayName = nil }
                if attribute == "PHOTO_URL" { account.photoUrl = nil }
            }
            state.accounts[uid] = account
            if body["email"] != nil || body["password"] != nil {
                return session(for: uid, provider: "password", &state, extra: [:])
            }
            return ok(["localId": uid])
        case "delete":
            guard let uid = uid() else { return failure("INVALID_ID_TOKEN") }
            state.accounts[uid] = nil
            return ok([:])
        case "sendOobCode":
            let type = body["requestType"] as? String ?? ""
            let email = (body["email"] as? String) ?? uid().flatMap { state.accounts[$0]?.email }
            guard let email else { return failure("MISSING_EMAIL") }
            guard state.accounts.values.contains(where: { $0.email == email }) else {
                return failure("EMAIL_NOT_FOUND")
            }
            state.counter += 1
            state.oobCodes["oob-\(state.counter)"] = (type, email)
            return ok(["email": email])
        case "resetPassword":
            guard let code = body["oobCode"] as? String, let entry = state.oobCodes[code] else {
                return failure("INVALID_OOB_CODE")
            }
            if let password = body["newPassword"] as? String {
                state.oobCodes[code] = nil
                if let uid = state.accounts.values.first(where: { $0.email == entry.email })?.uid {
                    state.accounts[uid]?.password = password
                }
            }
            return ok(["email": entry.email, "requestType": entry.type])
        case "token":
            guard let refresh = body["refreshToken"] as? String, let uid = state.refreshTokens[refresh] else {
                return failure("INVALID_REFRESH_TOKEN")
            }
            guard state.accounts[uid] != nil else { return failure("USER_NOT_FOUND") }
            let idToken = mint(uid: uid, provider: "password", &state)
            return ok([
                "access_token": idToken, "id_token": idToken, "refresh_token": refresh,
                "expires_in": "\(state.tokenLifetime)", "token_type": "Bearer", "user_id": uid, "project_id": "123",
            ])
        default:
            return failure("NOT_FOUND", status: 404)
        }
    }

    private func session(
        for uid: String, provider: String, _ state: inout State, extra: [String: Any]
    ) -> (status: Int, body: Data) {
        let idToken = mint(uid: uid, provider: provider, &state)
        state.counter += 1
        let refresh = "refresh-\(state.counter)"
        state.refreshTokens[refresh] = uid
        var answer: [String: Any] = [
            "kind": "identitytoolkit#SignupNewUserResponse", "idToken": idToken, "refreshToken": refresh,
            "expiresIn": "\(state.tokenLifetime)", "localId": uid,
        ]
        if let email = state.accounts[uid]?.email { answer["email"] = email }
        answer.merge(extra) { $1 }
        return ok(answer)
    }

    private func mint(uid: String, provider: String, _ state: inout State) -> String {
        state.counter += 1
        let iat = Int(clock.now.timeIntervalSince1970)
        var claims: [String: Any] = [
            "iss": "https://securetoken.google.com/\(projectID)", "aud": projectID, "auth_time": iat,
            "user_id": uid, "sub": uid, "iat": iat, "exp": iat + state.tokenLifetime,
            "firebase": ["identities": [:] as [String: Any], "sign_in_provider": provider],
            "n": state.counter,
        ]
        if let email = state.accounts[uid]?.email { claims["email"] = email }
        let token = jwt(claims)
        state.idTokens[token] = uid
        return token
    }

    private func accountJSON(_ account: Account) -> [String: Any] {
        var json: [String: Any] = [
            "localId": account.uid, "emailVerified": account.emailVerified, "createdAt": "\(account.createdAt)",
            "lastLoginAt": "\(account.createdAt)",
            "providerUserInfo": account.providers.sorted { $0.key < $1.key }.map { provider, rawId in
                var info: [String: Any] = ["providerId": provider, "rawId": rawId, "federatedId": rawId]
                if provider == "password" { info["email"] = rawId }
                return info
            },
        ]
        if let email = account.email { json["email"] = email }
        if let name = account.displayName { json["displayName"] = name }
        if let photo = account.photoUrl { json["photoUrl"] = photo }
        if account.password != nil { json["passwordHash"] = "UkVEQUNURUQ=" }
        return json
    }
}

/// A 200 answer with `object` as JSON.
func ok(_ object: [String: Any]) -> (status: Int, body: Data) {
    (200, (try? JSONSerialization.data(withJSONObject: object)) ?? Data())
}

/// A 400 answer `{"error": {"code": 400, "message": message, ...}}`, as Google's services send.
func failure(_ message: String, status: Int = 400) -> (status: Int, body: Data) {
    let object: [String: Any] = [
        "error": [
            "code": status, "message": message,
            "errors": [["message": message, "domain": "global", "reason": "invalid"]],
        ] as [String: Any]
    ]
    return (status, (try? JSONSerialization.data(withJSONObject: object)) ?? Data())
}

/// An unsigned JWT (`alg: none`) with `claims`.
func jwt(_ claims: [String: Any]) -> String {
    func encode(_ object: [String: Any]) -> String {
        Base64.url.encode((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
    }
    return encode(["alg": "none", "typ": "JWT"]) + "." + encode(claims) + "."
}
