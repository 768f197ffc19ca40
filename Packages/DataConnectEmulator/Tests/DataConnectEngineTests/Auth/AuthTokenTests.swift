import DataConnectEngine
import DataConnectWire
import Testing

/// Base64url of `text` without padding, built independently of the code under test.
private func base64URL(_ text: String) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    let bytes = Array(text.utf8)
    var output = ""
    var index = 0
    while index < bytes.count {
        let chunk = bytes[index..<min(index + 3, bytes.count)]
        var value = 0
        for (offset, byte) in chunk.enumerated() { value |= Int(byte) << (16 - 8 * offset) }
        for digit in 0...chunk.count { output.append(alphabet[value >> (18 - 6 * digit) & 63]) }
        index += 3
    }
    return output
}

private func token(header: String = #"{"alg":"none","typ":"JWT"}"#, payload: String, signature: String = "") -> String {
    "\(base64URL(header)).\(base64URL(payload)).\(signature)"
}

/// The error `decode` throws for `text`.
private func decodeError(_ text: String) -> AuthError? {
    do {
        _ = try AuthContext.decode(token: text)
        return nil
    } catch {
        return error
    }
}

@Suite struct AuthTokenTests {
    // MARK: Valid tokens

    @Test func decodesTheSubjectAndEveryClaim() throws {
        // given
        let text = token(payload: #"{"sub":"user-1","email":"a@example.com","admin":true,"n":3}"#)

        // when
        let auth = try AuthContext.decode(token: text)

        // then
        #expect(auth.uid == "user-1")
        #expect(auth.isAuthenticated)
        #expect(auth.claims["email"] == "a@example.com")
        #expect(auth.claims["admin"] == true)
        #expect(auth.claims["n"] == 3)
        #expect(!auth.isAnonymous)
        #expect(!auth.emailVerified)
    }

    @Test func ignoresTheSignatureAndTheAlgorithm() throws {
        // given: an RS256 header and a signature nobody checks
        let text = token(
            header: #"{"alg":"RS256","kid":"abc"}"#, payload: #"{"sub":"u"}"#, signature: "bm90LWEtc2lnbmF0dXJl")

        // when
        let auth = try AuthContext.decode(token: text)

        // then
        #expect(auth.uid == "u")
    }

    @Test func recognizesAnonymousUsers() throws {
        // given
        let text = token(payload: #"{"sub":"anon","firebase":{"sign_in_provider":"anonymous","identities":{}}}"#)

        // when
        let auth = try AuthContext.decode(token: text)

        // then
        #expect(auth.isAnonymous)
        #expect(auth.signInProvider == "anonymous")
    }

    @Test func recognizesVerifiedEmails() throws {
        // given
        let verified = token(payload: #"{"sub":"u","email_verified":true}"#)
        let stringTrue = token(payload: #"{"sub":"u","email_verified":"true"}"#)

        // when
        let verifiedAuth = try AuthContext.decode(token: verified)
        let stringAuth = try AuthContext.decode(token: stringTrue)

        // then
        #expect(verifiedAuth.emailVerified)
        #expect(!stringAuth.emailVerified)
    }

    @Test func doesNotCheckExpiry() throws {
        // given
        let expired = token(payload: #"{"sub":"u","exp":1,"iat":0}"#)

        // when
        let auth = try AuthContext.decode(token: expired)

        // then
        #expect(auth.uid == "u")
    }

    @Test func acceptsABearerPrefixAndSurroundingWhitespace() throws {
        // given
        let text = "  Bearer " + token(payload: #"{"sub":"u"}"#) + "\n"

        // when
        let auth = try AuthContext.decode(token: text)

        // then
        #expect(auth.uid == "u")
    }

    @Test(arguments: ["{\"sub\":\"u\"}", "{\"sub\":\"u1\"}", "{\"sub\":\"u12\"}", "{\"sub\":\"u123\"}"])
    func acceptsEveryPaddingVariant(payload: String) throws {
        // given: payloads whose lengths leave 0, 1 and 2 bytes over, with and without "=" padding
        let unpadded = base64URL(payload)
        let padded = unpadded + String(repeating: "=", count: (4 - unpadded.count % 4) % 4)
        let header = base64URL(#"{"alg":"none"}"#)

        // when
        let fromUnpadded = try AuthContext.decode(token: "\(header).\(unpadded).")
        let fromPadded = try AuthContext.decode(token: "\(header).\(padded).")

        // then
        #expect(fromUnpadded.uid == fromPadded.uid)
        #expect(fromUnpadded.uid?.hasPrefix("u") == true)
    }

    @Test func acceptsTheStandardBase64Alphabet() throws {
        // given: "~~~" puts a "-" in the base64url text, which the standard alphabet spells "+"
        let payload = #"{"sub":"u","x":"~~~"}"#
        let standard = base64URL(payload).replacingDashesAndUnderscores()
        #expect(standard.contains("+") || standard.contains("/"))

        // when
        let auth = try AuthContext.decode(token: "\(base64URL("{}")).\(standard).")

        // then
        #expect(auth.claims["x"] == "~~~")
    }

    // MARK: Rejected tokens

    @Test func rejectsGarbage() {
        // given / when
        let error = decodeError("garbage")

        // then
        #expect(error?.kind == .notAJWT)
        #expect(error?.message == "invalid auth token: expected 3 dot-separated segments, found 1")
    }

    @Test func rejectsTwoSegments() {
        // given
        let text = "\(base64URL("{}")).\(base64URL(#"{"sub":"u"}"#))"

        // when
        let error = decodeError(text)

        // then
        #expect(error?.kind == .notAJWT)
        #expect(error?.message.contains("found 2") == true)
    }

    @Test func rejectsAnEmptyToken() {
        #expect(decodeError("")?.kind == .badLength)
        #expect(decodeError("   ")?.kind == .badLength)
    }

    @Test(arguments: ["e30.!!!.", "e30.abcde.", "e30.a.", "e30.eyJzdWIiOiJ1In0=x.", "%%%.e30."])
    func rejectsBadBase64(text: String) {
        // given / when
        let error = decodeError(text)

        // then
        #expect(error?.kind == .invalidBase64)
        #expect(error?.message.contains("is not base64url") == true)
    }

    @Test(arguments: ["[1,2]", "\"sub\"", "42", "null"])
    func rejectsAPayloadThatIsNotAnObject(payload: String) {
        // given
        let text = token(payload: payload)

        // when
        let error = decodeError(text)

        // then
        #expect(error?.kind == .invalidJSON)
        #expect(error?.message == "invalid auth token: the payload is not a JSON object")
    }

    @Test func rejectsAPayloadThatIsNotJSON() {
        // given
        let text = token(payload: "{sub: u}")

        // when
        let error = decodeError(text)

        // then
        #expect(error?.kind == .invalidJSON)
        #expect(error?.message.hasPrefix("invalid auth token: the payload is not JSON") == true)
    }

    @Test func rejectsAHeaderThatIsNotAnObject() {
        #expect(decodeError(token(header: "[]", payload: #"{"sub":"u"}"#))?.kind == .invalidJSON)
    }

    @Test(arguments: [#"{}"#, #"{"sub":""}"#, #"{"sub":42}"#, #"{"user_id":"u"}"#])
    func rejectsAMissingOrEmptySubject(payload: String) {
        // given
        let text = token(payload: payload)

        // when
        let error = decodeError(text)

        // then
        #expect(error?.kind == .missingSubject)
        #expect(error?.message == "invalid auth token: the payload has no \"sub\" claim")
    }

    @Test func rejectsHugeTokens() {
        // given
        let text = token(payload: #"{"sub":"u","pad":""# + String(repeating: "x", count: 70_000) + #""}"#)

        // when
        let error = decodeError(text)

        // then
        #expect(error?.kind == .badLength)
    }

    // MARK: Building contexts

    @Test func unsignedTokensRoundTrip() throws {
        // given
        let claims: JSONObject = ["sub": "u1", "email_verified": true, "firebase": ["sign_in_provider": "password"]]

        // when
        let text = AuthContext.unsignedToken(claims: claims)
        let auth = try AuthContext.decode(token: text)

        // then
        #expect(text.hasSuffix("."))
        #expect(text.split(separator: ".", omittingEmptySubsequences: false).count == 3)
        #expect(!text.contains("="))
        #expect(text.hasPrefix(base64URL(#"{"alg":"none","typ":"JWT"}"#) + "."))
        #expect(auth.claims == claims)
        #expect(auth.uid == "u1")
        #expect(auth.emailVerified)
    }

    @Test func impersonationClaimsUseSubOrUserID() {
        #expect(AuthContext(claims: ["sub": "a", "user_id": "b"]).uid == "a")
        #expect(AuthContext(claims: ["user_id": "b"]).uid == "b")
        #expect(AuthContext(claims: ["admin": true]).uid == nil)
        #expect(!AuthContext(claims: ["admin": true]).isAuthenticated)
    }

    @Test func celValueIsNullWithoutAUser() {
        #expect(AuthContext.unauthenticated.celValue == .null)
        #expect(AuthContext(claims: ["admin": true]).celValue == .null)
        #expect(AuthContext(claims: ["sub": "u"]).celValue == ["uid": "u", "token": ["sub": "u"]])
    }
}

extension String {
    fileprivate func replacingDashesAndUnderscores() -> String {
        String(map { $0 == "-" ? "+" : ($0 == "_" ? "/" : $0) })
    }
}
