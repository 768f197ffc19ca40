import DataConnectEngine
import EmulatorHTTP

/// The engine's view of one request-lane thread of the emulator's server: a request whose statements run past
/// the short budget moves into the server's slow lane (``RequestLanes``).
final class EngineSlowLane: SlowLane {
    private let worker: LaneWorker

    init(_ worker: LaneWorker) {
        self.worker = worker
    }

    func enterSlowLane() -> Bool {
        worker.enterSlowLane()
    }
}
