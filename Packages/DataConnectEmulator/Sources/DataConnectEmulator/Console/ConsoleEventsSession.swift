import DataConnectEncoding
import DataConnectWire
import EmulatorHTTP
import Foundation
import Synchronization

/// One console's `/emulator/console/events` WebSocket: greets it with a `hello` frame, then lets ``ConsoleEvents``
/// send to it until it closes. Pinged on the hub's heartbeat, so a console that went away is noticed.
final class ConsoleEventsSession: WebSocketHandler {
    private let events: ConsoleEvents
    private let hub: SubscriptionHub
    private let hello: JSONValue
    private let heartbeat = Mutex<UInt64?>(nil)

    /// Creates the session; `hello` is the first frame sent.
    init(events: ConsoleEvents, hub: SubscriptionHub, hello: JSONValue) {
        self.events = events
        self.hub = hub
        self.hello = hello
    }

    func webSocketDidOpen(_ connection: WebSocketConnection) {
        events.send(hello, to: connection)
        events.add(connection)
        let registration = hub.addHeartbeat { [weak connection] in connection?.heartbeat() }
        heartbeat.withLock { $0 = registration }
    }

    func webSocket(_ connection: WebSocketConnection, didReceive message: WebSocketMessage) {
        // The feed is one-way: the console sends nothing, and anything it sends is ignored.
    }

    func webSocketDidClose(_ connection: WebSocketConnection, code: WebSocketCloseCode) {
        events.remove(connection)
        if let registration = heartbeat.withLock({ $0.take() }) { hub.removeHeartbeat(registration) }
    }
}
