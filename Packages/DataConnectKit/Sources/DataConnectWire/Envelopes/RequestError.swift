/// A request-level failure: the body sent with a non-OK status, when no operation result exists.
///
/// This library writes the production shape:
///
/// ```json
/// {"error": {"code": 403, "message": "…", "status": "PERMISSION_DENIED", "details": []}}
/// ```
///
/// and reads both that and the upstream emulator's top-level shape, where `code` is the gRPC number:
///
/// ```json
/// {"code": 13, "message": "internal error: …", "details": [{"@type": "…"}]}
/// ```
///
/// ```swift
/// let failure = RequestError(status: .notFound, message: "operation ListMovis not found")
/// failure.httpStatus  // 404
/// let body = failure.toJSON().serialized()
/// ```
public struct RequestError: Error, Hashable, Sendable {
    /// The canonical code.
    public var status: StatusCode
    /// The human-readable message.
    public var message: String
    /// Extra detail objects (`google.rpc` details), passed through as they are.
    public var details: [JSONValue]

    /// Creates an error.
    public init(status: StatusCode, message: String, details: [JSONValue] = []) {
        self.status = status
        self.message = message
        self.details = details
    }

    /// The HTTP status to send the error with.
    public var httpStatus: Int {
        status.httpStatus
    }

    /// Reads an error body in either shape.
    ///
    /// The message comes from `error.message`, falling back to the top-level `message`. The code comes from
    /// `error.status` (a name), then `error.code` (an HTTP status), then the top-level `code` (a gRPC number,
    /// or a name), then `httpStatus` when given, else `UNKNOWN`.
    ///
    /// - Parameters:
    ///   - json: The response body.
    ///   - httpStatus: The response's HTTP status, used only when the body has no code.
    /// - Throws: ``WireFormatError`` when the body is neither shape.
    public init(json: JSONValue, httpStatus: Int? = nil) throws(WireFormatError) {
        guard case .object(let root) = json else {
            throw WireFormatError("expected an error object, found \(WireFields.kindName(json))")
        }
        let nested = root["error"]?.objectValue
        let topMessage = root["message"]?.stringValue
        let topCode = root["code"]
        guard nested != nil || topMessage != nil || topCode != nil else {
            throw WireFormatError("expected an error body with \"error\", \"code\" or \"message\"")
        }
        message = nested?["message"]?.stringValue ?? topMessage ?? ""
        details = nested?["details"]?.arrayValue ?? root["details"]?.arrayValue ?? []
        if let name = nested?["status"]?.stringValue, let code = StatusCode(name: name) {
            status = code
        } else if let http = nested?["code"]?.intValue {
            status = StatusCode(httpStatus: http)
        } else if let number = topCode?.intValue {
            status = StatusCode(rawValue: number) ?? .unknown
        } else if let name = topCode?.stringValue, let code = StatusCode(name: name) {
            status = code
        } else if let httpStatus {
            status = StatusCode(httpStatus: httpStatus)
        } else {
            status = .unknown
        }
    }

    /// The error in the production shape: `{"error": {"code", "message", "status", "details"}}`.
    public func toJSON() -> JSONValue {
        [
            "error": [
                "code": JSONValue(httpStatus),
                "message": .string(message),
                "status": .string(status.name),
                "details": .array(details),
            ]
        ]
    }

    /// Writes the error in the production shape.
    public func write(to writer: inout JSONWriter) {
        writer.write(toJSON())
    }
}

extension RequestError: CustomStringConvertible {
    /// The status name and the message, e.g. `NOT_FOUND: operation ListMovis not found`.
    public var description: String {
        "\(status.name): \(message)"
    }
}
