import DataConnectCEL
import Testing

/// SplitMix64, so generated ids reproduce.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

private func isLowercaseHex(_ text: String) -> Bool {
    text.utf8.count == 32 && text.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) }
}

private func character(_ text: String, _ offset: Int) -> Character {
    text[text.index(text.startIndex, offsetBy: offset)]
}

@Suite struct UUIDGeneratorTests {
    @Test func version4IsThirtyTwoHexWithVersionAndVariantBits() {
        for _ in 0..<200 {
            // given / when
            let id = UUIDGenerator.v4()

            // then
            #expect(isLowercaseHex(id), "\(id)")
            #expect(character(id, 12) == "4")
            #expect("89ab".contains(character(id, 16)))
        }
    }

    @Test func version4IsUnique() {
        // given / when
        let ids = Set((0..<1000).map { _ in UUIDGenerator.v4() })

        // then
        #expect(ids.count == 1000)
    }

    @Test func seededGeneratorsReproduce() {
        // given
        var first = SplitMix(state: 7)
        var second = SplitMix(state: 7)

        // when / then
        #expect(UUIDGenerator.v4(using: &first) == UUIDGenerator.v4(using: &second))
    }

    @Test func version7StartsWithTheMillisecondTimestamp() {
        // given
        var generator = SplitMix(state: 1)

        // when
        let id = UUIDGenerator.v7(unixMilliseconds: 1_700_000_000_000, using: &generator)

        // then
        #expect(isLowercaseHex(id))
        #expect(id.hasPrefix("018bcfe56800"))
        #expect(character(id, 12) == "7")
        #expect("89ab".contains(character(id, 16)))
    }

    @Test func version7IsTimeOrdered() {
        // given
        var generator = SplitMix(state: 2)

        // when
        let ids = (0..<100).map { UUIDGenerator.v7(unixMilliseconds: 1_700_000_000_000 + Int64($0), using: &generator) }

        // then
        #expect(ids == ids.sorted())
    }

    @Test func version7FromTheClockIsCurrent() {
        // given / when
        let id = UUIDGenerator.v7()

        // then: the timestamp is after 2024-01-01 (0x018cc251f400 ms)
        #expect(isLowercaseHex(id))
        #expect(id.prefix(12) > "018cc251f400")
        #expect(character(id, 12) == "7")
    }
}
