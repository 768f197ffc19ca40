import DataConnectTestSupport
import Synchronization

/// Values appended from any thread.
final class LockedList<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}

/// Collects what a stream publishes, from a background task.
final class Recorder<Value: Sendable>: Sendable {
    private let values = LockedList<Value>()
    private let task: Task<Void, Never>

    init(_ stream: AsyncStream<Value>) {
        let values = values
        task = Task { for await value in stream { values.append(value) } }
    }

    deinit { task.cancel() }

    var all: [Value] { values.all }

    /// Waits until `count` values arrived (or the hang guard passed) and returns them.
    func wait(for count: Int) async -> [Value] {
        await wait { $0.count >= count }
    }

    /// Waits until the values so far satisfy `condition` (or the hang guard passed) and returns them.
    func wait(until condition: ([Value]) -> Bool) async -> [Value] {
        await HangGuard.wait { condition(all) }
        return all
    }
}
