/// Splits a `text/event-stream` body into events, as bytes arrive in arbitrary chunks.
///
/// Follows the HTML server-sent events format: lines end with `\n`, `\r\n` or `\r`; `data:` lines of one event
/// are joined with `\n`; a blank line ends the event; lines starting with `:` are comments (the emulator's
/// `: ping` heartbeat); other fields (`event:`, `id:`, `retry:`) are ignored.
///
/// ```swift
/// var parser = ServerSentEventParser()
/// for item in parser.feed(Array("data: {\"a\":1}\n\n: ping\n\n".utf8)) { print(item) }
/// // .event("{\"a\":1}"), .comment(" ping")
/// ```
struct ServerSentEventParser {
    /// What a chunk of the stream contained.
    enum Item: Equatable {
        /// A complete event's data.
        case event(String)
        /// A comment line, without the leading colon.
        case comment(String)
    }

    private var line: [UInt8] = []
    private var data: [String] = []
    private var hasData = false
    private var lastWasCarriageReturn = false

    /// Consumes bytes and returns the events and comments they completed.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [Item] {
        var items: [Item] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") && lastWasCarriageReturn {
                lastWasCarriageReturn = false
                continue
            }
            lastWasCarriageReturn = byte == UInt8(ascii: "\r")
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                if let item = endLine() { items.append(item) }
            } else {
                line.append(byte)
            }
        }
        return items
    }

    private mutating func endLine() -> Item? {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty {
            guard hasData else { return nil }
            let event = data.joined(separator: "\n")
            data.removeAll()
            hasData = false
            return .event(event)
        }
        let text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix(":") { return .comment(String(text.dropFirst())) }
        let field: Substring
        var value: Substring
        if let colon = text.firstIndex(of: ":") {
            field = text[..<colon]
            value = text[text.index(after: colon)...]
            if value.hasPrefix(" ") { value = value.dropFirst() }
        } else {
            field = Substring(text)
            value = ""
        }
        if field == "data" {
            data.append(String(value))
            hasData = true
        }
        return nil
    }
}
