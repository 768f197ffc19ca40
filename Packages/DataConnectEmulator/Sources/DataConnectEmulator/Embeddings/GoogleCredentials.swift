import DataConnectEncoding
import DataConnectEngine
import DataConnectWire
import Foundation
import OutboundHTTP
import Synchronization

/// The fields of a Google service account key file (the JSON `GOOGLE_APPLICATION_CREDENTIALS` names).
struct ServiceAccountKey: Sendable, Equatable {
    /// `client_email`: the account, the JWT's issuer.
    var clientEmail: String
    /// `private_key`: the RSA key, PEM.
    var privateKey: String
    /// `private_key_id`: the JWT header's `kid`.
    var privateKeyID: String?
    /// `token_uri`: where the JWT is exchanged for an access token.
    var tokenURI: String
    /// `project_id`: the project, when the environment names none.
    var projectID: String?

    /// Google's token endpoint, for key files without `token_uri`.
    static let defaultTokenURI = "https://oauth2.googleapis.com/token"

    /// Reads a key file.
    ///
    /// - Throws: `FAILED_PRECONDITION` naming the file when it cannot be read, is not JSON, is not a service
    ///   account key (`type`), or lacks `client_email` or `private_key`. The key itself is never in a message.
    init(file path: String) throws(EmbeddingError) {
        func refuse(_ reason: String) -> EmbeddingError {
            EmbeddingError(
                code: .failedPrecondition,
                message: "\(GoogleCredentials.credentialsFileVariable)=\(path): \(reason)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw refuse("the file cannot be read")
        }
        guard let json = try? JSONValue(parsing: Array(data)), json.objectValue != nil else {
            throw refuse("the file is not JSON")
        }
        if let type = json["type"]?.stringValue, type != "service_account" {
            throw refuse(
                "the file holds \"\(type)\" credentials; only service account keys are read (or set "
                    + "\(GoogleCredentials.accessTokenVariable), e.g. to `gcloud auth print-access-token`)")
        }
        guard let clientEmail = json["client_email"]?.stringValue, !clientEmail.isEmpty else {
            throw refuse("the file has no \"client_email\"")
        }
        guard let privateKey = json["private_key"]?.stringValue, !privateKey.isEmpty else {
            throw refuse("the file has no \"private_key\"")
        }
        self.clientEmail = clientEmail
        self.privateKey = privateKey
        self.privateKeyID = json["private_key_id"]?.stringValue
        self.tokenURI = json["token_uri"]?.stringValue ?? Self.defaultTokenURI
        self.projectID = json["project_id"]?.stringValue
    }
}

/// Where Vertex AI calls get their OAuth access token: an access token from the environment
/// (`GOOGLE_OAUTH_ACCESS_TOKEN`), or a service account key file (`GOOGLE_APPLICATION_CREDENTIALS`) whose JWT,
/// signed with the key (RS256, through OpenSSL), is exchanged at the key's `token_uri`.
///
/// A token from the exchange is kept until shortly before it expires (five minutes, or half its life when that is
/// shorter) and shared by every thread; a refused token can be dropped with ``invalidate()``. Tokens and keys never
/// appear in messages or in ``summary``.
final class GoogleCredentials: Sendable {
    /// An access token to send as it is.
    static let accessTokenVariable = "GOOGLE_OAUTH_ACCESS_TOKEN"
    /// The path of a service account key file.
    static let credentialsFileVariable = "GOOGLE_APPLICATION_CREDENTIALS"
    /// The scope asked for: all of Google Cloud, as Google's client libraries ask.
    static let scope = "https://www.googleapis.com/auth/cloud-platform"
    /// How long an exchanged JWT asks for its token, in seconds (Google's maximum).
    static let assertionLifetime = 3600

    /// Where the token comes from.
    enum Source: Sendable {
        /// A token from the environment.
        case accessToken(String)
        /// A key file's account, with its loaded key.
        case serviceAccount(ServiceAccountKey, RS256Signer)
    }

    /// A token from the exchange, and when to get a new one.
    private struct CachedToken {
        var token: String
        var refreshAt: ContinuousClock.Instant
    }

    let source: Source
    private let transport: any HTTPTransport
    /// The wall clock, for the JWT's `iat` and `exp`.
    private let now: @Sendable () -> Date
    private let cache = Mutex<CachedToken?>(nil)

    /// Credentials from a source.
    init(source: Source, transport: any HTTPTransport, now: @escaping @Sendable () -> Date = { Date() }) {
        self.source = source
        self.transport = transport
        self.now = now
    }

    /// The credentials the environment names: `GOOGLE_OAUTH_ACCESS_TOKEN` first, else the key file of
    /// `GOOGLE_APPLICATION_CREDENTIALS`.
    ///
    /// - Throws: `FAILED_PRECONDITION` naming both variables when neither is set, or naming the file when it is
    ///   not a usable service account key.
    static func fromEnvironment(
        _ environment: [String: String], transport: any HTTPTransport,
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws(EmbeddingError) -> GoogleCredentials {
        if let token = environment[accessTokenVariable], !token.isEmpty {
            return GoogleCredentials(source: .accessToken(token), transport: transport, now: now)
        }
        guard let path = environment[credentialsFileVariable], !path.isEmpty else {
            throw EmbeddingError(
                code: .failedPrecondition,
                message: "vertex needs Google credentials: set \(accessTokenVariable) to an access token (e.g. "
                    + "`gcloud auth print-access-token`) or \(credentialsFileVariable) to a service account key file")
        }
        let key = try ServiceAccountKey(file: path)
        let signer: RS256Signer
        do {
            signer = try RS256Signer(privateKeyPEM: key.privateKey)
        } catch {
            throw EmbeddingError(
                code: .failedPrecondition,
                message: "\(credentialsFileVariable)=\(path): the private_key cannot be used: \(error)")
        }
        return GoogleCredentials(source: .serviceAccount(key, signer), transport: transport, now: now)
    }

    /// The project of a service account key, if it names one.
    var projectID: String? {
        if case .serviceAccount(let key, _) = source { return key.projectID }
        return nil
    }

    /// Where the credentials come from, without secrets: `access token from GOOGLE_OAUTH_ACCESS_TOKEN` or
    /// `service account x@p.iam.gserviceaccount.com`.
    var summary: String {
        switch source {
        case .accessToken: "access token from \(Self.accessTokenVariable)"
        case .serviceAccount(let key, _): "service account \(key.clientEmail)"
        }
    }

    /// A token to send as `Authorization: Bearer`: the environment's, the one kept, or a new one from the exchange.
    ///
    /// - Throws: `FAILED_PRECONDITION` when the token endpoint refuses the account, `UNAVAILABLE` when it cannot be
    ///   reached or fails, `DEADLINE_EXCEEDED` at the deadline.
    func accessToken(deadline: ContinuousClock.Instant) throws(EmbeddingError) -> String {
        let key: ServiceAccountKey
        let signer: RS256Signer
        switch source {
        case .accessToken(let token): return token
        case .serviceAccount(let account, let accountSigner): (key, signer) = (account, accountSigner)
        }
        if let cached = cache.withLock({ $0 }), ContinuousClock.now < cached.refreshAt { return cached.token }
        let fresh = try exchange(key, signer: signer, deadline: deadline)
        cache.withLock { $0 = fresh }
        return fresh.token
    }

    /// Drops a kept token, so the next call gets a new one (after the server refused it).
    func invalidate() {
        cache.withLock { $0 = nil }
    }

    /// The signed JWT a key file's account exchanges for a token:
    /// `{"alg":"RS256","typ":"JWT","kid":…}.{"iss","scope","aud","iat","exp"}.signature`.
    static func assertion(
        for key: ServiceAccountKey, signer: RS256Signer, issuedAt: Date
    ) throws(EmbeddingError)
        -> String
    {
        var header: JSONObject = ["alg": "RS256", "typ": "JWT"]
        if let id = key.privateKeyID { header["kid"] = .string(id) }
        let issued = Int64(issuedAt.timeIntervalSince1970.rounded(.down))
        let claims: JSONObject = [
            "iss": .string(key.clientEmail), "scope": .string(scope), "aud": .string(key.tokenURI),
            "iat": JSONValue(issued), "exp": JSONValue(issued + Int64(assertionLifetime)),
        ]
        let signingInput =
            Base64.url.encode(JSONValue.object(header).serialized()) + "."
            + Base64.url.encode(JSONValue.object(claims).serialized())
        do {
            return signingInput + "." + Base64.url.encode(try signer.sign(Array(signingInput.utf8)))
        } catch {
            throw EmbeddingError(
                code: .failedPrecondition, message: "the service account \(key.clientEmail) cannot sign: \(error)")
        }
    }

    /// Exchanges a fresh JWT for a token at the key's `token_uri`.
    private func exchange(
        _ key: ServiceAccountKey, signer: RS256Signer, deadline: ContinuousClock.Instant
    ) throws(EmbeddingError) -> CachedToken {
        let assertion = try Self.assertion(for: key, signer: signer, issuedAt: now())
        let form =
            "grant_type=" + Self.formEncoded("urn:ietf:params:oauth:grant-type:jwt-bearer") + "&assertion="
            + Self.formEncoded(assertion)
        let request = OutboundRequest(
            method: "POST", url: key.tokenURI,
            headers: [
                (name: "Content-Type", value: "application/x-www-form-urlencoded"),
                (name: "Accept", value: "application/json"),
            ],
            body: Array(form.utf8))
        let provider = "the token endpoint \(key.tokenURI) (service account \(key.clientEmail))"
        let started = ContinuousClock.now
        let response: OutboundResponse
        do {
            response = try transport.send(request, deadline: deadline)
        } catch {
            throw ProviderAnswers.error(for: error, provider: provider)
        }
        guard (200..<300).contains(response.status) else {
            let detail = "HTTP \(response.status): \(ProviderAnswers.message(in: response.body))"
            if (500..<600).contains(response.status) {
                throw EmbeddingError(code: .unavailable, message: "\(provider) failed (\(detail))")
            }
            throw EmbeddingError(
                code: .failedPrecondition,
                message: "\(provider) refused the account (\(detail)); check the key file of "
                    + "\(Self.credentialsFileVariable)")
        }
        let json = try ProviderAnswers.json(response, provider: provider)
        guard let token = json["access_token"]?.stringValue, !token.isEmpty else {
            throw EmbeddingError(code: .unknown, message: "\(provider) answered without an access_token")
        }
        let lifetime = max(0, json["expires_in"]?.intValue ?? Self.assertionLifetime)
        let margin = min(300, lifetime / 2)
        return CachedToken(token: token, refreshAt: started + .seconds(lifetime - margin))
    }

    /// A value for an `application/x-www-form-urlencoded` body: unreserved characters kept, the rest
    /// percent-encoded.
    static func formEncoded(_ text: String) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
