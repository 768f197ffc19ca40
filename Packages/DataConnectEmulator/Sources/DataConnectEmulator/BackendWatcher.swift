import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Watches a backend directory tree with inotify and calls back, debounced, after changes to
/// `.gql` and `.yaml` files.
///
/// Used by the emulator to reload and by `dataconnect generate --watch` to regenerate.
///
/// ```swift
/// let watcher = BackendWatcher(directory: "Backend/movies") { print("changed") }
/// watcher?.start()
/// ```
public final class BackendWatcher: Sendable {
    let descriptor: Int32
    let onChange: @Sendable () -> Void
    let running = Atomic<Bool>(false)
    /// How long to wait for more changes before calling back.
    public static let debounce: Duration = .milliseconds(150)

    /// Creates a watcher on every folder under `directory`; `nil` when inotify is unavailable.
    public init?(directory: String, onChange: @escaping @Sendable () -> Void) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        descriptor = fd
        self.onChange = onChange
        let mask = UInt32(IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM | IN_CLOSE_WRITE)
        var folders = [directory]
        if let enumerator = FileManager.default.enumerator(atPath: directory) {
            while let item = enumerator.nextObject() as? String {
                var isDirectory: ObjCBool = false
                let path = directory + "/" + item
                if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
                    !item.split(separator: "/").contains(where: { $0.hasPrefix(".") })
                {
                    folders.append(path)
                }
            }
        }
        for folder in folders { _ = inotify_add_watch(fd, folder, mask) }
    }

    /// Starts watching on a thread of its own.
    public func start() {
        running.store(true, ordering: .releasing)
        let thread = Thread { [self] in self.loop() }
        thread.name = "backend-watcher"
        thread.start()
    }

    /// Stops watching; the thread ends within 50 ms.
    public func stop() {
        running.store(false, ordering: .releasing)
    }

    deinit {
        close(descriptor)
    }

    private func loop() {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var pendingSince: ContinuousClock.Instant?
        while running.load(ordering: .acquiring) {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 50)
            if ready > 0 {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0, Self.touchesSources(buffer, count: count) {
                    pendingSince = .now
                }
            }
            if let since = pendingSince, ContinuousClock.now - since >= Self.debounce {
                pendingSince = nil
                onChange()
            }
        }
    }

    /// Whether any event in the buffer names a `.gql`, `.yaml` or `.yml` file.
    static func touchesSources(_ buffer: [UInt8], count: Int) -> Bool {
        var offset = 0
        let headerSize = MemoryLayout<inotify_event>.size
        while offset + headerSize <= count {
            let length = buffer.withUnsafeBytes { Int($0.load(fromByteOffset: offset + 12, as: UInt32.self)) }
            let nameStart = offset + headerSize
            let nameEnd = min(count, nameStart + length)
            let nameBytes = buffer[nameStart..<nameEnd].prefix { $0 != 0 }
            let name = String(decoding: nameBytes, as: UTF8.self)
            if name.hasSuffix(".gql") || name.hasSuffix(".yaml") || name.hasSuffix(".yml") { return true }
            offset = nameEnd
        }
        return false
    }
}
