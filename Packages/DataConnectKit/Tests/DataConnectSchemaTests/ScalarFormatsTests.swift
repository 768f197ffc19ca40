import Testing

@testable import DataConnectSchema

/// `ScalarFormats.canonicalUUID`: the canonical form is 32 lowercase hexadecimal digits; other spellings are
/// brought to it, anything else refused.
@Suite struct ScalarFormatsTests {
    static let canonical = "0b6f3c2e9d8a4f51a2c7e4b1d0f9a8c3"

    @Test func keepsTheCanonicalFormAndBringsOtherSpellingsToIt() {
        #expect(ScalarFormats.canonicalUUID(Self.canonical) == Self.canonical)
        #expect(ScalarFormats.canonicalUUID(Self.canonical.uppercased()) == Self.canonical)
        #expect(ScalarFormats.canonicalUUID("0b6f3c2e-9d8a-4f51-a2c7-e4b1d0f9a8c3") == Self.canonical)
        #expect(ScalarFormats.canonicalUUID("{0B6F3C2E-9D8A-4F51-A2C7-E4B1D0F9A8C3}") == Self.canonical)
        #expect(ScalarFormats.canonicalUUID("urn:uuid:0b6f3c2e-9d8a-4f51-a2c7-e4b1d0f9a8c3") == Self.canonical)
    }

    @Test func refusesEveryByteThatIsNotAHexadecimalDigitAtEveryPosition() {
        // Every position of each eight-byte word, and every byte value: the digits' and letters' neighbours
        // (`/`, `:`, `@`, `` ` ``, `g`, `G`) and bytes with the high bit set included.
        let digits = Set(Array("0123456789abcdefABCDEF".utf8))
        for position in 0..<32 {
            for byte in UInt8.min...UInt8.max where !digits.contains(byte) {
                var bytes = Array(Self.canonical.utf8)
                bytes[position] = byte
                let text = String(decoding: bytes, as: UTF8.self)
                #expect(ScalarFormats.canonicalUUID(text) == nil, "byte \(byte) at \(position)")
            }
        }
    }

    @Test func refusesNonASCIIOfTheSameLength() {
        // `é` is two bytes: the text stays 32 bytes long, with bytes above 0x7F in one or two words.
        for position in 0..<31 {
            var bytes = Array(Self.canonical.utf8)
            bytes[position] = 0xC3
            bytes[position + 1] = 0xA9
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.utf8.count == 32)
            #expect(ScalarFormats.canonicalUUID(text) == nil, "é at \(position)")
        }
    }

    @Test func refusesTheWrongLength() {
        #expect(ScalarFormats.canonicalUUID("") == nil)
        #expect(ScalarFormats.canonicalUUID(String(Self.canonical.dropLast())) == nil)
        #expect(ScalarFormats.canonicalUUID(Self.canonical + "0") == nil)
    }
}
