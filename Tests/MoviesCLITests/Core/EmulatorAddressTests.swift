import MoviesCLICore
import MoviesModels
import Testing

@Suite struct EmulatorAddressTests {
    @Test func parsesHostAndPort() {
        #expect(EmulatorAddress("127.0.0.1:9399") == EmulatorAddress(host: "127.0.0.1", port: 9399))
        #expect(EmulatorAddress("[::1]:9000") == EmulatorAddress(host: "::1", port: 9000))
        #expect(EmulatorAddress("[::1]:9000")?.description == "[::1]:9000")
        #expect(EmulatorAddress("localhost") == nil)
        #expect(EmulatorAddress(":9399") == nil)
        #expect(EmulatorAddress("host:0") == nil)
    }

    @Test func resolvesExplicitThenEnvironmentThenDefault() throws {
        // given
        let explicit = EmulatorAddress(host: "a", port: 1)
        let environment = [EmulatorAddress.environmentVariable: "b:2"]

        // when / then
        #expect(try EmulatorAddress.resolve(explicit, environment: environment) == explicit)
        #expect(try EmulatorAddress.resolve(nil, environment: environment) == EmulatorAddress(host: "b", port: 2))
        #expect(try EmulatorAddress.resolve(nil, environment: [:]) == .standard)
        #expect(EmulatorAddress.standard.description == "127.0.0.1:9399")
    }

    @Test func rejectsAMalformedEnvironmentVariable() {
        // given
        let environment = [EmulatorAddress.environmentVariable: "nope"]

        // when / then
        #expect(throws: EmulatorAddress.InvalidEnvironmentValue(value: "nope")) {
            try EmulatorAddress.resolve(nil, environment: environment)
        }
        #expect(
            throws: UsageError("FIREBASE_DATA_CONNECT_EMULATOR_HOST must be HOST:PORT, got \"nope\"")
        ) {
            try MoviesCommand(.list(ListOptions())).emulatorAddress(environment: environment)
        }
    }
}
