#if canImport(Glibc)
import Glibc
#endif

/// Writes the head of an HTTP/1.1 answer as the libmicrohttpd side does: the status line with its reason phrase,
/// `Date`, the `Connection` field (the responder's, with `close` when the server closes), the responder's other
/// fields in order, then `Content-Length`.
///
/// The responder's fields are checked on the way: a name that is not a token, or a value with a CR, LF or NUL, is
/// left out (and logged), so that no field can split the head; `Content-Length` and `Transfer-Encoding` are the
/// server's to write and are left out too.
enum HTTP1ResponseHead {
    /// What the server says about the connection, when the responder says nothing.
    enum ConnectionField {
        /// Nothing: an HTTP/1.1 connection that stays open.
        case none
        /// `close`: the connection ends after this answer.
        case close
        /// `Keep-Alive`: an HTTP/1.0 client's keep-alive is granted.
        case keepAlive
    }

    /// Appends the head to `buffer`.
    ///
    /// - Parameters:
    ///   - contentLength: The body's length, or `nil` for an answer without `Content-Length` (a 101, 1xx, 204).
    ///   - date: The current `Date` value, 29 bytes; `nil` when the responder gave its own.
    ///   - log: Receives a warning for each field left out.
    static func append(
        status: Int, headers: HTTPHeaders, contentLength: Int?, connection: ConnectionField,
        date: [UInt8]?, to buffer: inout [UInt8], log: (String) -> Void
    ) {
        buffer.appendText("HTTP/1.1 ")
        appendDecimal(status, to: &buffer)
        buffer.append(0x20)
        buffer.appendText(reasonPhrase(status))
        buffer.appendText("\r\n")
        if let date {
            buffer.appendText("Date: ")
            buffer.append(contentsOf: date)
            buffer.appendText("\r\n")
        }
        if headers.contains(name: "Connection") {
            var value = headers.values(for: "Connection").joined(separator: ", ")
            if connection == .close && !closes(value) { value += ", close" }
            if value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) {
                log("response header 'Connection' rejected: not a valid header field; not sent")
            } else {
                buffer.appendText("Connection: \(value)\r\n")
            }
        } else {
            switch connection {
            case .none: break
            case .close: buffer.appendText("Connection: close\r\n")
            case .keepAlive: buffer.appendText("Connection: Keep-Alive\r\n")
            }
        }
        for field in headers.fields where !HTTPHeaders.namesEqual(field.name, "Connection") {
            guard isSendable(field) else {
                log("response header '\(field.name)' rejected: not a valid header field; not sent")
                continue
            }
            if HTTPHeaders.namesEqual(field.name, "Content-Length")
                || HTTPHeaders.namesEqual(field.name, "Transfer-Encoding")
            {
                log("response header '\(field.name)' is the server's to write; not sent")
                continue
            }
            buffer.appendText(field.name)
            buffer.appendText(": ")
            buffer.appendText(field.value)
            buffer.appendText("\r\n")
        }
        if let contentLength {
            buffer.appendText("Content-Length: ")
            appendDecimal(contentLength, to: &buffer)
            buffer.appendText("\r\n")
        }
        buffer.appendText("\r\n")
    }

    /// Whether a `Connection` value lists `close`.
    static func closes(_ value: String) -> Bool {
        value.lowercased().split(separator: ",").contains { token in
            token.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
                == Array("close")
        }
    }

    /// Whether a field can be written as it is: a token for a name, no CR, LF or NUL in the value.
    private static func isSendable(_ field: HTTPHeaders.Field) -> Bool {
        let nameIsToken =
            field.name.utf8.withContiguousStorageIfAvailable { !$0.isEmpty && $0.allSatisfy(HTTP1Head.isTokenByte) }
            ?? (!field.name.isEmpty && field.name.utf8.allSatisfy(HTTP1Head.isTokenByte))
        let isControl: (UInt8) -> Bool = { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
        let valueIsClean =
            field.value.utf8.withContiguousStorageIfAvailable { !$0.contains(where: isControl) }
            ?? !field.value.utf8.contains(where: isControl)
        return nameIsToken && valueIsClean
    }

    private static func appendDecimal(_ value: Int, to buffer: inout [UInt8]) {
        guard value >= 10 else {
            buffer.append(UInt8(ascii: "0") + UInt8(max(0, value)))
            return
        }
        appendDecimal(value / 10, to: &buffer)
        buffer.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// The reason phrase libmicrohttpd sends with a status code; `Non-Standard Status` for codes it has none for.
    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 102: "Processing"
        case 103: "Early Hints"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 203: "Non-Authoritative Information"
        case 204: "No Content"
        case 205: "Reset Content"
        case 206: "Partial Content"
        case 207: "Multi-Status"
        case 208: "Already Reported"
        case 226: "IM Used"
        case 300: "Multiple Choices"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 305: "Use Proxy"
        case 306: "Switch Proxy"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 402: "Payment Required"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 407: "Proxy Authentication Required"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 416: "Range Not Satisfiable"
        case 417: "Expectation Failed"
        case 421: "Misdirected Request"
        case 422: "Unprocessable Content"
        case 423: "Locked"
        case 424: "Failed Dependency"
        case 425: "Too Early"
        case 426: "Upgrade Required"
        case 428: "Precondition Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 449: "Reply With"
        case 450: "Blocked by Windows Parental Controls"
        case 451: "Unavailable For Legal Reasons"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        case 506: "Variant Also Negotiates"
        case 507: "Insufficient Storage"
        case 508: "Loop Detected"
        case 509: "Bandwidth Limit Exceeded"
        case 510: "Not Extended"
        case 511: "Network Authentication Required"
        default: "Non-Standard Status"
        }
    }
}

/// The `Date` field's value (RFC 9110 §5.6.7, `Sun, 06 Nov 1994 08:49:37 GMT`), formatted once per second.
struct HTTPDate {
    private var second: time_t = -1
    private var text = [UInt8](repeating: 0, count: 29)

    /// The value for now.
    mutating func current() -> [UInt8] {
        let now = time(nil)
        if now != second {
            second = now
            format(now)
        }
        return text
    }

    private mutating func format(_ seconds: time_t) {
        var moment = seconds
        var parts = tm()
        gmtime_r(&moment, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let value =
            "\(days[Int(parts.tm_wday) % 7]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon) % 12]) "
            + "\(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
        text = Array(value.utf8)
    }
}

extension [UInt8] {
    /// Appends a string's UTF-8 bytes in one copy (`append(contentsOf: text.utf8)` goes byte by byte).
    @inline(__always)
    fileprivate mutating func appendText(_ text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }
}
