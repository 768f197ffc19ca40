/// Decodes a chunked request body as it arrives (RFC 9112 §7.1): chunk sizes in hex, chunk extensions ignored,
/// trailer fields read and dropped. It keeps only a few counters between pieces, so the bytes it is given are always
/// consumed up to the body's end.
///
/// A chunk size that is not hex, or a chunk not followed by its line end, is malformed (400); a chunk size of 2^64 or
/// more, or one that takes the body past its limit, is refused before its data arrives (413).
struct HTTP1ChunkedDecoder {
    private enum State {
        /// The hex digits of a chunk size.
        case size
        /// After the digits: spaces, then a chunk extension (after `;`), up to the line's LF.
        case sizeLineTail(inExtension: Bool)
        /// Chunk data, this many bytes still to come.
        case data(Int)
        /// The CR or LF that ends a chunk's data.
        case dataEnd
        /// The LF after that CR.
        case dataEndLF
        /// The start of a trailer line, or of the empty line that ends the body.
        case trailerLineStart
        /// Inside a trailer line (or after the empty line's CR), up to its LF.
        case trailerLine(empty: Bool)
        case done
    }

    /// The longest chunk-size line (with its extension) accepted.
    static let maximumSizeLine = 4_096

    private var state = State.size
    private var size: UInt64 = 0
    private var significantDigits = 0
    private var sawDigit = false
    private var lineLength = 0
    private var trailerLength = 0

    /// Whether the body has ended.
    var isDone: Bool {
        if case .done = state { return true }
        return false
    }

    /// Consumes `bytes`, appending chunk data to `body`, up to the end of the body; returns how many bytes it took.
    mutating func consume(
        _ bytes: UnsafeRawBufferPointer, into body: inout [UInt8], bodyLimit: Int, trailerLimit: Int
    ) throws(HTTP1Refusal) -> Int {
        var index = 0
        while index < bytes.count {
            switch state {
            case .done:
                return index
            case .data(let remaining):
                let count = min(remaining, bytes.count - index)
                body.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<(index + count)]))
                index += count
                state = remaining == count ? .dataEnd : .data(remaining - count)
                continue
            default:
                break
            }
            let byte = bytes[index]
            index += 1
            try step(byte, body: body, bodyLimit: bodyLimit, trailerLimit: trailerLimit)
        }
        return index
    }

    /// One byte of framing: a size line, a chunk's line end, or the trailer section.
    private mutating func step(_ byte: UInt8, body: [UInt8], bodyLimit: Int, trailerLimit: Int) throws(HTTP1Refusal) {
        switch state {
        case .size:
            lineLength += 1
            if let digit = HTTP1Head.hexValue(byte) {
                sawDigit = true
                if significantDigits > 0 || digit != 0 { significantDigits += 1 }
                // 16 significant hex digits hold any 64-bit size; a 17th means 2^64 or more.
                guard significantDigits <= 16 else { throw .bodyTooLarge(limit: bodyLimit) }
                size = size << 4 | UInt64(digit)
                return
            }
            guard sawDigit else { throw .malformed("malformed chunked encoding: a chunk size is not hex") }
            lineLength -= 1
            state = .sizeLineTail(inExtension: false)
            try step(byte, body: body, bodyLimit: bodyLimit, trailerLimit: trailerLimit)
        case .sizeLineTail(let inExtension):
            lineLength += 1
            guard lineLength <= Self.maximumSizeLine else {
                throw .malformed("malformed chunked encoding: a chunk-size line is too long")
            }
            guard byte == 0x0A else {
                if byte == UInt8(ascii: ";") {
                    state = .sizeLineTail(inExtension: true)
                } else if !inExtension && byte != 0x20 && byte != 0x09 && byte != 0x0D {
                    throw .malformed("malformed chunked encoding: a chunk size is not hex")
                }
                return
            }
            guard size <= UInt64(bodyLimit - body.count) else { throw .bodyTooLarge(limit: bodyLimit) }
            state = size == 0 ? .trailerLineStart : .data(Int(size))
            size = 0
            significantDigits = 0
            sawDigit = false
            lineLength = 0
        case .dataEnd:
            if byte == 0x0D {
                state = .dataEndLF
            } else if byte == 0x0A {
                state = .size
            } else {
                throw .malformed("malformed chunked encoding: a chunk is longer than its size")
            }
        case .dataEndLF:
            guard byte == 0x0A else { throw .malformed("malformed chunked encoding: a chunk is longer than its size") }
            state = .size
        case .trailerLineStart, .trailerLine:
            trailerLength += 1
            guard trailerLength <= trailerLimit else {
                throw HTTP1Refusal(
                    .requestHeaderFieldsTooLarge, "request trailer fields exceed \(trailerLimit) bytes",
                    "RESOURCE_EXHAUSTED")
            }
            let empty: Bool
            if case .trailerLine(let wasEmpty) = state { empty = wasEmpty } else { empty = true }
            if byte == 0x0A {
                state = empty ? .done : .trailerLineStart
            } else {
                state = .trailerLine(empty: empty && byte == 0x0D)
            }
        case .data, .done:
            break
        }
    }
}
