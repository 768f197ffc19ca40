import Foundation

#if canImport(Glibc)
import Glibc
#endif

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
    /// Makes `lane` the slow lane of requests run on the calling thread from now on (`nil` removes it).
    public static func register(_ lane: (any SlowLane)?) {
        let previous = pthread_getspecific(key)
        if let lane {
            pthread_setspecific(key, Unmanaged.passRetained(Holder(lane)).toOpaque())
        } else {
            pthread_setspecific(key, nil)
        }
        if let previous { Unmanaged<Holder>.fromOpaque(previous).release() }
    }

    /// The calling thread's slow lane, if its server registered one (read once per request: a thread-local).
    public static var current: (any SlowLane)? {
        guard let holder = pthread_getspecific(key) else { return nil }
        return Unmanaged<Holder>.fromOpaque(holder).takeUnretainedValue().lane
    }

    /// The thread-local slot; its destructor releases a thread's lane when the thread ends.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { holder in
            if let holder { Unmanaged<Holder>.fromOpaque(holder).release() }
        }
        return key
    }()

    private final class Holder {
        let lane: any SlowLane

        init(_ lane: any SlowLane) {
            self.lane = lane
        }
    }
}
