import Testing

@testable import EmulatorHTTP

@Suite struct RequestOriginPolicyTests {
    static let loopback = RequestOriginPolicy.loopbackOnly

    // MARK: Host

    @Test(arguments: [
        "localhost", "localhost:9399", "LocalHost:1", "localhost.", "app.localhost", "a.b.localhost:3000",
        "127.0.0.1", "127.0.0.1:9399", "127.255.0.9:80", "[::1]", "[::1]:9399", "[0:0:0:0:0:0:0:1]:9399", "",
    ])
    func loopbackHostsAreAccepted(_ host: String) {
        #expect(Self.loopback.acceptsHost(host))
    }

    @Test(arguments: [
        "evil.example", "evil.example:9399", "localhost.evil.example", "127.0.0.1.evil.example", "localhostx",
        "192.168.1.5", "10.0.0.1:9399", "0.0.0.0", "[::2]", "[::1", "::1", "127.1", "local host", "localhost:99999",
        "localhost:abc",
    ])
    func foreignHostsAreRefusedOnLoopback(_ host: String) {
        #expect(!Self.loopback.acceptsHost(host))
    }

    @Test func aNonLoopbackListenAddressIsAnAcceptedHost() throws {
        // given
        let policy = try RequestOriginPolicy(listenAddress: "192.168.1.5")

        // then
        #expect(policy.acceptsHost("192.168.1.5:9399"))
        #expect(policy.acceptsHost("localhost:9399"))
        #expect(!policy.acceptsHost("192.168.1.6:9399"))
        #expect(!policy.acceptsHost("devbox.test"))
    }

    @Test func everyInterfaceAcceptsIPAddressesButOnlyAllowedNames() throws {
        // given
        let policy = try RequestOriginPolicy(listenAddress: "0.0.0.0", allowedHosts: ["devbox.test"])

        // then
        #expect(policy.acceptsHost("192.168.1.5:9399"))
        #expect(policy.acceptsHost("[fe80::1]:9399"))
        #expect(policy.acceptsHost("devbox.test:9399"))
        #expect(policy.acceptsHost("DEVBOX.TEST"))
        #expect(!policy.acceptsHost("evil.example:9399"))
        #expect(!policy.acceptsHost("www.devbox.test"))
    }

    @Test func aLeadingDotAllowsADomainAndItsSubdomains() throws {
        // given
        let policy = try RequestOriginPolicy(allowedHosts: [".example.test", "Box.Lan:9399"])

        // then
        #expect(policy.allowedHosts == [".example.test", "box.lan"])
        #expect(policy.acceptsHost("example.test"))
        #expect(policy.acceptsHost("api.example.test:8080"))
        #expect(policy.acceptsHost("box.lan:1234"))
        #expect(!policy.acceptsHost("notexample.test"))
        #expect(!policy.acceptsHost("example.test.evil"))
    }

    @Test(arguments: ["", "http://devbox.test", "devbox.test/path", "*", "dev box", "[::1", ".", "a:b:c"])
    func malformedAllowedHostsAreRejected(_ entry: String) {
        #expect(throws: RequestOriginPolicy.ConfigurationError.invalidHost(entry)) {
            try RequestOriginPolicy(allowedHosts: [entry])
        }
    }

    // MARK: Origin

    @Test(arguments: [
        "http://localhost:3000", "http://localhost", "https://localhost:5173", "http://127.0.0.1:8080",
        "http://app.localhost:3000", "http://[::1]:3000", "HTTP://LOCALHOST:3000",
    ])
    func loopbackOriginsMayCallTheClientAPIButNotTheAdminAPI(_ origin: String) {
        #expect(Self.loopback.acceptsOrigin(origin, host: "127.0.0.1:9399", audience: .client))
        #expect(!Self.loopback.acceptsOrigin(origin, host: "127.0.0.1:9399", audience: .admin))
    }

    @Test(arguments: [
        "null", "http://evil.example", "https://evil.example:443", "http://localhost.evil.example:3000",
        "http://127.0.0.1.evil.example", "file://", "localhost:3000", "http://localhost:3000/path", "",
        "ftp://localhost", "http://localhost:3000/", "http://127.0.0.1:9399/",
    ])
    func otherOriginsMayCallNeitherAPI(_ origin: String) {
        #expect(!Self.loopback.acceptsOrigin(origin, host: "127.0.0.1:9399", audience: .client))
        #expect(!Self.loopback.acceptsOrigin(origin, host: "127.0.0.1:9399", audience: .admin))
    }

    @Test func theOwnOriginMayCallTheAdminAPI() {
        #expect(Self.loopback.acceptsOrigin("http://localhost:9399", host: "localhost:9399", audience: .admin))
        #expect(Self.loopback.acceptsOrigin("http://127.0.0.1", host: "127.0.0.1:80", audience: .admin))
        #expect(!Self.loopback.acceptsOrigin("http://localhost:9399", host: "127.0.0.1:9399", audience: .admin))
        #expect(!Self.loopback.acceptsOrigin("https://localhost:9399", host: "localhost:9399", audience: .admin))
        #expect(!Self.loopback.acceptsOrigin("http://localhost:9400", host: "localhost:9399", audience: .admin))
        #expect(!Self.loopback.acceptsOrigin("http://localhost:9399", host: nil, audience: .admin))
        #expect(!Self.loopback.acceptsOrigin("http://localhost:9399/", host: "localhost:9399", audience: .admin))
    }

    @Test func allowedOriginsMayCallBothAPIsAndAreNormalized() throws {
        // given
        let policy = try RequestOriginPolicy(allowedOrigins: ["HTTPS://App.Example:443/", "http://devbox.test:8080"])

        // then
        #expect(policy.allowedOrigins == ["https://app.example", "http://devbox.test:8080"])
        for audience in [RequestOriginPolicy.Audience.client, .admin] {
            #expect(policy.acceptsOrigin("https://app.example", host: "127.0.0.1:9399", audience: audience))
            #expect(policy.acceptsOrigin("http://devbox.test:8080", host: "127.0.0.1:9399", audience: audience))
            #expect(!policy.acceptsOrigin("http://app.example", host: "127.0.0.1:9399", audience: audience))
            #expect(!policy.acceptsOrigin("http://devbox.test:8081", host: "127.0.0.1:9399", audience: audience))
            #expect(!policy.acceptsOrigin("https://app.example/", host: "127.0.0.1:9399", audience: audience))
        }
    }

    @Test(arguments: ["null", "app.example", "http://", "http://app.example/path", "http://user@app.example", "*"])
    func malformedAllowedOriginsAreRejected(_ entry: String) {
        #expect(throws: RequestOriginPolicy.ConfigurationError.invalidOrigin(entry)) {
            try RequestOriginPolicy(allowedOrigins: [entry])
        }
    }

    // MARK: Decisions

    @Test func aRequestWithoutOriginIsServedWithoutCORSHeaders() {
        // given
        let request = HTTPRequest(method: .post, path: "/emulator/clear", headers: ["Host": "127.0.0.1:9399"])

        // when
        let decision = Self.loopback.decide(request, audience: .admin)

        // then
        #expect(decision == .serve(corsHeaders: HTTPHeaders()))
    }

    @Test func aRequestWithoutHostIsServed() {
        #expect(
            Self.loopback.decide(HTTPRequest(method: .get, path: "/"), audience: .admin) == .serve(corsHeaders: [:]))
    }

    @Test func everyHostFieldMustBeAccepted() {
        // given
        let headers = HTTPHeaders([.init(name: "Host", value: "localhost"), .init(name: "Host", value: "evil.example")])

        // when
        let decision = Self.loopback.decide(HTTPRequest(method: .get, path: "/", headers: headers), audience: .client)

        // then
        #expect(decision == .refuseHost("evil.example"))
    }

    @Test func anAcceptedOriginGetsTheCORSHeaders() {
        // given
        let request = HTTPRequest(
            method: .post, path: "/x", headers: ["Host": "127.0.0.1:9399", "Origin": "http://localhost:3000"])

        // when
        let decision = Self.loopback.decide(request, audience: .client)

        // then
        #expect(
            decision == .serve(corsHeaders: ["Access-Control-Allow-Origin": "http://localhost:3000", "Vary": "Origin"]))
    }

    @Test func aRefusedOriginNamesItselfAndTheAudience() {
        // given
        let request = HTTPRequest(
            method: .post, path: "/x", headers: ["Host": "127.0.0.1:9399", "Origin": "http://localhost:3000"])

        // when
        let decision = Self.loopback.decide(request, audience: .admin)

        // then
        #expect(decision == .refuseOrigin("http://localhost:3000", .admin))
    }

    @Test func aPreflightListsTheMethodsAndTheClientHeadersAskedFor() {
        // given
        let request = HTTPRequest(
            method: .options, path: "/x",
            headers: [
                "Host": "127.0.0.1:9399", "Origin": "http://localhost:3000", "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "content-type, x-firebase-auth-token,X-Goog-Api-Client, x-evil",
            ])

        // when
        let decision = Self.loopback.decide(request, audience: .client)

        // then
        #expect(
            decision
                == .preflight([
                    "Access-Control-Allow-Origin": "http://localhost:3000", "Vary": "Origin",
                    "Access-Control-Allow-Methods": "GET, POST",
                    "Access-Control-Allow-Headers": "content-type, x-firebase-auth-token, X-Goog-Api-Client",
                    "Access-Control-Max-Age": "600",
                ]))
    }

    @Test func aPreflightFromARefusedOriginIsRefused() {
        // given
        let request = HTTPRequest(
            method: .options, path: "/x",
            headers: ["Origin": "http://evil.example", "Access-Control-Request-Method": "POST"])

        // when / then
        #expect(Self.loopback.decide(request, audience: .client) == .refuseOrigin("http://evil.example", .client))
    }

    @Test func anOptionsRequestWithoutRequestMethodIsNotAPreflight() {
        // given
        let request = HTTPRequest(method: .options, path: "/x", headers: ["Origin": "http://localhost:3000"])

        // when / then
        #expect(
            Self.loopback.decide(request, audience: .client)
                == .serve(corsHeaders: ["Access-Control-Allow-Origin": "http://localhost:3000", "Vary": "Origin"]))
    }

    @Test(arguments: [
        ("127.0.0.1", true), ("127.0.0.1:9399", true), ("localhost:1", true), ("localhost:65535", true),
        ("localhost:0", true), ("localhost:65536", false), ("localhost:", false), ("localhost:123456", false),
        ("localhost:80a", false), ("LOCALHOST:80", false), (" localhost", false), ("localhost.", false),
        ("127.0.0.10", false), ("127.0.0.1:+80", false), ("localhostx", false), ("", false),
    ])
    func theLoopbackShortcutAcceptsOnlyWhatTheParseAccepts(_ value: String, _ shortcut: Bool) {
        #expect(RequestOriginPolicy.isLoopbackWithPort(value) == shortcut)
        if shortcut { #expect(Self.loopback.acceptsParsedHost(value)) }
        #expect(Self.loopback.acceptsHost(value) == Self.loopback.acceptsParsedHost(value))
    }
}
