#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Pipes for a child's standard streams, and reading several of them to their ends at once.
enum Pipes {
    /// A pipe whose ends are closed on exec, so that programs started meanwhile do not inherit them.
    ///
    /// - Returns: The reading and the writing end; `nil` (with `errno` set) when there is no pipe.
    static func make() -> (read: Int32, write: Int32)? {
        var descriptors: [Int32] = [-1, -1]
        if let pipe2 = SpawnExtensions.pipe2 {
            guard pipe2(&descriptors, O_CLOEXEC) == 0 else { return nil }
        } else {
            guard pipe(&descriptors) == 0 else { return nil }
            _ = fcntl(descriptors[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptors[1], F_SETFD, FD_CLOEXEC)
        }
        return (descriptors[0], descriptors[1])
    }

    /// Reads every descriptor until its writers close it, whichever has data first, so that a child never blocks
    /// on a full pipe nobody reads.
    ///
    /// - Parameter descriptors: Reading ends; left open.
    /// - Returns: What each one delivered, in the same order.
    static func drain(_ descriptors: [Int32]) -> [[UInt8]] {
        var collected = [[UInt8]](repeating: [], count: descriptors.count)
        var open = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while open.contains(where: { $0.fd >= 0 }) {
            let ready = open.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), -1) }
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            for index in open.indices where open[index].fd >= 0 && open[index].revents != 0 {
                let count = chunk.withUnsafeMutableBytes { read(open[index].fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    collected[index] += chunk[..<count]
                } else if count == 0 || errno != EINTR {
                    open[index].fd = -1  // poll(2) skips negative descriptors
                }
            }
        }
        return collected
    }
}

/// glibc's `posix_spawn` extensions and `pipe2`, which Swift's `Glibc` module does not declare (they need
/// `_GNU_SOURCE`), looked up at run time; `nil` where the C library lacks them.
enum SpawnExtensions {
    typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    typealias AddChangeDirectory =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34): close every descriptor from a number up.
    static let addCloseFrom: AddCloseFrom? = lookUp("posix_spawn_file_actions_addclosefrom_np")
    /// `posix_spawn_file_actions_addchdir_np` (glibc 2.29): change the child's working directory.
    static let addChangeDirectory: AddChangeDirectory? = lookUp("posix_spawn_file_actions_addchdir_np")
    /// `pipe2`, which creates both ends with `O_CLOEXEC` in one step.
    static let pipe2: Pipe2? = lookUp("pipe2")

    private static func lookUp<Function>(_ name: String) -> Function? {
        guard let symbol = dlsym(nil, name) else { return nil }
        return unsafeBitCast(symbol, to: Function.self)
    }
}
