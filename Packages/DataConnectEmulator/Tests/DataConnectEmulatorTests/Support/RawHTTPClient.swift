import DataConnectTestSupport
import DataConnectWire

/// One response read off a raw socket: what a browser or a hand-written client would see, with the request's
/// headers exactly as written (URLSession sets `Host` and others itself).
struct RawHTTPResult: CustomStringConvertible {
    /// The HTTP status code.
    var status: Int
    /// The header fields, names lowercased (the last of repeated fields wins).
    var headers: [String: String]
    /// The body as sent (a `Content-Length` body; whatever arrived otherwise).
    var body: [UInt8]

    /// The body parsed as JSON (`null` when it is not JSON).
    var json: JSONValue { (try? JSONValue(parsing: body)) ?? .null }
    /// `error.status` of a request-level error body.
    var errorStatus: String? { json["error"]?["status"]?.stringValue }
    /// `error.message` of a request-level error body.
    var errorMessage: String { json["error"]?["message"]?.stringValue ?? "" }
    /// Whether the body is the JSON error envelope `{"error":{"code":status,"message","status"}}`.
    var isErrorEnvelope: Bool {
        headers["content-type"] == "application/json" && json["error"]?["code"]?.intValue == status
            && errorStatus != nil && !errorMessage.isEmpty
    }

    var description: String { "HTTP \(status) \(headers): \(String(decoding: body.prefix(1_000), as: UTF8.self))" }
}

/// Sends `request` (bytes as they go on the wire) on a new connection to `127.0.0.1:port` and reads one
/// response, with `RawHTTP.exchange` of the shared test support (see there for when reading stops).
///
/// - Parameter hangGuard: How long the server may take to answer, in seconds.
func rawExchange(
    port: UInt16, _ request: [UInt8], hangGuard: Int = Int(HangGuard.eventSeconds)
) throws -> RawHTTPResult {
    let response = try RawHTTP.exchange(port: Int(port), request, hangGuard: .seconds(hangGuard))
    var headers: [String: String] = [:]
    for (name, value) in response.headers { headers[name.lowercased()] = value }
    return RawHTTPResult(status: response.status, headers: headers, body: response.body)
}

/// A request as text, sent as UTF-8.
func rawExchange(port: UInt16, _ request: String) throws -> RawHTTPResult {
    try rawExchange(port: port, Array(request.utf8))
}
