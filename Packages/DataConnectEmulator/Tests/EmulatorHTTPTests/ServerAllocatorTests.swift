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

        // when: 6 MiB of 4 KiB blocks (too large for the per-thread cache, so each free merges into the arena's top),
        // written to as a request's working memory is, then freed
        // (Both arrays are allocated first, so that nothing the test allocates lies above the blocks.)
        var blocks: [UnsafeMutableRawPointer] = []
        var pages: [UInt] = []
        blocks.reserveCapacity(6 * 256)
        pages.reserveCapacity(6 * 256)
        for _ in 0..<6 * 256 {
            let block = malloc(4096)!
            memset(block, 0x5A, 4096)
            blocks.append(block)
            pages.append(Self.pageStart(of: block + 2048))
        }
        for block in blocks.reversed() { free(block) }

        // then: below the trim threshold, the arena keeps the pages for the next request; glibc's default gives all
        // but about 128 KiB back to the kernel, which drops them. Only the pages' residency is looked at, not the
        // process's totals, which the tests running beside this one move.
        let resident = pages.filter(Self.isResident).count
        #expect(resident >= pages.count * 3 / 4, "\(resident) of \(pages.count) pages still resident")
    }

    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    private static func pageStart(of address: UnsafeMutableRawPointer) -> UInt {
        UInt(bitPattern: address) & ~UInt(pageSize - 1)
    }

    /// Whether the page at `start` is mapped and in memory (`mincore`); an unmapped page counts as not resident.
    private static func isResident(_ start: UInt) -> Bool {
        var vector: UInt8 = 0
        guard let address = UnsafeMutableRawPointer(bitPattern: start) else { return false }
        return mincore(address, pageSize, &vector) == 0 && vector & 1 == 1
    }
}
