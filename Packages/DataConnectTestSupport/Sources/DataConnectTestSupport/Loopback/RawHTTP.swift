/// One HTTP/1.1 response read off a raw socket, with its header fields as the server wrote them.
public struct RawHTTPResponse: Sendable, CustomStringConvertible {
    /// The status code.
    public var status: Int
    /// The header fields in order, names as sent.
    public var headers: [(name: String, value: String)]
    /// The body: a `Content-Length` body, or whatever arrived until the server closed the connection.
    public var body: [UInt8]

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: The header fields in order.
    ///   - body: The body.
    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The last value of the header field `name`, compared without case.
    ///
    /// - Parameter name: The field's name.
    /// - Returns: Its value, or `nil`.
    public func header(_ name: String) -> String? {
        headers.last { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The status, the header fields and the start of the body.
    public var description: String {
        "HTTP \(status) \(headers.map { "\($0.name): \($0.value)" }): \(String(decoding: body.prefix(1_000), as: UTF8.self))"
    }
}

/// A raw HTTP/1.1 exchange on loopback: the request's bytes exactly as given, one response read back.
///
/// For what a browser or a hand-written client sends (`Host` and other headers URLSession sets itself), and for
/// malformed requests.
///
/// ```swift
/// let response = try RawHTTP.exchange(port: port, "GET /emulator/info HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
/// #expect(response.status == 200)
/// ```
public enum RawHTTP {
    /// Why an exchange failed.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// Sends `request` on a new connection to `127.0.0.1:port` and reads one response.
    ///
    /// The reader stops at the end of a `Content-Length` body or when the server closes the connection; a read
    /// that waits longer than `hangGuard` fails the exchange instead of hanging the test. Errors while sending are
    /// ignored: a server that refuses a request may close the connection before it has all been sent, and its
    /// answer is still there to read.
    ///
    /// - Parameters:
    ///   - port: The server's port on `127.0.0.1`.
    ///   - request: The request as it goes on the wire.
    ///   - hangGuard: How long the server may take to answer.
    /// - Returns: The response.
    /// - Throws: ``Failure`` when no connection is made, no complete response arrives in time, or the connection
    ///   closes before a response head.
    public static func exchange(
        port: Int, _ request: [UInt8], hangGuard: Duration = HangGuard.event
    ) throws(Failure) -> RawHTTPResponse {
        let connection: LoopbackConnection
        do {
            connection = try LoopbackConnection(port: port, sendTimeout: hangGuard)
        } catch {
            throw Failure(description: error.description)
        }
        try? connection.send(request)
        let deadline = ContinuousClock.now + hangGuard
        var received: [UInt8] = []
        while true {
            if let response = complete(received) { return response }
            switch connection.receive(until: deadline) {
            case .bytes(let bytes):
                received += bytes
            case .timedOut:
                throw Failure(description: "no complete response within \(hangGuard)")
            case .closed:
                // End of file (or a reset after the answer): whatever arrived is the response.
                guard let end = headEnd(in: received) else {
                    throw Failure(
                        description: "the connection closed after \(received.count) bytes, with no response")
                }
                var response = try parseHead(received[..<end])
                response.body = Array(received[(end + 4)...])
                return response
            }
        }
    }

    /// ``exchange(port:_:hangGuard:)`` with a request written as text, sent as UTF-8.
    ///
    /// - Parameters:
    ///   - port: The server's port on `127.0.0.1`.
    ///   - request: The request, CRLFs included.
    ///   - hangGuard: How long the server may take to answer.
    /// - Returns: The response.
    /// - Throws: ``Failure`` as the byte form does.
    public static func exchange(
        port: Int, _ request: String, hangGuard: Duration = HangGuard.event
    ) throws(Failure) -> RawHTTPResponse {
        try exchange(port: port, Array(request.utf8), hangGuard: hangGuard)
    }

    /// Where the head ends in `bytes`: the index of the empty line's CRLFCRLF, or `nil` while it has not arrived.
    ///
    /// - Parameter bytes: Bytes received, starting at a status line (or a request line).
    /// - Returns: The index of the first byte of `\r\n\r\n`.
    public static func headEnd(in bytes: some RandomAccessCollection<UInt8>) -> Int? {
        let bytes = Array(bytes)
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// Parses a response head (the status line and header fields, without the final empty line).
    ///
    /// - Parameter head: The head's bytes.
    /// - Returns: A response with the status and header fields, and an empty body.
    /// - Throws: ``Failure`` for a status line without a status code.
    public static func parseHead(_ head: some Collection<UInt8>) throws(Failure) -> RawHTTPResponse {
        let lines = String(decoding: head, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusParts = lines.first?.split(separator: " ") ?? []
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw Failure(description: "bad status line: \(lines.first ?? "")")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            headers.append((String(line[..<colon]), String(value)))
        }
        return RawHTTPResponse(status: status, headers: headers, body: [])
    }

    /// A complete `Content-Length` response in `bytes`, or `nil` while more is needed.
    private static func complete(_ bytes: [UInt8]) -> RawHTTPResponse? {
        guard let end = headEnd(in: bytes), var response = try? parseHead(bytes[..<end]),
            let length = response.header("content-length").flatMap({ Int($0) }), bytes.count >= end + 4 + length
        else { return nil }
        response.body = Array(bytes[(end + 4)..<(end + 4 + length)])
        return response
    }
}
