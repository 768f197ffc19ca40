import FirebaseCore
import Foundation

/// The production hosts of the two services Auth calls; tests point them at a stand-in server.
@_spi(Testing) public struct AuthEndpoints: Sendable, Equatable {
    /// The Identity Toolkit's origin; calls go to `<origin>/v1/accounts:<method>?key=`.
    public var identityToolkit: URL
    /// The secure token service's origin; refreshes go to `<origin>/v1/token?key=`.
    public var secureToken: URL

    /// Google's hosts.
    public static let production = AuthEndpoints(
        identityToolkit: URL(string: "https://identitytoolkit.googleapis.com")!,
        secureToken: URL(string: "https://securetoken.googleapis.com")!)

    /// Creates endpoints.
    ///
    /// - Parameters:
    ///   - identityToolkit: The Identity Toolkit's origin.
    ///   - secureToken: The secure token service's origin.
    public init(identityToolkit: URL, secureToken: URL) {
        self.identityToolkit = identityToolkit
        self.secureToken = secureToken
    }
}

/// Sends the REST calls of the Identity Toolkit (`v1/accounts:*`) and the secure token service (`v1/token`).
///
/// Stages, per call: build the URL (production host or `http://<emulator>/<host>/...`), add the headers upstream's
/// `AuthBackend.request(withURL:)` adds, encode the JSON body, send it through the ``AuthTransport``, then decode
/// either the answer or `{"error": {"message": ...}}` through ``ServerErrorMapping``.
///
/// Upstream 11.x still calls the legacy `www.googleapis.com/identitytoolkit/v3/relyingparty/<rpc>` paths; this SDK
/// calls the documented `v1/accounts:<method>` equivalents, which production and the Auth emulator both serve
/// with the same bodies and error messages.
struct AuthBackend: Sendable {
    /// The SDK version reported in `X-Client-Version`.
    static let sdkVersion = "11.15.0"

    /// The API key sent with the emulator when the options have none: the emulator refuses a missing key and
    /// accepts any value.
    static let emulatorPlaceholderAPIKey = "fake-api-key"

    var apiKey: String?
    var appID: String
    var bundleID: String?
    var languageCode: String?
    var emulatorHostAndPort: String?
    var endpoints: AuthEndpoints
    var appCheck: (any AppCheckTokenProvider)?
    var transport: any AuthTransport

    /// `Linux/FirebaseSDK/<version>/FirebaseCore-Linux`, shaped like upstream's
    /// `iOS/FirebaseSDK/<version>/FirebaseCore-iOS`.
    static var clientVersion: String { "Linux/FirebaseSDK/\(sdkVersion)/FirebaseCore-Linux" }

    /// Calls `accounts:<method>` with `body` and decodes the answer.
    ///
    /// - Throws: An `NSError` in ``AuthErrors/domain``.
    func identityToolkit<Answer: Decodable>(_ method: String, _ body: some Encodable) async throws -> Answer {
        let url = try serviceURL(
            origin: endpoints.identityToolkit, host: "identitytoolkit.googleapis.com", path: "v1/accounts:\(method)")
        return try await post(url: url, body: body)
    }

    /// Exchanges a refresh token for a new ID token at `v1/token`.
    ///
    /// The body is upstream's JSON `{"grantType":"refresh_token","refreshToken":...}`.
    func refresh(_ refreshToken: String) async throws -> SecureTokenAnswer {
        let url = try serviceURL(origin: endpoints.secureToken, host: "securetoken.googleapis.com", path: "v1/token")
        return try await post(url: url, body: SecureTokenBody(grantType: "refresh_token", refreshToken: refreshToken))
    }

    /// `https://<host>/<path>?key=` in production, `http://<emulator>/<host>/<path>?key=` with the emulator.
    func serviceURL(origin: URL, host: String, path: String) throws -> URL {
        let key: String
        if let apiKey, !apiKey.isEmpty {
            key = apiKey
        } else if emulatorHostAndPort != nil {
            key = Self.emulatorPlaceholderAPIKey
        } else {
            throw AuthErrors.error(.invalidAPIKey, message: "FirebaseOptions.apiKey is missing.")
        }
        let encodedKey = key.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? key
        let text: String
        if let emulatorHostAndPort {
            text = "http://\(emulatorHostAndPort)/\(host)/\(path)?key=\(encodedKey)"
        } else {
            var base = origin.absoluteString
            if base.hasSuffix("/") { base.removeLast() }
            text = "\(base)/\(path)?key=\(encodedKey)"
        }
        guard let url = URL(string: text) else { throw AuthErrors.error(.internalError, message: "Bad URL \(text)") }
        return url
    }

    /// The headers of every call.
    func headers() async -> [String: String] {
        var headers = [
            "Content-Type": "application/json",
            "X-Client-Version": Self.clientVersion,
            "X-Firebase-GMPID": appID,
        ]
        if let bundleID, !bundleID.isEmpty { headers["X-Ios-Bundle-Identifier"] = bundleID }
        if let languageCode, !languageCode.isEmpty { headers["X-Firebase-Locale"] = languageCode }
        if let appCheck, let token = try? await appCheck.token(), !token.isEmpty {
            headers["X-Firebase-AppCheck"] = token
        }
        return headers
    }

    private func post<Answer: Decodable>(url: URL, body: some Encodable) async throws -> Answer {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let request = AuthHTTPRequest(
            method: "POST", url: url, headers: await headers(), body: try encoder.encode(body))
        let response: AuthHTTPResponse
        do {
            response = try await transport.send(request)
        } catch {
            throw AuthErrors.error(.networkError, userInfo: [NSUnderlyingErrorKey: error])
        }
        if !(200..<300).contains(response.statusCode) {
            let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]
            if let errorObject = object?["error"] as? [String: Any] {
                throw ServerErrorMapping.error(for: errorObject, statusCode: response.statusCode)
            }
            throw AuthErrors.error(
                .internalError,
                userInfo: [AuthErrors.userInfoDataKey: response.body, "statusCode": response.statusCode])
        }
        do {
            return try JSONDecoder().decode(Answer.self, from: response.body)
        } catch {
            throw AuthErrors.error(
                .internalError, userInfo: [AuthErrors.userInfoDataKey: response.body, NSUnderlyingErrorKey: error])
        }
    }
}
