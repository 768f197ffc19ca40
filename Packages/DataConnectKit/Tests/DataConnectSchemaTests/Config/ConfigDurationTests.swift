import Testing

@testable import DataConnectSchema

@Suite struct ConfigDurationTests {
    @Test(arguments: [
        ("0", 0.0), ("30s", 30), ("5m", 300), ("1h", 3600), ("1h30m", 5400), ("250ms", 0.25), ("1.5h", 5400),
        ("2h45m30s", 9930), ("1m0.5s", 60.5), ("+10s", 10), (" 60s ", 60), ("500us", 0.0005), ("500µs", 0.0005),
        ("750ns", 0.00000075), (".5s", 0.5), ("0s", 0),
    ])
    func parsesDurations(text: String, seconds: Double) throws {
        // given / when
        let duration = try ConfigDuration.parse(text).get()
        // then
        #expect(duration.text == text)
        #expect(abs(duration.seconds - seconds) < 1e-12)
    }

    @Test func keepsExactNanosecondsAndSwiftDuration() throws {
        // given / when
        let duration = try ConfigDuration.parse("1h2m3.004005006s").get()
        // then
        #expect(duration.nanoseconds == 3_723_004_005_006)
        #expect(duration.duration == .nanoseconds(3_723_004_005_006))
        #expect(duration.description == "1h2m3.004005006s")
    }

    @Test(arguments: [
        ("", "expected a number with a unit, e.g. \"30s\""),
        ("30", "missing unit (use ms, s, m or h), e.g. \"30s\""),
        ("-5s", "a duration must not be negative"),
        ("5d", "unknown unit \"d\" (use ms, s, m or h)"),
        ("s", "expected a number with a unit, e.g. \"30s\" or \"1h30m\""),
        ("1h 30m", "unexpected \" 30m\" (write the parts together, e.g. \"1h30m\")"),
        ("99999999999999h", "the duration is too long"),
        ("1.2.3s", "unknown unit \".3s\" (use ms, s, m or h)"),
    ])
    func rejectsInvalidDurations(text: String, reason: String) {
        // given / when
        let result = ConfigDuration.parse(text)
        // then
        #expect(result == .failure(ConfigValueError(message: reason)))
    }

    @Test(arguments: [
        ("100MB", Int64(104_857_600)), ("512KB", 524_288), ("1GB", 1_073_741_824), ("2048", 2048), ("10B", 10),
        ("1.5GB", 1_610_612_736), ("64 mb", 67_108_864), ("1TiB", 1_099_511_627_776), ("3M", 3_145_728), ("0", 0),
    ])
    func parsesByteSizes(text: String, bytes: Int64) throws {
        // given / when
        let size = try ConfigByteSize.parse(text).get()
        // then
        #expect(size == ConfigByteSize(text: text, bytes: bytes))
    }

    @Test(arguments: [
        ("", "expected a number with a unit, e.g. \"100MB\""),
        ("MB", "expected a number with a unit, e.g. \"100MB\""),
        ("-1MB", "a size must not be negative"),
        ("10 PB", "unknown unit \"PB\" (use B, KB, MB, GB or TB)"),
        ("1.2.3MB", "expected a number with a unit, e.g. \"100MB\""),
        ("99999999TB", "the size is too large"),
    ])
    func rejectsInvalidByteSizes(text: String, reason: String) {
        // given / when
        let result = ConfigByteSize.parse(text)
        // then
        #expect(result == .failure(ConfigValueError(message: reason)))
    }
}
