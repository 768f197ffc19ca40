import DataConnectTestSupport
import Foundation
import Synchronization
import Testing

/// Free ports, listeners, connections and the raw HTTP exchange, against a one-answer server on a thread.
@Suite struct LoopbackTests {
    @Test func aFreePortRefusesConnections() throws {
        // given
        let port = try Loopback.freePort()

        // when / then
        #expect(throws: Loopback.Failure.self) { try LoopbackConnection(port: port) }
    }

    @Test func aRawExchangeSendsTheBytesAndReadsTheContentLengthBody() throws {
        // given: a server that reads the request head and answers once
        let (listener, port) = try Loopback.listen()
        defer { close(listener) }
        let request = Mutex<[UInt8]>([])
        let server = Thread {
            let connection = accept(listener, nil, nil)
            defer { close(connection) }
            var received: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1_024)
            while RawHTTP.headEnd(in: received) == nil {
                let count = recv(connection, &chunk, chunk.count, 0)
                guard count > 0 else { return }
                received += chunk[..<count]
            }
            request.withLock { $0 = received }
            let answer = Array("HTTP/1.1 201 Created\r\nX-Test:  two  \r\nContent-Length: 5\r\n\r\nhelloEXTRA".utf8)
            _ = answer.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        server.start()

        // when
        let response = try RawHTTP.exchange(port: port, "GET /x HTTP/1.1\r\nHost: a\r\n\r\n")

        // then
        #expect(response.status == 201)
        #expect(response.header("x-test") == "two  ")
        #expect(response.text == "hello")
        #expect(request.withLock { $0 } == Array("GET /x HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
    }

    @Test func aSilentServerTimesOutAReadAndAClosedOneEndsTheStream() throws {
        // given
        let (listener, port) = try Loopback.listen()
        defer { close(listener) }
        let connection = try LoopbackConnection(port: port)
        let accepted = accept(listener, nil, nil)

        // when / then
        #expect(connection.receive(until: .now + .milliseconds(50)) == .timedOut)
        close(accepted)
        #expect(connection.receive() == .closed)
    }
}
