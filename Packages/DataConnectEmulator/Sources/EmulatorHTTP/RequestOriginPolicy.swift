#if canImport(Glibc)
import Glibc
#endif

/// Which requests a local development server accepts by their `Host` and `Origin` headers, and the CORS
/// headers it answers them with: the defence against DNS rebinding and against web pages calling it.
///
/// A web page can send requests to `127.0.0.1` from the user's browser. Two headers tell such requests
/// apart from those of SDKs, curl and test suites:
///
/// - **`Host`.** DNS rebinding points a name the attacker owns at `127.0.0.1`, so their page reaches the
///   server with that name in `Host`. Accepted hosts are the loopback names and addresses (`localhost`,
///   `*.localhost`, `127.0.0.0/8`, `[::1]`), the address the server listens on, and ``allowedHosts``. A
///   server listening on every interface (`0.0.0.0`) also accepts any IP address, since only a name can be
///   rebound. Ports are not compared. A request without `Host` (or with an empty one) is accepted: browsers
///   always send one.
/// - **`Origin`.** Browsers send it with every cross-origin request and with every `POST`; SDKs, curl and
///   test suites send none, and a request without it is accepted. With one, the ``Audience/client`` API
///   accepts loopback origins on any port, the server's own origin and ``allowedOrigins``; the
///   ``Audience/admin`` API accepts only the server's own origin (`http://` and the request's `Host`: a page
///   the server itself served) and ``allowedOrigins``. `Origin: null` (sandboxed frames, `file:` pages) is
///   none of these. An `Origin` is a serialized origin, `scheme://host[:port]` with no path and no trailing
///   slash, as browsers send it; any other value (`http://127.0.0.1:9399/`) is refused like a foreign origin.
///
/// An accepted `Origin` is answered with `Access-Control-Allow-Origin: <origin>` and `Vary: Origin`; a
/// preflight (`OPTIONS` with `Access-Control-Request-Method`) additionally gets the allowed methods, the
/// requested headers that clients send (``clientRequestHeaders``) and a max age. The policy is pure: it
/// reads a request and decides; the responder turns refusals into its own error bodies.
///
/// ```swift
/// let policy = try RequestOriginPolicy(listenAddress: "127.0.0.1", allowedOrigins: ["https://app.example"])
/// switch policy.decide(request, audience: .client) {
/// case .serve(let corsHeaders): ...        // answer, adding corsHeaders
/// case .preflight(let headers): ...        // 204 with headers
/// case .refuseHost, .refuseOrigin: ...     // 403
/// }
/// ```
public struct RequestOriginPolicy: Sendable, Equatable {
    /// Which part of the server's API a request is for; decides which origins may call it.
    public enum Audience: Sendable, Hashable {
        /// The API web apps call from the browser: loopback origins, the own origin and the allowed ones.
        case client
        /// Administration: only the server's own origin and the allowed ones.
        case admin
    }

    /// What to do with a request.
    public enum Decision: Sendable, Equatable {
        /// Serve it, adding these headers to the response (empty for a request without `Origin`).
        case serve(corsHeaders: HTTPHeaders)
        /// A CORS preflight from an accepted origin: answer 204 with these headers.
        case preflight(HTTPHeaders)
        /// Refuse it (403): its `Host` names none of the accepted hosts.
        case refuseHost(String)
        /// Refuse it (403): its `Origin` may not call this part of the API.
        case refuseOrigin(String, Audience)
    }

    /// An entry of an allow-list that is not a host name or an origin.
    public enum ConfigurationError: Error, Equatable, CustomStringConvertible {
        /// Not a host name or IP address (`mybox.local`, `.example.test`, `192.168.1.5`).
        case invalidHost(String)
        /// Not a web origin (`http://localhost:3000`, `https://app.example`).
        case invalidOrigin(String)

        /// A one-line explanation with an example of a valid entry.
        public var description: String {
            switch self {
            case .invalidHost(let entry):
                return "invalid allowed host \"\(entry)\": expected a host name or IP address such as "
                    + "mybox.local, .example.test (with its subdomains) or 192.168.1.5"
            case .invalidOrigin(let entry):
                return "invalid allowed origin \"\(entry)\": expected scheme://host[:port] such as "
                    + "http://localhost:3000 or https://app.example"
            }
        }
    }

    /// The request headers browsers may send cross-origin (answered in preflights): the ones Data Connect
    /// clients send.
    public static let clientRequestHeaders = [
        "Content-Type", "X-Firebase-Auth-Token", "X-Firebase-AppCheck", "X-Goog-Api-Client", "X-Firebase-GMPID",
        "X-Client-Version", "Authorization",
    ]

    /// The methods preflights allow.
    public static let allowedMethods = "GET, POST"

    /// How long browsers may cache a preflight answer, in seconds.
    public static let preflightMaxAge = 600

    /// The address the server listens on, as given (`127.0.0.1`, `0.0.0.0`, `192.168.1.5`).
    public let listenAddress: String
    /// Further accepted `Host` names, normalized (lowercase, no port); a leading dot admits a domain and its
    /// subdomains.
    public let allowedHosts: [String]
    /// Further accepted origins, normalized (`scheme://host[:port]`, lowercase, no default port).
    public let allowedOrigins: [String]

    private let listensOnEveryInterface: Bool
    private let listenHost: String?

    /// Creates a policy for a server listening on `listenAddress`.
    ///
    /// - Parameters:
    ///   - listenAddress: The address the server listens on; a non-loopback address is itself an accepted host.
    ///   - allowedHosts: Host names or addresses to accept in `Host` besides the loopback ones, with an optional
    ///     port (ignored); `.example.test` accepts `example.test` and its subdomains.
    ///   - allowedOrigins: Origins (`scheme://host[:port]`) whose pages may call both APIs.
    /// - Throws: ``ConfigurationError`` naming the first entry that is not a host or an origin.
    public init(
        listenAddress: String = "127.0.0.1", allowedHosts: [String] = [], allowedOrigins: [String] = []
    ) throws(ConfigurationError) {
        var hosts: [String] = []
        for entry in allowedHosts {
            guard let host = Self.normalizedAllowedHost(entry) else { throw .invalidHost(entry) }
            hosts.append(host)
        }
        var origins: [String] = []
        for entry in allowedOrigins {
            guard let origin = Self.normalizedOrigin(entry) else { throw .invalidOrigin(entry) }
            origins.append(origin)
        }
        self.listenAddress = listenAddress
        self.allowedHosts = hosts
        self.allowedOrigins = origins
        listensOnEveryInterface = listenAddress == "0.0.0.0"
        listenHost = Self.splitHostAndPort(listenAddress)?.host
    }

    /// The policy of a server on `127.0.0.1` with empty allow-lists.
    public static let loopbackOnly = RequestOriginPolicy(loopback: ())

    private init(loopback: Void) {
        listenAddress = "127.0.0.1"
        allowedHosts = []
        allowedOrigins = []
        listensOnEveryInterface = false
        listenHost = "127.0.0.1"
    }

    // MARK: Deciding

    /// Decides whether to serve a request for `audience`, and with which CORS headers.
    ///
    /// Every `Host` field is checked first, then the `Origin` (when there is one), then whether the request is a
    /// preflight.
    ///
    /// - Parameters:
    ///   - request: The request, of which only the method and headers are read.
    ///   - audience: The part of the API its path belongs to.
    /// - Returns: The decision; refusals carry the offending header value.
    public func decide(_ request: HTTPRequest, audience: Audience) -> Decision {
        // One pass over the fields, with no array made: this runs for every request.
        var firstHost: String?
        var rawOrigin: String?
        for field in request.headers.fields {
            if HTTPHeaders.namesEqual(field.name, "Host") {
                guard acceptsHost(field.value) else { return .refuseHost(field.value) }
                if firstHost == nil { firstHost = field.value }
            } else if rawOrigin == nil, HTTPHeaders.namesEqual(field.name, "Origin") {
                rawOrigin = field.value
            }
        }
        guard let rawOrigin else { return .serve(corsHeaders: HTTPHeaders()) }
        let origin = Self.trimmed(rawOrigin)
        guard acceptsOrigin(origin, host: firstHost, audience: audience) else {
            return .refuseOrigin(origin, audience)
        }
        var headers: HTTPHeaders = ["Access-Control-Allow-Origin": origin, "Vary": "Origin"]
        guard request.method == .options, request.headers.contains(name: "Access-Control-Request-Method") else {
            return .serve(corsHeaders: headers)
        }
        headers.add(name: "Access-Control-Allow-Methods", value: Self.allowedMethods)
        let requested = request.headers.values(for: "Access-Control-Request-Headers")
            .flatMap { $0.split(separator: ",") }
            .map { Self.trimmed(String($0)) }
            .filter { name in Self.clientRequestHeaders.contains { HTTPHeaders.namesEqual($0, name) } }
        if !requested.isEmpty {
            headers.add(name: "Access-Control-Allow-Headers", value: requested.joined(separator: ", "))
        }
        headers.add(name: "Access-Control-Max-Age", value: String(Self.preflightMaxAge))
        return .preflight(headers)
    }

    /// Whether a `Host` header value (`name[:port]`) names this server: a loopback name or address, the listen
    /// address, an allowed host, or (when listening on every interface) any IP address.
    ///
    /// An empty value is accepted, as a missing header is.
    public func acceptsHost(_ value: String) -> Bool {
        Self.isLoopbackWithPort(value) || acceptsParsedHost(value)
    }

    /// ``acceptsHost(_:)`` by the general parse alone.
    func acceptsParsedHost(_ value: String) -> Bool {
        let text = Self.trimmed(value)
        if text.isEmpty { return true }
        guard let host = Self.splitHostAndPort(text)?.host else { return false }
        if Self.isLoopback(host: host) || host == listenHost { return true }
        if listensOnEveryInterface && Self.isIPAddress(host) { return true }
        return allowedHosts.contains { allowed in
            allowed.hasPrefix(".") ? host == allowed.dropFirst() || host.hasSuffix(allowed) : host == allowed
        }
    }

    /// Whether a page of `origin` may call the `audience` API of a server reached as `host` (the request's
    /// `Host` value).
    ///
    /// `origin` must be a serialized origin as browsers send it (`scheme://host[:port]`); a path, even a lone
    /// trailing slash, makes it no origin, and it is refused.
    public func acceptsOrigin(_ origin: String, host: String?, audience: Audience) -> Bool {
        guard let parsed = Self.parseOrigin(origin, allowingTrailingSlash: false) else { return false }
        let normalized = Self.serialize(parsed)
        if allowedOrigins.contains(normalized) { return true }
        if let host, let own = Self.splitHostAndPort(Self.trimmed(host)), parsed.scheme == "http",
            parsed.host == own.host, parsed.port == (own.port ?? 80)
        {
            return true
        }
        switch audience {
        case .client: return (parsed.scheme == "http" || parsed.scheme == "https") && Self.isLoopback(host: parsed.host)
        case .admin: return false
        }
    }

    // MARK: Names and addresses

    /// Whether a host (lowercase, without port; IPv6 in brackets) is a loopback name or address:
    /// `localhost`, `*.localhost`, `127.0.0.0/8`, `[::1]`.
    public static func isLoopback(host: String) -> Bool {
        if host == "localhost" || host.hasSuffix(".localhost") { return true }
        if let ipv4 = ipv4Address(host) { return ipv4.0 == 127 }
        if host.hasPrefix("["), host.hasSuffix("]") {
            var address = in6_addr()
            guard inet_pton(AF_INET6, String(host.dropFirst().dropLast()), &address) == 1 else { return false }
            let bytes = withUnsafeBytes(of: address) { Array($0) }
            let isLoopback = bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1
            let isMappedLoopback =
                bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff
                && bytes[12] == 127
            return isLoopback || isMappedLoopback
        }
        return false
    }

    /// The normalized form of an allow-list origin (`scheme://host[:port]`: lowercase, default port left out, a
    /// trailing slash dropped), or `nil` when `text` is not one; `null` is not an origin.
    ///
    /// Lenient for configuration only: a request's `Origin` with a trailing slash is refused
    /// (``acceptsOrigin(_:host:audience:)``).
    public static func normalizedOrigin(_ text: String) -> String? {
        parseOrigin(trimmed(text), allowingTrailingSlash: true).map(serialize)
    }

    /// The normalized form of an allowed-host entry (lowercase, without port), or `nil` when `text` is not a host
    /// name or address; a leading dot is kept.
    public static func normalizedAllowedHost(_ text: String) -> String? {
        let entry = trimmed(text)
        if entry.hasPrefix(".") {
            guard let domain = splitHostAndPort(String(entry.dropFirst()))?.host, !domain.hasPrefix("[") else {
                return nil
            }
            return "." + domain
        }
        return splitHostAndPort(entry)?.host
    }

    private struct Origin {
        var scheme: String
        var host: String
        var port: Int
    }

    /// Parses `scheme://host[:port]`; a trailing `/` is dropped only when `allowingTrailingSlash`.
    private static func parseOrigin(_ text: String, allowingTrailingSlash: Bool) -> Origin? {
        guard let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://") else { return nil }
        let scheme = text[..<colon].lowercased()
        let letters = "abcdefghijklmnopqrstuvwxyz"
        guard let first = scheme.first, letters.contains(first),
            scheme.allSatisfy({ letters.contains($0) || "0123456789+-.".contains($0) })
        else { return nil }
        var authority = String(text[colon...].dropFirst(3))
        if allowingTrailingSlash, authority.hasSuffix("/") { authority.removeLast() }
        guard !authority.contains("/"), !authority.contains("@"), let (host, port) = splitHostAndPort(authority) else {
            return nil
        }
        let defaultPort = scheme == "https" ? 443 : scheme == "http" ? 80 : -1
        return Origin(scheme: scheme, host: host, port: port ?? defaultPort)
    }

    private static func serialize(_ origin: Origin) -> String {
        let defaultPort = origin.scheme == "https" ? 443 : origin.scheme == "http" ? 80 : -1
        let port = origin.port == defaultPort ? "" : ":\(origin.port)"
        return "\(origin.scheme)://\(origin.host)\(port)"
    }

    /// Splits `host[:port]` into a lowercase host (a trailing dot dropped, IPv6 kept in brackets) and the port;
    /// `nil` when it is neither a name, an IPv4 address nor a bracketed IPv6 address.
    static func splitHostAndPort(_ text: String) -> (host: String, port: Int?)? {
        let lowered = text.lowercased()
        var host: Substring
        var portText: Substring?
        if lowered.hasPrefix("[") {
            guard let close = lowered.firstIndex(of: "]") else { return nil }
            host = lowered[...close]
            let rest = lowered[lowered.index(after: close)...]
            if !rest.isEmpty {
                guard rest.first == ":" else { return nil }
                portText = rest.dropFirst()
            }
            var address = in6_addr()
            guard inet_pton(AF_INET6, String(host.dropFirst().dropLast()), &address) == 1 else { return nil }
        } else {
            if let colon = lowered.lastIndex(of: ":") {
                host = lowered[..<colon]
                portText = lowered[lowered.index(after: colon)...]
            } else {
                host = lowered[...]
            }
            if host.hasSuffix(".") { host = host.dropLast() }
            guard !host.isEmpty, !host.hasPrefix("."), host.utf8.allSatisfy(isHostNameByte) else { return nil }
        }
        guard let portText else { return (String(host), nil) }
        guard (1...5).contains(portText.count), portText.allSatisfy(\.isASCII), let port = Int(portText), port <= 65_535
        else { return nil }
        return (String(host), port)
    }

    private static func isIPAddress(_ host: String) -> Bool {
        ipv4Address(host) != nil || host.hasPrefix("[")
    }

    /// The four bytes of a dotted-quad IPv4 address, or `nil`.
    private static func ipv4Address(_ host: String) -> (UInt8, UInt8, UInt8, UInt8)? {
        var address = in_addr()
        guard inet_pton(AF_INET, host, &address) == 1 else { return nil }
        return withUnsafeBytes(of: address.s_addr) { ($0[0], $0[1], $0[2], $0[3]) }
    }

    /// Whether `value` is exactly `127.0.0.1` or `localhost`, with or without a valid port: the values local
    /// clients send, accepted from their bytes without the general parse (which accepts them too).
    static func isLoopbackWithPort(_ value: String) -> Bool {
        var value = value
        return value.withUTF8 { bytes in
            var rest: UnsafeBufferPointer<UInt8>.SubSequence
            if bytes.starts(with: "127.0.0.1".utf8) {
                rest = bytes[9...]
            } else if bytes.starts(with: "localhost".utf8) {
                rest = bytes[9...]
            } else {
                return false
            }
            if rest.isEmpty { return true }
            guard rest.first == UInt8(ascii: ":") else { return false }
            rest = rest.dropFirst()
            guard (1...5).contains(rest.count) else { return false }
            var port = 0
            for byte in rest {
                guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return false }
                port = port * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return port <= 65_535
        }
    }

    /// Whether a byte may appear in a lowercased host name: `a`-`z`, `0`-`9`, `-`, `.` and `_`.
    private static func isHostNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
    }

    private static func trimmed(_ text: String) -> String {
        var slice = Substring(text)
        while slice.first == " " || slice.first == "\t" { slice.removeFirst() }
        while slice.last == " " || slice.last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
