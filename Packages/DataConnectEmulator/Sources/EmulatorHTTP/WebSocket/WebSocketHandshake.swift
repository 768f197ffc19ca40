import DataConnectEncoding

/// The server side of the WebSocket opening handshake (RFC 6455 §4.2).
///
/// A request may become a WebSocket when it is an HTTP/1.1 `GET` with `Upgrade: websocket`, a `Connection` header
/// listing `upgrade`, `Sec-WebSocket-Version: 13` and a `Sec-WebSocket-Key` that is 16 bytes in base64. The server
/// answers 101 with `Sec-WebSocket-Accept`, the base64 of the SHA-1 of the key and the protocol's GUID.
///
/// Refusals are JSON errors in the emulator's shape: 426 (with `Upgrade: websocket` and `Sec-WebSocket-Version: 13`)
/// when `Upgrade` does not ask for a WebSocket or the version is not 13, 400 for the rest.
///
/// The key and accept values themselves are computed by `WebSocketKey` (DataConnectEncoding).
///
/// ```swift
/// if case .accept(let value) = WebSocketHandshake.check(request) { … }   // "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
/// ```
public enum WebSocketHandshake {
    /// What ``check(_:)`` decided.
    public enum Outcome: Sendable {
        /// A valid handshake, answered with this `Sec-WebSocket-Accept` value.
        case accept(String)
        /// Not a valid handshake: send this response instead.
        case refuse(HTTPResponse)
    }

    /// Checks that `request` asks for a WebSocket.
    ///
    /// - Returns: The `Sec-WebSocket-Accept` value, or the error response to send instead.
    public static func check(_ request: HTTPRequest) -> Outcome {
        guard request.method == .get else {
            return .refuse(refusal(.badRequest, "a WebSocket is opened with GET, not \(request.method)"))
        }
        guard request.version != "HTTP/1.0" else {
            return .refuse(refusal(.badRequest, "a WebSocket needs HTTP/1.1"))
        }
        guard tokens(request.headers.values(for: "upgrade")).contains("websocket") else {
            return .refuse(refusal(426, "this endpoint is a WebSocket: send Upgrade: websocket"))
        }
        guard tokens(request.headers.values(for: "connection")).contains("upgrade") else {
            return .refuse(refusal(.badRequest, "the Connection header must list \"upgrade\""))
        }
        guard request.headers.values(for: "sec-websocket-version").map(trimmed) == ["13"] else {
            return .refuse(refusal(426, "only WebSocket version 13 is supported (Sec-WebSocket-Version: 13)"))
        }
        let keys = request.headers.values(for: "sec-websocket-key")
        guard keys.count == 1, let key = keys.first.map(trimmed), WebSocketKey.isValid(key) else {
            return .refuse(refusal(.badRequest, "Sec-WebSocket-Key must be 16 bytes in base64"))
        }
        return .accept(WebSocketKey.acceptValue(for: key))
    }

    /// The comma-separated tokens of header values, lowercased and trimmed.
    private static func tokens(_ values: [String]) -> Set<String> {
        var tokens: Set<String> = []
        for value in values {
            for token in value.split(separator: ",") { tokens.insert(trimmed(String(token)).lowercased()) }
        }
        return tokens
    }

    private static func trimmed(_ text: String) -> String {
        var scalars = Substring(text)
        while scalars.first == " " || scalars.first == "\t" { scalars.removeFirst() }
        while scalars.last == " " || scalars.last == "\t" { scalars.removeLast() }
        return String(scalars)
    }

    private static func refusal(_ status: HTTPStatus, _ message: String) -> HTTPResponse {
        var response = ServerCore.errorResponse(
            status, message, status.code == 426 ? "FAILED_PRECONDITION" : "INVALID_ARGUMENT")
        if status.code == 426 {
            response.headers.add(name: "Upgrade", value: "websocket")
            response.headers.add(name: "Sec-WebSocket-Version", value: "13")
        }
        return response
    }
}
