import EmulatorHTTP
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct ServerAllocatorTests {
    @Test func theAllocatorTakesBothThresholds() {
        #expect(ServerAllocator.keepWorkingMemory())
        #expect(ServerAllocator.mmapThreshold < ServerAllocator.trimThreshold)
    }

    @Test func memoryARequestFreesStaysWithTheProcess() throws {
        // given: the settings `dataconnect emulator` applies
        try #require(ServerAllocator.keepWorkingMemory())
        let before = ServerAllocator.freeBytes

        // when: 6 MiB of 4 KiB blocks (too large for the per-thread cache, so each free merges into the arena's top),
        // as a request's working memory; glibc's default gives all but about 128 KiB of it back to the kernel
        let blocks = (0..<6 * 256).map { _ in malloc(4096)! }
        for block in blocks.reversed() { free(block) }
        let after = ServerAllocator.freeBytes

        // then: below the trim threshold, the arena keeps it for the next request
        #expect(after - before >= 4 << 20, "kept \(after - before) bytes")
    }
}
