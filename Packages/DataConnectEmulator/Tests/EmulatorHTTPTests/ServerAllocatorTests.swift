import DataConnectTestSupport
import EmulatorHTTP
import Testing

/// The server's allocator settings, checked in a process of their own (`AllocatorProbe`): they change the C allocator
/// of the whole process, and the test process is shared with every other suite.
@Suite struct ServerAllocatorTests {
    @Test func theThresholdsAreOrdered() {
        #expect(ServerAllocator.mmapThreshold < ServerAllocator.trimThreshold)
    }

    @Test func memoryARequestFreesStaysWithTheProcess() async throws {
        // given: a process that applies the settings `dataconnect emulator` applies, then frees 6 MiB of 4 KiB
        // blocks written to as a request's working memory is

        // when
        let result = try await ChildProcess.run(
            BuiltExecutable.require("AllocatorProbe"), [], environment: ChildProcess.environment(),
            upTo: HangGuard.event)

        // then: the allocator took both thresholds, and the arena kept at least 3 in 4 of the freed pages for the
        // next request (glibc's default gives all but about 128 KiB back to the kernel)
        #expect(result.outputLines.first == "applied true", "\(result.standardOutput)\(result.standardError)")
        #expect(result.outputLines.contains("thresholds-ordered true"))
        #expect(result.exitStatus == 0, "\(result.standardOutput)\(result.standardError)")
    }
}
