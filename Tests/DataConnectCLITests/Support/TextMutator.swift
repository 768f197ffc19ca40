/// SplitMix64: a tiny, fast pseudo-random generator whose output depends only on its seed, so a
/// failing mutation can be reproduced from the seed printed with it.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    /// Creates a generator.
    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A seed derived from text with FNV-1a (stable across runs, unlike `hashValue`).
    static func seed(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}

/// Damages source text the way editing accidents and fuzzers do: deletes, duplicates and swaps
/// ranges, inserts punctuation or arbitrary bytes, truncates.
///
/// ```swift
/// var generator = SplitMix64(seed: 42)
/// let damaged = TextMutator.mutate("type Movie @table { title: String }", using: &generator)
/// ```
enum TextMutator {
    /// One kind of damage.
    enum Operation: CaseIterable {
        case delete, duplicate, swap, insertPunctuation, insertByte, truncate
    }

    /// Characters that matter to the GraphQL lexer and parser.
    static let punctuation: [UInt8] = Array("{}()[]:!@$=|&.,\"#\\\n\t -_0".utf8) + Array("\"\"\"...".utf8)

    /// Applies one to three random operations to `text`.
    static func mutate(_ text: String, using generator: inout SplitMix64) -> String {
        var bytes = Array(text.utf8)
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            let operation = Operation.allCases.randomElement(using: &generator) ?? .delete
            apply(operation, to: &bytes, using: &generator)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func apply(_ operation: Operation, to bytes: inout [UInt8], using generator: inout SplitMix64) {
        guard !bytes.isEmpty else {
            bytes = [punctuation.randomElement(using: &generator) ?? UInt8(ascii: "{")]
            return
        }
        switch operation {
        case .delete:
            let range = randomRange(in: bytes.count, maxLength: 12, using: &generator)
            bytes.removeSubrange(range)
        case .duplicate:
            let range = randomRange(in: bytes.count, maxLength: 40, using: &generator)
            let position = Int.random(in: 0...bytes.count, using: &generator)
            bytes.insert(contentsOf: Array(bytes[range]), at: position)
        case .swap:
            let first = randomRange(in: bytes.count, maxLength: 16, using: &generator)
            let second = randomRange(in: bytes.count, maxLength: 16, using: &generator)
            guard first.upperBound <= second.lowerBound || second.upperBound <= first.lowerBound else { return }
            let (early, late) = first.lowerBound < second.lowerBound ? (first, second) : (second, first)
            let swapped = Array(bytes[late]) + Array(bytes[early.upperBound..<late.lowerBound]) + Array(bytes[early])
            bytes.replaceSubrange(early.lowerBound..<late.upperBound, with: swapped)
        case .insertPunctuation:
            let position = Int.random(in: 0...bytes.count, using: &generator)
            let count = Int.random(in: 1...4, using: &generator)
            let inserted = (0..<count).map { _ in punctuation.randomElement(using: &generator) ?? UInt8(ascii: "}") }
            bytes.insert(contentsOf: inserted, at: position)
        case .insertByte:
            let position = Int.random(in: 0...bytes.count, using: &generator)
            bytes.insert(UInt8.random(in: 0...255, using: &generator), at: position)
        case .truncate:
            bytes.removeSubrange(Int.random(in: 0..<bytes.count, using: &generator)...)
        }
    }

    private static func randomRange(in count: Int, maxLength: Int, using generator: inout SplitMix64) -> Range<Int> {
        let start = Int.random(in: 0..<count, using: &generator)
        let length = Int.random(in: 1...min(maxLength, count - start), using: &generator)
        return start..<(start + length)
    }
}
