import DataConnectEncoding
import DataConnectWire
import EmulatorTesting
import Foundation
import Testing

/// The `@auth` outcome table (schema-and-server.md §4.2) through connector calls of the library's `kiosk`
/// connector, which has one query and one mutation per level: every caller against every level answers 200,
/// 401 UNAUTHENTICATED or 403 PERMISSION_DENIED, in the production error shape.
@Suite(.on(.sqlite))  // the auth decision comes before any SQL
struct AuthOutcomeTests {
    /// An `@auth` level, and the kiosk operations declared with it.
    enum Level: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case PUBLIC, USER_ANON, USER, USER_EMAIL_VERIFIED, NO_ACCESS
        /// No `@auth` directive at all, which means `NO_ACCESS`.
        case unmarked

        var query: String {
            switch self {
            case .PUBLIC: return "countPublic"
            case .USER_ANON: return "countAnon"
            case .USER: return "countUser"
            case .USER_EMAIL_VERIFIED: return "countVerified"
            case .NO_ACCESS: return "countClosed"
            case .unmarked: return "countUnmarked"
            }
        }

        /// The mutation of that level (`nil` for `unmarked`: the kiosk declares no such mutation).
        var mutation: String? {
            switch self {
            case .PUBLIC: return "touchPublic"
            case .USER_ANON: return "touchAnon"
            case .USER: return "touchUser"
            case .USER_EMAIL_VERIFIED: return "touchVerified"
            case .NO_ACCESS: return "touchClosed"
            case .unmarked: return nil
            }
        }

        var testDescription: String { rawValue }
    }

    /// The table: `nil` means allowed, otherwise the HTTP status and its gRPC name.
    static func expectedRefusal(_ caller: Caller, _ level: Level) -> (http: Int, status: String)? {
        let unauthenticated = (401, "UNAUTHENTICATED")
        switch (level, caller) {
        case (.PUBLIC, _): return nil
        case (.NO_ACCESS, _), (.unmarked, _): return (403, "PERMISSION_DENIED")
        case (.USER_ANON, .noToken): return unauthenticated
        case (.USER_ANON, _): return nil
        case (.USER, .noToken), (.USER, .anonymous): return unauthenticated
        case (.USER, _): return nil
        case (.USER_EMAIL_VERIFIED, .emailVerified): return nil
        case (.USER_EMAIL_VERIFIED, _): return unauthenticated
        }
    }

    @Test(arguments: Caller.allCases, Level.allCases)
    func queryOutcomeFollowsTheTable(caller: Caller, level: Level) async throws {
        // given
        let emulator = try Backend.library.start()
        let client = EmulatorClient(emulator, connector: "kiosk")

        // when
        let result = try await client.query(level.query, token: caller.token)

        // then
        if let refusal = Self.expectedRefusal(caller, level) {
            expectRequestError(result, refusal.http, refusal.status)
        } else {
            #expect(expectData(result) == ["books": [["_count": 6]]])
        }
    }

    @Test(arguments: Caller.allCases, Level.allCases.filter { $0.mutation != nil })
    func mutationOutcomeFollowsTheTable(caller: Caller, level: Level) async throws {
        // given
        let emulator = try Backend.library.start()
        let client = EmulatorClient(emulator, connector: "kiosk")

        // when
        let result = try await client.mutation(try #require(level.mutation), token: caller.token)

        // then
        if let refusal = Self.expectedRefusal(caller, level) {
            expectRequestError(result, refusal.http, refusal.status)
        } else {
            #expect(expectData(result) == ["book_updateMany": 0])
        }
    }

    @Test func refusalsSayWhichLevelWasNotMet() async throws {
        // given
        let emulator = try Backend.library.start()
        let client = EmulatorClient(emulator, connector: "kiosk")

        // when
        let anonymousForUser = try await client.query("countUser", token: Caller.anonymous.token)
        let unverified = try await client.query("countVerified", token: Caller.signedIn.token)
        let unmarked = try await client.query("countUnmarked", token: Caller.emailVerified.token)

        // then
        expectRequestError(anonymousForUser, 401, "UNAUTHENTICATED", messageContains: ["anonymous", "USER"])
        expectRequestError(unverified, 401, "UNAUTHENTICATED", messageContains: ["verified", "USER_EMAIL_VERIFIED"])
        expectRequestError(unmarked, 403, "PERMISSION_DENIED", messageContains: ["countUnmarked", "@auth"])
    }

    @Test(arguments: [
        "garbage", "a.b", "a.b.c.d", "e30.e30.", "e30.W10.", "e30.eyJzdWIiOiIifQ.", "!!!.@@@.###",
        "eyJhbGciOiJub25lIn0.eyJlbWFpbCI6ImFAYi5jIn0.",
    ])
    func aTokenThatIsNotAJWTWithASubjectIsUnauthenticated(token: String) async throws {
        // given
        let emulator = try Backend.library.start()
        let client = EmulatorClient(emulator, connector: "kiosk")

        // when: even a PUBLIC operation
        let result = try await client.query("countPublic", token: token)

        // then
        expectRequestError(result, 401, "UNAUTHENTICATED", messageContains: ["X-Firebase-Auth-Token"])
    }

    @Test func tokensAreReadWithoutCheckingSignatureOrExpiry() async throws {
        // given: an expired token with a made-up signature, sent with a Bearer prefix
        let emulator = try Backend.library.start()
        let client = EmulatorClient(emulator, connector: "lending")
        let unsigned = TestEmulator.token(uid: "uid-ada")
        let parts = unsigned.split(separator: ".", omittingEmptySubsequences: false)
        let payload = try #require(parts.count == 3 ? parts[1] : nil)
        let expired: JSONValue = ["sub": "uid-ada", "exp": 1_000_000_000, "firebase": ["sign_in_provider": "password"]]
        let expiredToken = parts[0] + "." + base64URL(expired.serialized()) + ".c2lnbmF0dXJl"

        // when
        let signedLookalike = try await client.query("myCard", token: "\(parts[0]).\(payload).c2lnbmF0dXJl")
        let expiredResult = try await client.query("myCard", token: String(expiredToken))
        let bearer = try await client.query("myCard", token: "Bearer " + unsigned)

        // then
        for result in [signedLookalike, expiredResult, bearer] {
            #expect(expectData(result)["member"]?["name"] == "Ada Lovelace")
        }
    }

    @Test func anEmptyTokenHeaderCountsAsNoToken() async throws {
        // given
        let emulator = try Backend.library.start()
        let client = EmulatorClient(emulator, connector: "kiosk")

        // when
        let publicResult = try await client.query("countPublic", token: "")
        let userResult = try await client.query("countUser", token: "")

        // then
        #expect(expectData(publicResult) == ["books": [["_count": 6]]])
        expectRequestError(userResult, 401, "UNAUTHENTICATED")
    }

    @Test func authExpressionsSeeCustomClaims() async throws {
        // given
        let emulator = try Backend.library.start()
        let client = EmulatorClient(emulator, connector: "lending")
        let librarian = TestEmulator.unsignedToken(["sub": "uid-staff", "librarian": true])
        let volunteer = TestEmulator.unsignedToken(["sub": "uid-helper", "librarian": false])

        // when
        let allowed = try await client.mutation("purgeReturnedLoans", token: librarian)
        let denied = try await client.mutation("purgeReturnedLoans", token: volunteer)
        let anonymous = try await client.mutation("purgeReturnedLoans")

        // then
        #expect(expectData(allowed) == ["loan_deleteMany": 1])
        expectRequestError(denied, 403, "PERMISSION_DENIED")
        // An @auth(expr:) that reads auth with no caller refuses as a false one does (403), not as an unmet
        // @auth(level:) (401): server reference §5.2.
        expectRequestError(anonymous, 403, "PERMISSION_DENIED", messageContains: ["@auth(expr:)"])
    }
}

extension TestEmulator {
    /// An unsigned token with exactly these claims.
    static func unsignedToken(_ claims: JSONObject) -> String {
        let header: JSONValue = ["alg": "none", "typ": "JWT"]
        return base64URL(header.serialized()) + "." + base64URL(JSONValue.object(claims).serialized()) + "."
    }
}

/// Base64url without padding.
func base64URL(_ bytes: [UInt8]) -> String {
    Base64.url.encode(bytes)
}
