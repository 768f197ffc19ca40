import DataConnectEncoding
import DataConnectTestSupport
import DataConnectWire
import Foundation
import Synchronization

@testable import FirebaseDataConnect

/// A WebSocket in memory: records what the transport sends, and lets the test play the server.
final class FakeWebSocket: WebSocketChannel {
    let address: WebSocketAddress
    private let handler: @Sendable (WebSocketEvent) -> Void
    private let sent = LockedList<JSONValue>()
    private let closeCode = Mutex<(code: WebSocketCloseCode, reason: String)?>(nil)

    init(address: WebSocketAddress, handler: @escaping @Sendable (WebSocketEvent) -> Void) {
        self.address = address
        self.handler = handler
    }

    /// The frames sent so far, parsed.
    var frames: [JSONValue] { sent.all }

    /// The close the transport asked for, if any.
    var closed: (code: WebSocketCloseCode, reason: String)? { closeCode.withLock { $0 } }

    func send(text: [UInt8]) {
        sent.append((try? JSONValue(parsing: text)) ?? .string(String(decoding: text, as: UTF8.self)))
    }

    func close(code: WebSocketCloseCode, reason: String) {
        closeCode.withLock { $0 = (code, reason) }
    }

    // MARK: Playing the server

    func open() { handler(.opened) }

    /// Sends a response as the emulator does: a text frame wrapped as `{"result": …}`.
    func reply(_ response: JSONValue) {
        handler(.text(JSONValue.object(["result": response]).serialized()))
    }

    /// Sends a response as production does: a bare binary frame.
    func replyBinary(_ response: JSONValue) {
        handler(.binary(response.serialized()))
    }

    func sendRaw(text: String) { handler(.text(Array(text.utf8))) }

    func fail(_ error: TransportError) { handler(.failed(error)) }

    func closeFromServer(code: WebSocketCloseCode, reason: String) { handler(.closed(code: code, reason: reason)) }
}

/// Hands out ``FakeWebSocket``s and remembers them.
final class FakeWebSocketConnector: Sendable {
    private let sockets = LockedList<FakeWebSocket>()

    var all: [FakeWebSocket] { sockets.all }
    var last: FakeWebSocket? { sockets.all.last }

    var connector: WebSocketConnector {
        { [sockets] address, handler in
            let socket = FakeWebSocket(address: address, handler: handler)
            sockets.append(socket)
            return socket
        }
    }
}

/// Collects what an `AsyncThrowingStream` yields, and how it ended.
final class ThrowingRecorder<Value: Sendable>: Sendable {
    private let values = LockedList<Value>()
    private let ending = LockedList<Result<Void, any Error>>()
    private let task: Task<Void, Never>

    init(_ stream: AsyncThrowingStream<Value, any Error>) {
        let values = values
        let ending = ending
        task = Task {
            do {
                for try await value in stream { values.append(value) }
                ending.append(.success(()))
            } catch {
                ending.append(.failure(error))
            }
        }
    }

    var all: [Value] { values.all }

    /// Stops consuming, as an app does when it drops a subscription.
    func cancel() { task.cancel() }

    /// Waits until `count` values arrived (or the hang guard passed) and returns them.
    func wait(for count: Int) async -> [Value] {
        await HangGuard.wait { values.all.count >= count }
        return values.all
    }

    /// Waits for the end of the stream (or the hang guard) and returns the error it threw, if any.
    func waitForEnd() async -> Result<Void, any Error>? {
        await HangGuard.wait { !ending.all.isEmpty }
        return ending.all.first
    }
}
