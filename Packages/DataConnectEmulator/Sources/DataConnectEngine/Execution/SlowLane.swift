import Foundation

/// Where a request goes once it has run longer than its short budget (``ExecutionLimits/slowLaneAfter``): the
/// server's bounded lane for slow requests, so that they cannot occupy every worker that cheap requests need.
///
/// The server registers a lane on each worker thread it runs requests on (``SlowLanes/register(_:)``); a request
/// takes the lane of the thread it starts on, and the engine's deadline watchdog moves it there when it passes its
/// short budget. Requests run elsewhere (realtime re-runs, tests) have no lane and are never moved.
public protocol SlowLane: AnyObject, Sendable {
    /// Moves the request running on the lane's thread into the slow lane; called from another thread (the
    /// watchdog) while that request runs.
    ///
    /// - Returns: `false` when the slow lane is full: the request is stopped with `RESOURCE_EXHAUSTED`.
    func enterSlowLane() -> Bool
}

/// The slow lane of the calling thread.
public enum SlowLanes {
    private static let key = "dataconnect.slow-lane"

    /// Makes `lane` the slow lane of requests run on the calling thread from now on (`nil` removes it).
    public static func register(_ lane: (any SlowLane)?) {
        Thread.current.threadDictionary[key] = lane.map(Holder.init)
    }

    /// The calling thread's slow lane, if its server registered one.
    public static var current: (any SlowLane)? {
        (Thread.current.threadDictionary[key] as? Holder)?.lane
    }

    private final class Holder: NSObject {
        let lane: any SlowLane

        init(_ lane: any SlowLane) {
            self.lane = lane
        }
    }
}
