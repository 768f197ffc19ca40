import DataConnectTestSupport
import DataConnectWire
import Foundation
import Testing

@testable import FirebaseDataConnect

/// The libwebsockets client against a scripted server on a loopback socket.
@Suite struct WebSocketConnectionTests {
    /// Records a connection's events.
    final class EventLog: Sendable {
        private let events = LockedList<WebSocketEvent>()

        var all: [WebSocketEvent] { events.all }

        var handler: @Sendable (WebSocketEvent) -> Void {
            { [events] event in events.append(event) }
        }

        /// Waits until the events so far satisfy `condition` (or the hang guard passed) and returns them.
        func wait(until condition: @escaping ([WebSocketEvent]) -> Bool) async -> [WebSocketEvent] {
            await HangGuard.wait { condition(events.all) }
            return events.all
        }

        /// Waits for the last event, `.closed` or `.failed`.
        func waitForEnd() async -> [WebSocketEvent] {
            await wait { events in
                events.contains {
                    switch $0 {
                    case .closed, .failed: true
                    default: false
                    }
                }
            }
        }
    }

    static func address(_ server: ScriptedWebSocketServer, target: String = "/ws/test?key=k") -> WebSocketAddress {
        WebSocketAddress(host: "127.0.0.1", port: server.port, secure: false, target: target)
    }

    static func text(_ string: String) -> WebSocketEvent { .text(Array(string.utf8)) }

    @Test func exchangesTextFramesBothWaysAndClosesWithACode() async throws {
        // given: a server that echoes one message, then answers the client's close
        let seen = LockedList<String>()
        let server = try ScriptedWebSocketServer([
            { peer in
                try peer.accept()
                seen.append(peer.requestHead)
                let frame = try peer.readFrame()
                seen.append("masked=\(frame.masked) opcode=\(frame.opcode) \(frame.text)")
                try peer.sendText("echo: " + frame.text)
                let close = try peer.readFrame()
                seen.append(
                    "close \(close.closeCode ?? -1) \(String(decoding: close.payload.dropFirst(2), as: UTF8.self))")
                try peer.sendClose(code: close.closeCode ?? 1000, reason: "")
            }
        ])
        let log = EventLog()

        // when
        let connection = WebSocketConnection.connect(to: Self.address(server), handler: log.handler)
        connection.send(text: Array("hello".utf8))
        _ = await log.wait { $0.contains(Self.text("echo: hello")) }
        connection.close(code: 1000, reason: "done")
        let events = await log.waitForEnd()

        // then
        #expect(events == [.opened, Self.text("echo: hello"), .closed(code: 1000, reason: "done")])
        await HangGuard.wait { server.finishedScripts == 1 }
        #expect(server.failures.isEmpty)
        let lines = seen.all
        #expect(lines.count == 3)
        #expect(lines.first?.hasPrefix("GET /ws/test?key=k HTTP/1.1") == true)
        #expect(lines.first?.contains("Host: 127.0.0.1:\(server.port)") == true)
        #expect(lines.first?.lowercased().contains("upgrade: websocket") == true)
        #expect(lines.dropFirst().first == "masked=true opcode=1 hello")
        #expect(lines.last == "close 1000 done")
    }

    @Test func framesQueuedBeforeTheUpgradeGoOutInOrder() async throws {
        // given
        let seen = LockedList<String>()
        let server = try ScriptedWebSocketServer([
            { peer in
                try peer.accept()
                for _ in 0..<3 { seen.append(try peer.readText()) }
                try peer.sendText("done")
                _ = try peer.readFrame()
            }
        ])
        let log = EventLog()

        // when: sent at once, before the connection is open
        let connection = WebSocketConnection.connect(to: Self.address(server), handler: log.handler)
        for message in ["one", "two", "three"] { connection.send(text: Array(message.utf8)) }
        _ = await log.wait { $0.contains(Self.text("done")) }
        connection.close(code: 1000, reason: "")
        _ = await log.waitForEnd()

        // then
        #expect(seen.all == ["one", "two", "three"])
    }

    @Test func joinsFragmentedAndLargeMessagesAndKeepsBinaryApart() async throws {
        // given: a message in three frames, one of 300 KB (more than the receive buffer), and a binary one
        let large = String(repeating: "0123456789", count: 30_000)
        let server = try ScriptedWebSocketServer([
            { peer in
                try peer.accept()
                try peer.sendFragmented(#"{"result":{"requestId":"1","data":{"n":1}}}"#, parts: 3)
                try peer.sendText(large)
                try peer.send(opcode: WebSocketPeer.Opcode.binary, payload: [0, 1, 2, 255])
                _ = try peer.readFrame()
            }
        ])
        let log = EventLog()

        // when
        let connection = WebSocketConnection.connect(to: Self.address(server), handler: log.handler)
        let events = await log.wait { $0.count >= 4 }
        connection.close(code: 1000, reason: "")
        _ = await log.waitForEnd()

        // then
        #expect(
            events.prefix(4) == [
                .opened, Self.text(#"{"result":{"requestId":"1","data":{"n":1}}}"#), Self.text(large),
                .binary([0, 1, 2, 255]),
            ])
    }

    @Test func answersTheServersPing() async throws {
        // given
        let seen = LockedList<WebSocketPeer.Frame>()
        let server = try ScriptedWebSocketServer([
            { peer in
                try peer.accept()
                try peer.send(opcode: WebSocketPeer.Opcode.ping, payload: Array("are you there".utf8))
                seen.append(try peer.readFrame())
                try peer.sendText("thanks")
                _ = try peer.readFrame()
            }
        ])
        let log = EventLog()

        // when
        let connection = WebSocketConnection.connect(to: Self.address(server), handler: log.handler)
        _ = await log.wait { $0.contains(Self.text("thanks")) }
        connection.close(code: 1000, reason: "")
        _ = await log.waitForEnd()

        // then
        #expect(seen.all.map(\.opcode) == [WebSocketPeer.Opcode.pong])
        #expect(seen.all.first?.text == "are you there")
    }

    @Test func reportsTheServersCloseCodeAndReason() async throws {
        // given
        let server = try ScriptedWebSocketServer([
            { peer in
                try peer.accept()
                try peer.sendClose(code: 4001, reason: "schema reloaded")
                _ = try peer.readFrame()
            }
        ])
        let log = EventLog()

        // when
        _ = WebSocketConnection.connect(to: Self.address(server), handler: log.handler)
        let events = await log.waitForEnd()

        // then
        #expect(events == [.opened, .closed(code: 4001, reason: "schema reloaded")])
    }

    @Test func aConnectionDroppedWithoutACloseFrameFails() async throws {
        // given
        let server = try ScriptedWebSocketServer([{ peer in try peer.accept() }])
        let log = EventLog()

        // when: the script returns, and the server hangs up
        _ = WebSocketConnection.connect(to: Self.address(server), handler: log.handler)
        let events = await log.waitForEnd()

        // then
        #expect(events.first == .opened)
        guard case .failed(.connection(_, let code))? = events.last else {
            Issue.record("expected a connection failure, got \(events)")
            return
        }
        #expect(code == URLErrorCodes.networkConnectionLost)
    }

    @Test func aRefusedUpgradeKeepsItsHTTPStatus() async throws {
        // given
        let server = try ScriptedWebSocketServer([{ peer in try peer.refuse(status: 404) }])
        let log = EventLog()

        // when
        _ = WebSocketConnection.connect(to: Self.address(server), handler: log.handler)
        let events = await log.waitForEnd()

        // then
        guard case .failed(.server(let error, let status))? = events.last, events.count == 1 else {
            Issue.record("expected a refusal, got \(events)")
            return
        }
        #expect(status == 404)
        #expect(error.status == .notFound)
    }

    @Test func aRefusedConnectionFails() async throws {
        // given: a port nobody listens on (the server's, after it stopped)
        var port = 0
        do {
            let server = try ScriptedWebSocketServer([])
            port = server.port
        }
        let log = EventLog()

        // when
        _ = WebSocketConnection.connect(
            to: WebSocketAddress(host: "127.0.0.1", port: port, secure: false, target: "/"), handler: log.handler)
        let events = await log.waitForEnd()

        // then
        guard case .failed(.connection)? = events.last, events.count == 1 else {
            Issue.record("expected a connection failure, got \(events)")
            return
        }
    }

    @Test func aHostThatDoesNotResolveFails() async throws {
        // given
        let log = EventLog()

        // when: `.invalid` never resolves (RFC 6761)
        _ = WebSocketConnection.connect(
            to: WebSocketAddress(host: "no-such-host.invalid", port: 443, secure: true, target: "/"),
            handler: log.handler)
        let events = await log.waitForEnd()

        // then
        guard case .failed(.connection)? = events.last, events.count == 1 else {
            Issue.record("expected a connection failure, got \(events)")
            return
        }
    }

    @Test func aPeerThatStopsAnsweringPingsIsDropped() async throws {
        // given: a server that reads the client's pings and never answers them
        let seen = LockedList<UInt8>()
        let server = try ScriptedWebSocketServer([
            { peer in
                try peer.accept()
                while true { seen.append(try peer.readFrame().opcode) }
            }
        ])
        let log = EventLog()
        var options = WebSocketConnection.Options()
        options.pingAfterSeconds = 1
        options.hangUpAfterSeconds = 2

        // when
        _ = WebSocketConnection.connect(to: Self.address(server), options: options, handler: log.handler)
        let events = await log.waitForEnd()

        // then: it pinged, then gave up with an error rather than going quiet
        #expect(seen.all.contains(WebSocketPeer.Opcode.ping))
        guard case .failed(.connection)? = events.last else {
            Issue.record("expected a connection failure, got \(events)")
            return
        }
    }

    @Test func closingBeforeTheUpgradeAbandonsTheConnection() async throws {
        // given: a server that never answers the upgrade
        let server = try ScriptedWebSocketServer([{ peer in while true { _ = try peer.readFrame() } }])
        let log = EventLog()

        // when
        let connection = WebSocketConnection.connect(to: Self.address(server), handler: log.handler)
        connection.close(code: 1000, reason: "not needed")
        let events = await log.waitForEnd()

        // then
        #expect(events == [.closed(code: 1000, reason: "not needed")])
    }

    @Test func theURLLeavesOutTheDefaultPort() {
        #expect(
            WebSocketAddress(host: "firebasedataconnect.googleapis.com", port: 443, secure: true, target: "/ws/x").url
                == "wss://firebasedataconnect.googleapis.com/ws/x")
        #expect(WebSocketAddress(host: "::1", port: 9399, secure: false, target: "/ws/x").url == "ws://[::1]:9399/ws/x")
    }
}
