import DataConnectWire
import Testing

/// A small deterministic generator (SplitMix64), so that failures reproduce.
private struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

@Suite struct JSONRobustnessTests {
    private let seed = Array(
        (#"{"data":{"movies":[{"id":"m1","title":"Cl\u00e9o \"5\" 🎬","#
            + #""rating":-8.5e-1,"tags":["a",true,null]}]}}"#).utf8
    )

    @Test func survivesMutatedInput() {
        // given thousands of inputs made by flipping, inserting and deleting bytes of a valid document
        var generator = SplitMix64(state: 2_024)
        let interesting: [UInt8] = Array(#"{}[]",:\/u0-+.eE"#.utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xED, 0xF4, 0xFF]
        var accepted = 0
        for _ in 0..<5_000 {
            var bytes = seed
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let position = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[position] = interesting.randomElement(using: &generator)!
                case 1: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: position)
                default: if bytes.count > 1 { bytes.remove(at: position) }
                }
            }

            // when each is parsed
            // then it either fails with a positioned error or reads back identically after writing
            do {
                let value = try JSONReader().parse(bytes)
                accepted += 1
                #expect(try JSONReader().parse(value.serialized()) == value)
            } catch {
                #expect(error.offset >= 0 && error.offset <= bytes.count)
            }
        }
        #expect(accepted > 0)
    }

    @Test func survivesEveryPrefix() {
        // given every truncation of a valid document
        for length in 0..<seed.count {
            // when parsed, then it fails cleanly (no prefix of an object is a complete value)
            #expect(throws: JSONError.self) { try JSONReader().parse(Array(seed[..<length])) }
        }
    }
}
