import DataConnectEncoding
import Testing

/// SHA-1 against the FIPS 180 example vectors (NIST's "SHA1" examples and the one-million-`a` message).
@Suite struct SHA1Tests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    @Test(arguments: [
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
                + "mnopqrstnopqrstu",
            "a49b2446a02c645bf419f995b67091253a04a259"
        ),
        ("The quick brown fox jumps over the lazy dog", "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12"),
    ])
    func matchesTheStandardVectors(_ input: String, _ digest: String) {
        #expect(Self.hex(SHA1.hash(Array(input.utf8))) == digest)
    }

    @Test func hashesAMillionAs() {
        #expect(
            Self.hex(SHA1.hash([UInt8](repeating: 0x61, count: 1_000_000)))
                == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    @Test(arguments: [55, 56, 63, 64, 65, 119, 120])
    func messagesAroundABlockBoundaryPadIntoTheRightNumberOfBlocks(_ count: Int) {
        // given: lengths where the 0x80 byte and the 8-byte length do or do not fit in the last block
        let message = [UInt8](repeating: 0x61, count: count)

        // when
        let digest = SHA1.hash(message)

        // then: a digest, and the same one from a collection that is not an array
        #expect(digest.count == SHA1.digestCount)
        #expect(SHA1.hash(message[...]) == digest)
    }
}
