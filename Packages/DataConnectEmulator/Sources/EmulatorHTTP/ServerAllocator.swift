import CMicroHTTPD

/// The C allocator's settings for a long-running server process.
///
/// By default glibc gives a thread's arena back to the kernel as soon as more than 128 KiB at its top is free
/// (`M_TRIM_THRESHOLD`). A request whose working memory crosses that line, such as an SQLite sort the index does
/// not serve, then pays twice on every request: an `madvise` when its memory is freed, and page faults when the
/// next request touches the same pages again, each fault a page cleared by the kernel and, with the server's
/// threads on several cores, a TLB shootdown on the others. ``keepWorkingMemory()`` lets each arena keep up to
/// ``trimThreshold`` free, so a steady load reuses the same pages.
///
/// Setting the thresholds also stops glibc from raising them itself (it does so when it frees a block it had
/// mapped on its own), so ``mmapThreshold`` is set with them: below it, a request's buffers (a large answer, for
/// one) come from the arena rather than from a mapping made and unmade per request.
///
/// The settings are the whole process's: call ``keepWorkingMemory()`` from the server's entry point, before it
/// starts its threads, not from a library.
public enum ServerAllocator {
    /// Blocks of this size or larger get a mapping of their own (bytes).
    public static let mmapThreshold = 4 << 20

    /// The free memory an arena keeps at its top before it returns it to the kernel (bytes).
    public static let trimThreshold = 8 << 20

    /// Applies ``mmapThreshold`` and ``trimThreshold`` to the whole process.
    ///
    /// - Returns: whether the allocator took both.
    @discardableResult
    public static func keepWorkingMemory() -> Bool {
        cmhd_set_allocator_thresholds(Int32(mmapThreshold), Int32(trimThreshold)) == 1
    }

    /// The bytes the allocator holds free over all its arenas, for tests and diagnostics.
    public static var freeBytes: Int {
        Int(cmhd_allocator_free_bytes())
    }
}
