import MoviesTUICore
import Synchronization

/// Actions posted by background tasks (the feed, effects) for the main loop to reduce.
final class Inbox: Sendable {
    private let actions = Mutex<[Action]>([])

    /// Queues an action.
    func post(_ action: Action) {
        actions.withLock { $0.append(action) }
    }

    /// Takes every queued action, oldest first.
    func drain() -> [Action] {
        actions.withLock { actions in
            defer { actions.removeAll() }
            return actions
        }
    }
}
