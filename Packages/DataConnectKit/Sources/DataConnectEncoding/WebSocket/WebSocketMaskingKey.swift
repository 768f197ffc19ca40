/// The four bytes a client XORs over the payload of every frame it sends (RFC 6455 §5.3).
///
/// Masking and unmasking are the same operation. A payload that arrives in pieces is unmasked piece by piece by
/// passing the offset of each piece in the payload.
///
/// ```swift
/// let key = WebSocketMaskingKey(0x37, 0xFA, 0x21, 0x3D)
/// var payload = Array("Hello".utf8)
/// key.apply(to: &payload)   // [0x7F, 0x9F, 0x4D, 0x51, 0x58]: RFC 6455 §5.7's masked "Hello"
/// key.apply(to: &payload)   // "Hello" again
/// ```
public struct WebSocketMaskingKey: Sendable, Hashable {
    /// The four bytes, the first one in the most significant position.
    public let value: UInt32

    /// The key's bytes in the order they go on the wire.
    public var bytes: [UInt8] { (0..<4).map(byte) }

    /// Creates a key from its four bytes, in wire order.
    ///
    /// - Parameters:
    ///   - first: The byte XORed over payload bytes 0, 4, 8, …
    ///   - second: The byte XORed over payload bytes 1, 5, 9, …
    ///   - third: The byte XORed over payload bytes 2, 6, 10, …
    ///   - fourth: The byte XORed over payload bytes 3, 7, 11, …
    public init(_ first: UInt8, _ second: UInt8, _ third: UInt8, _ fourth: UInt8) {
        value = UInt32(first) << 24 | UInt32(second) << 16 | UInt32(third) << 8 | UInt32(fourth)
    }

    /// Creates a key from its four bytes as one number, the first byte in the most significant position.
    ///
    /// - Parameter value: The key.
    public init(value: UInt32) {
        self.value = value
    }

    /// A key from the system's random number generator, as a client picks one for each frame.
    public static func random() -> WebSocketMaskingKey {
        var generator = SystemRandomNumberGenerator()
        return WebSocketMaskingKey(value: generator.next())
    }

    /// XORs the key over `payload` in place.
    ///
    /// - Parameters:
    ///   - payload: Payload bytes, masked or unmasked.
    ///   - offset: Where `payload` starts within the frame's payload (0 for a whole payload).
    public func apply(to payload: inout [UInt8], offset: Int = 0) {
        payload.withUnsafeMutableBufferPointer { apply(to: $0, offset: offset) }
    }

    /// XORs the key over the bytes of `buffer` in place.
    ///
    /// - Parameters:
    ///   - buffer: Payload bytes, masked or unmasked.
    ///   - offset: Where `buffer` starts within the frame's payload (0 for a whole payload).
    public func apply(to buffer: UnsafeMutableBufferPointer<UInt8>, offset: Int = 0) {
        guard !buffer.isEmpty else { return }
        // The key as it lines up with the buffer's first byte, twice, in memory order: XORed a word at a time.
        var word: UInt64 = 0
        withUnsafeMutableBytes(of: &word) { pattern in
            for index in 0..<8 { pattern[index] = byte((offset + index) & 3) }
        }
        let raw = UnsafeMutableRawBufferPointer(buffer)
        var index = 0
        while index + 8 <= raw.count {
            let value = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            raw.storeBytes(of: value ^ word, toByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < raw.count {
            raw[index] ^= byte((offset + index) & 3)
            index += 1
        }
    }

    /// Byte `index` (0 to 3) of the key, in wire order.
    private func byte(_ index: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(index)))
    }
}
