/// An HTTP request method, such as `GET` or `POST`.
///
/// Methods are case-sensitive tokens (RFC 9110 §9.1); the common ones have static constants.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method token as sent, for example `POST`.
    public var rawValue: String

    /// Creates a method from its token.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `GET`
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD`
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `POST`
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `OPTIONS`
    public static let options = HTTPMethod(rawValue: "OPTIONS")

    /// The method token.
    public var description: String { rawValue }
}

/// A complete HTTP request as the server hands it to an ``HTTPResponder``.
///
/// The body has been received in full (up to the server's
/// ``HTTPServer/Configuration-swift.struct/maximumBodySize``) before the responder sees the request.
///
/// ```swift
/// let request = HTTPRequest(method: .post, path: "/v1/x:executeQuery", body: Array(#"{"a":1}"#.utf8))
/// request.headers["content-type"]
/// ```
public struct HTTPRequest: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The percent-decoded path, without the query string, for example `/emulator/info`.
    public var path: String
    /// The query parameters in order, percent-decoded; a parameter without `=` has a `nil` value.
    public var query: [QueryItem]
    /// The request header fields.
    public var headers: HTTPHeaders
    /// The request body (empty when there is none).
    public var body: [UInt8]
    /// The protocol version as sent, for example `HTTP/1.1`.
    public var version: String
    /// The client's IP address as text (`127.0.0.1`), when the server knows it.
    public var remoteAddress: String?

    /// One query parameter.
    public struct QueryItem: Sendable, Equatable {
        /// The parameter name.
        public var name: String
        /// The parameter value, or `nil` for a bare `?name`.
        public var value: String?

        /// Creates a query parameter.
        public init(name: String, value: String?) {
            self.name = name
            self.value = value
        }
    }

    /// Creates a request, as the server does and as in-process tests of a responder do.
    public init(
        method: HTTPMethod,
        path: String,
        query: [QueryItem] = [],
        headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = [],
        version: String = "HTTP/1.1",
        remoteAddress: String? = nil
    ) {
        self.remoteAddress = remoteAddress
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.version = version
    }

    /// The value of the first query parameter named `name` (case-sensitive), or `nil`.
    ///
    /// A bare `?name` yields the empty string.
    public func queryValue(_ name: String) -> String? {
        for item in query where item.name == name {
            return item.value ?? ""
        }
        return nil
    }
}
