// allocator-probe: ServerAllocatorTests' checks, in a process of their own.
//
// `ServerAllocator.keepWorkingMemory()` changes the C allocator of the whole process, so the tests run it here rather
// than in the shared test process: this program applies the server's settings, frees a request's worth of working
// memory and checks that the arena kept the pages. It prints one `name value` line per measurement and exits with 0
// when every check holds, 1 otherwise.

import EmulatorHTTP

#if canImport(Glibc)
import Glibc
#endif

let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

func pageStart(of address: UnsafeMutableRawPointer) -> UInt {
    UInt(bitPattern: address) & ~UInt(pageSize - 1)
}

/// Whether the page at `start` is mapped and in memory (`mincore`); an unmapped page counts as not resident.
func isResident(_ start: UInt) -> Bool {
    var vector: UInt8 = 0
    guard let address = UnsafeMutableRawPointer(bitPattern: start) else { return false }
    return mincore(address, pageSize, &vector) == 0 && vector & 1 == 1
}

// the settings `dataconnect emulator` applies
let applied = ServerAllocator.keepWorkingMemory()
print("applied \(applied)")
print("thresholds-ordered \(ServerAllocator.mmapThreshold < ServerAllocator.trimThreshold)")

// 6 MiB of 4 KiB blocks (too large for the per-thread cache, so each free merges into the arena's top), written to as
// a request's working memory is, then freed. (Both arrays are allocated first, so that nothing allocated here lies
// above the blocks.)
var blocks: [UnsafeMutableRawPointer] = []
var pages: [UInt] = []
blocks.reserveCapacity(6 * 256)
pages.reserveCapacity(6 * 256)
for _ in 0..<6 * 256 {
    let block = malloc(4096)!
    memset(block, 0x5A, 4096)
    blocks.append(block)
    pages.append(pageStart(of: block + 2048))
}
for block in blocks.reversed() { free(block) }

// Below the trim threshold the arena keeps the pages for the next request; glibc's default gives all but about
// 128 KiB back to the kernel, which drops them. Only the pages' residency is looked at.
let resident = pages.filter(isResident).count
print("resident \(resident) of \(pages.count)")
exit(applied && resident >= pages.count * 3 / 4 ? 0 : 1)
