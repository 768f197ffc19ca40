import DataConnectWire
import EmulatorHTTP

/// Serves only the Auth API, as firebase-tools' Auth emulator does on its own port (9099), behind the same origin
/// policy as the Data Connect emulator.
///
/// `GET /` answers the status check (`{"authEmulator": {"ready": true, …}}`); auth paths go to the
/// ``AuthEmulator``; anything else is 404.
///
/// ```swift
/// let server = HTTPServer(port: 9099, responder: AuthHTTPResponder(auth: auth))
/// ```
public struct AuthHTTPResponder: HTTPResponder {
    /// The emulator served.
    public let auth: AuthEmulator
    /// Which hosts and web origins may call it.
    public let originPolicy: RequestOriginPolicy

    /// Creates a responder.
    ///
    /// - Parameters:
    ///   - auth: The emulator to serve.
    ///   - originPolicy: Which hosts and origins are accepted; loopback ones by default.
    public init(auth: AuthEmulator, originPolicy: RequestOriginPolicy = .loopbackOnly) {
        self.auth = auth
        self.originPolicy = originPolicy
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        let audience = AuthEmulator.audience(ofPath: request.path)
        switch originPolicy.decide(request, audience: audience) {
        case .refuseHost(let host):
            return Self.forbidden("Host \"\(host)\" is not allowed")
        case .refuseOrigin(let origin, _):
            return Self.forbidden("Origin \"\(origin)\" may not call \(request.path)")
        case .preflight(let headers):
            return HTTPResponse(status: .noContent, headers: headers)
        case .serve(let corsHeaders):
            var response: HTTPResponse
            if request.path == "/", request.method == .get {
                let status: JSONValue = [
                    "authEmulator": [
                        "ready": true, "docs": "https://firebase.google.com/docs/emulator-suite",
                        "apiSpec": "/emulator/openapi.json",
                    ]
                ]
                response = .json(status.serialized())
            } else {
                response = auth.respond(to: request) ?? AuthAPIError.notFound.response
            }
            for field in corsHeaders { response.headers[field.name] = field.value }
            return response
        }
    }

    private static func forbidden(_ message: String) -> HTTPResponse {
        AuthAPIError(
            code: 403, status: "PERMISSION_DENIED", message: message,
            errors: [AuthAPIError.Item(message: message, reason: "forbidden", domain: "global")]
        ).response
    }
}
