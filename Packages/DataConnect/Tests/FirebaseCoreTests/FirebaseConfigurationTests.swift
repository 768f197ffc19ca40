import Testing

@testable import FirebaseCore

@Suite struct FirebaseConfigurationTests {
    @Test func logsAtNoticeUntilTheLevelIsSet() {
        // given
        let configuration = FirebaseConfiguration()

        // then
        #expect(configuration.loggerLevel == .notice)
        #expect(configuration.isLoggable(.warning))
        #expect(configuration.isLoggable(.notice))
        #expect(!configuration.isLoggable(.info))
    }

    @Test func setLoggerLevelFiltersEveryMoreVerboseLevel() {
        // given
        let configuration = FirebaseConfiguration()

        // when
        configuration.setLoggerLevel(.warning)
        let atWarning = FirebaseLoggerLevel.allCases.filter(configuration.isLoggable)
        configuration.setLoggerLevel(.debug)
        let atDebug = FirebaseLoggerLevel.allCases.filter(configuration.isLoggable)

        // then
        #expect(atWarning == [.error, .warning])
        #expect(atDebug == FirebaseLoggerLevel.allCases)
    }

    @Test func levelsKeepUpstreamRawValuesAndBounds() {
        #expect(FirebaseLoggerLevel.allCases.map(\.rawValue) == [3, 4, 5, 6, 7])
        #expect(FirebaseLoggerLevel.min == .error)
        #expect(FirebaseLoggerLevel.max == .debug)
        #expect(FirebaseConfiguration.shared === FirebaseConfiguration.shared)
    }
}
