import Testing

@testable import FirebaseDataConnect

@Suite struct ServiceEndpointTests {
    private let variable = "FIREBASE_DATA_CONNECT_EMULATOR_HOST"

    @Test func settingsAreUsedWithoutEmulatorOrEnvironment() {
        // given / when
        let endpoint = ServiceEndpoint.resolve(settings: .production, emulator: nil, environment: [:])

        // then
        #expect(endpoint == .production)
        #expect(endpoint.baseURL == "https://firebasedataconnect.googleapis.com")
    }

    @Test func useEmulatorDefaultsToLoopback9399OverPlainHTTP() {
        // given / when
        let endpoint = ServiceEndpoint.resolve(
            settings: .production, emulator: EmulatorConfiguration(), environment: [:])

        // then
        #expect(endpoint == ServiceEndpoint(host: "127.0.0.1", port: 9399, sslEnabled: false))
        #expect(endpoint.baseURL == "http://127.0.0.1:9399")
    }

    @Test func environmentVariableIsUsedWhenUseEmulatorWasNotCalled() {
        // given / when
        let endpoint = ServiceEndpoint.resolve(
            settings: .production, emulator: nil, environment: [variable: "localhost:9000"])

        // then
        #expect(endpoint.baseURL == "http://localhost:9000")
    }

    @Test func explicitUseEmulatorWinsOverTheEnvironment() {
        // given / when
        let endpoint = ServiceEndpoint.resolve(
            settings: .production, emulator: EmulatorConfiguration(host: "10.0.0.2", port: 1234),
            environment: [variable: "localhost:9000"])

        // then
        #expect(endpoint.baseURL == "http://10.0.0.2:1234")
    }

    @Test func unparsableEnvironmentValueIsIgnored() {
        // given / when
        let endpoint = ServiceEndpoint.resolve(settings: .production, emulator: nil, environment: [variable: "host:x"])

        // then
        #expect(endpoint == .production)
    }

    @Test(arguments: [
        ("127.0.0.1:9399", "127.0.0.1", 9399),
        ("localhost", "localhost", 9399),
        ("http://emulator:8080/", "emulator", 8080),
        ("[::1]:9400", "::1", 9400),
        ("[::1]", "::1", 9399),
        (" host:1 ", "host", 1),
    ])
    func hostAndPortParses(text: String, host: String, port: Int) {
        #expect(EmulatorConfiguration(hostAndPort: text) == EmulatorConfiguration(host: host, port: port))
    }

    @Test(arguments: ["", ":9399", "host:0", "host:70000", "host:abc", "::1:9399", "[::1"])
    func invalidHostAndPortIsRejected(text: String) {
        #expect(EmulatorConfiguration(hostAndPort: text) == nil)
    }

    @Test func ipv6HostIsBracketedInTheURL() {
        #expect(ServiceEndpoint(host: "::1", port: 9399, sslEnabled: false).baseURL == "http://[::1]:9399")
    }
}
