import Dispatch
import EmulatorHTTP
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Hands the stream a responder created to the test, so the test can write to it.
final class StreamBox: Sendable {
    private let stream = Mutex<HTTPBodyStream?>(nil)
    private let terminations = Atomic<Int>(0)
    private let created = Latch()
    private let terminated = Latch()

    func store(_ stream: HTTPBodyStream) {
        stream.onTermination {
            self.terminations.add(1, ordering: .relaxed)
            self.terminated.open()
        }
        self.stream.withLock { $0 = stream }
        created.open()
    }

    var terminationCount: Int { terminations.load(ordering: .relaxed) }

    /// Waits (up to the hang guard) for the responder to have created the stream.
    func waitForStream() throws -> HTTPBodyStream {
        guard created.wait(), let stream = stream.withLock({ $0 }) else {
            throw RawHTTPError.timedOut
        }
        return stream
    }

    /// Waits (up to the hang guard) for the stream's termination handler to have run.
    func waitForTermination() -> Bool {
        terminated.wait()
    }
}

/// A server-sent-events response around a fresh stream kept in `box`.
func eventStreamResponder(_ box: StreamBox) -> @Sendable (HTTPRequest) -> HTTPResponse {
    { _ in
        let stream = HTTPBodyStream()
        box.store(stream)
        return HTTPResponse(
            headers: ["Content-Type": "text/event-stream", "Cache-Control": "no-cache"], stream: stream)
    }
}

@Suite struct HTTPBodyStreamTests {
    @Test func streamingResponseDeliversEachChunkAsItIsWritten() async throws {
        // given
        let box = StreamBox()
        try await withServer(respond: eventStreamResponder(box)) { server in
            let connection = try RawHTTPConnection(port: server.port)
            try connection.send("GET /emulator/stream_issues?serviceId=s HTTP/1.1\r\nHost: x\r\n\r\n")
            let stream = try box.waitForStream()

            // when
            let head = try connection.readHead()
            var received: [String] = []
            for index in 1...3 {
                stream.write("data: {\"n\":\(index)}\n\n")
                received.append(String(decoding: try #require(try connection.readChunk()), as: UTF8.self))
            }
            stream.finish()
            let end = try connection.readChunk()

            // then
            #expect(head.status == 200)
            #expect(head.headers["Content-Type"] == "text/event-stream")
            #expect(head.headers["Transfer-Encoding"] == "chunked")
            #expect(received == (1...3).map { "data: {\"n\":\($0)}\n\n" })
            #expect(end == nil)
            #expect(box.waitForTermination())
            #expect(stream.isTerminated)
            #expect(!stream.write("late"))
        }
    }

    @Test func chunksWrittenFromAnotherThreadArriveInOrder() async throws {
        // given: a writer thread that writes each chunk once the client has read the one before, so that every
        // chunk is sent on its own while the connection is parked in between
        let chunkRead = DispatchSemaphore(value: 0)
        try await withServer(respond: { _ in
            let stream = HTTPBodyStream()
            DispatchQueue.global().async {
                for index in 1...3 {
                    stream.write("chunk \(index);")
                    guard chunkRead.wait(timeout: .now() + .seconds(HangGuard.eventSeconds)) == .success else { break }
                }
                stream.finish()
            }
            return HTTPResponse(headers: ["Content-Type": "text/plain"], stream: stream)
        }) { server in
            let connection = try RawHTTPConnection(port: server.port)
            // twice on one connection: a streamed response leaves it ready for the next request
            for _ in 1...2 {
                // when
                try connection.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
                let head = try connection.readHead()
                var chunks: [String] = []
                for _ in 1...3 {
                    chunks.append(String(decoding: try #require(try connection.readChunk()), as: UTF8.self))
                    chunkRead.signal()
                }
                let end = try connection.readChunk()

                // then
                #expect(head.status == 200)
                #expect(chunks == ["chunk 1;", "chunk 2;", "chunk 3;"])
                #expect(end == nil)
            }
        }
    }

    @Test func bytesWrittenBeforeTheResponderReturnsAreSent() async throws {
        // given
        try await withServer(respond: { _ in
            let stream = HTTPBodyStream()
            stream.write("all at once")
            stream.finish()
            return HTTPResponse(stream: stream)
        }) { server in
            // when
            let connection = try RawHTTPConnection(port: server.port)
            try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try connection.readResponse()

            // then
            #expect(response.text == "all at once")
        }
    }

    @Test func stoppingTheServerEndsAnIdleStream() async throws {
        // given
        let box = StreamBox()
        let server = HTTPServer(port: 0, respond: eventStreamResponder(box))
        try server.start()
        let connection = try RawHTTPConnection(port: server.port)
        try connection.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        let stream = try box.waitForStream()
        stream.write(":\n\n")
        _ = try connection.readHead()
        _ = try connection.readChunk()

        // when
        server.stop()

        // then
        #expect(box.terminationCount == 1)
        #expect(stream.isTerminated)
        #expect(!stream.write("after stop"))
        #expect(connection.isClosedByServer())
    }

    @Test func clientDisconnectEndsAParkedStream() async throws {
        // given: a stream parked after its first chunk
        let box = StreamBox()
        try await withServer(respond: eventStreamResponder(box)) { server in
            do {
                let connection = try RawHTTPConnection(port: server.port)
                try connection.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
                let stream = try box.waitForStream()
                stream.write(":\n\n")
                _ = try connection.readHead()
                _ = try connection.readChunk()
            }
            let stream = try box.waitForStream()

            // when: the client has closed the connection (above); nothing is written

            // then: the server noticed the hang-up by itself, and later writes are dropped
            #expect(box.waitForTermination())
            #expect(stream.isTerminated)
            #expect(!stream.write(":\n\n"))
        }
    }

    @Test func aStreamReturnedTwiceGets500TheSecondTime() async throws {
        // given
        let shared = HTTPBodyStream()
        try await withServer(respond: { _ in HTTPResponse(stream: shared) }) { server in
            let first = try RawHTTPConnection(port: server.port)
            try first.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try first.readHead()

            // when
            let second = try RawHTTPConnection(port: server.port)
            try second.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try second.readResponse()

            // then
            #expect(response.status == 500)
            shared.finish()
            #expect(try first.readChunk() == nil)
        }
    }

    @Test func onTerminationRunsAtOnceForAnEndedStream() async throws {
        // given
        let box = StreamBox()
        try await withServer(respond: { _ in
            let stream = HTTPBodyStream()
            stream.finish()
            box.store(stream)
            return HTTPResponse(stream: stream)
        }) { server in
            let connection = try RawHTTPConnection(port: server.port)
            try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try connection.readResponse()
            let stream = try box.waitForStream()
            #expect(box.waitForTermination())

            // when
            let calls = MessageLog()
            stream.onTermination { calls.append("terminated") }

            // then
            #expect(calls.all == ["terminated"])
        }
    }
}
