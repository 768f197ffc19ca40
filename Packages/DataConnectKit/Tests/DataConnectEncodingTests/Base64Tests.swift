import DataConnectEncoding
import Testing

/// Base64 and base64url against RFC 4648's vectors, with the strict and the lenient decoders' refusals.
@Suite struct Base64Tests {
    // MARK: RFC 4648 §10

    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ])
    func standardRoundTripsTheRFC4648Vectors(_ plain: String, _ encoded: String) {
        // when / then
        #expect(Base64.standard.encode(Array(plain.utf8)) == encoded)
        #expect(Base64.standard.decode(encoded) == Array(plain.utf8))
    }

    @Test(arguments: [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
        ("foobar", "Zm9vYmFy"),
    ])
    func urlWritesTheVectorsWithoutPadding(_ plain: String, _ encoded: String) {
        // when / then
        #expect(Base64.url.encode(Array(plain.utf8)) == encoded)
        #expect(Base64.url.decode(encoded) == Array(plain.utf8))
    }

    @Test func theAlphabetsDifferInTheirLastTwoCharacters() {
        // given: bytes whose sextets are 62 and 63
        let bytes: [UInt8] = [0xFB, 0xEF, 0xFF]

        // when / then
        #expect(Base64.standard.encode(bytes) == "++//")
        #expect(Base64.url.encode(bytes) == "--__")
        #expect(Base64(alphabet: .url, padded: true).encode([0xFB, 0xFF]) == "-_8=")
        #expect(Base64(alphabet: .standard, padded: false).encode([0xFB, 0xFF]) == "+/8")
    }

    @Test func everyByteValueRoundTripsInEveryEncoding() {
        // given
        let bytes = (0..<512).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        let encodings = [
            Base64.standard, .url, Base64(alphabet: .url, padded: true), Base64(alphabet: .standard, padded: false),
        ]

        // when / then
        for encoding in encodings {
            for count in 0..<10 {
                let slice = Array(bytes.prefix(500 + count))
                let text = encoding.encode(slice)
                #expect(text.utf8.count == encoding.encodedCount(of: slice.count))
                #expect(encoding.decode(text) == slice)
                var appended: [UInt8] = [0x2A]
                encoding.append(slice, to: &appended)
                #expect(appended == [0x2A] + Array(text.utf8))
            }
        }
    }

    // MARK: Strict decoding

    @Test(arguments: [
        "Zg=", "Zh==", "Z===", "Zm9v!A==", "Zg==Zg==", "=Zg=", "Zm9", "Zm9vY", "Zm8-", "Zm8_", "Zm 9v", "====",
    ])
    func standardRefusesMalformedText(_ text: String) {
        #expect(Base64.standard.decode(text) == nil)
    }

    @Test(arguments: ["Zg==", "Zm8=", "Z", "Zm9vY", "Zh", "Zm9", "Zm+v", "Zm/v", "Zm9v\n"])
    func urlRefusesPaddingTheOtherAlphabetAndNonCanonicalBits(_ text: String) {
        #expect(Base64.url.decode(text) == nil)
    }

    // MARK: Lenient decoding

    @Test(
        arguments: [
            ("aGk", [104, 105]), ("aGk=", [104, 105]), ("aGl", [104, 105]), ("a+_/", [107, 239, 255]),
            ("a-_/", [107, 239, 255]), ("Zg", [102]), ("Zg==", [102]), ("", []),
        ] as [(String, [UInt8])])
    func leniencyAcceptsEitherAlphabetOptionalPaddingAndUnusedBits(_ text: String, _ bytes: [UInt8]) {
        #expect(Base64.decodeLeniently(text) == bytes)
    }

    @Test(arguments: ["Z", "Zm9vY", "Zg=", "Zg===", "Z===", "Zm9v!", "Zg==Zg", "Zm 9v", "ab=c"])
    func leniencyStillRefusesWhatIsNotBase64(_ text: String) {
        #expect(Base64.decodeLeniently(text) == nil)
    }

    @Test func substringsDecodeWithoutCopyingFirst() {
        // given: a JWT's middle segment
        let token = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1In0.sig"
        let payload = token.split(separator: ".")[1]

        // when / then
        #expect(Base64.url.decode(payload).map { String(decoding: $0, as: UTF8.self) } == #"{"sub":"u"}"#)
    }
}
