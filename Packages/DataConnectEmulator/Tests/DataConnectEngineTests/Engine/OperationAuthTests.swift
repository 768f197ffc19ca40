import DataConnectWire
import EmulatorTesting
import Testing

@testable import DataConnectEngine

/// `@auth(level:)` and `@auth(expr:)` on connector calls (server reference §4.2).
@Suite(.onBothDatabases) struct OperationAuthTests {
    enum Caller: String, CaseIterable, Sendable {
        case noToken, anonymous, signedIn, emailVerified

        var auth: AuthContext? {
            switch self {
            case .noToken: nil
            case .anonymous: EngineFixtures.anonymous
            case .signedIn: EngineFixtures.bob
            case .emailVerified: EngineFixtures.alice
            }
        }
    }

    static let operations = """
        query LevelPUBLIC @auth(level: PUBLIC) { people(orderBy: [{name: ASC}], limit: 1) { name } }
        query LevelUSER_ANON @auth(level: USER_ANON) { people(orderBy: [{name: ASC}], limit: 1) { name } }
        query LevelUSER @auth(level: USER) { people(orderBy: [{name: ASC}], limit: 1) { name } }
        query LevelUSER_EMAIL_VERIFIED @auth(level: USER_EMAIL_VERIFIED) { people(orderBy: [{name: ASC}], limit: 1) { name } }
        query LevelNO_ACCESS @auth(level: NO_ACCESS) { people(orderBy: [{name: ASC}], limit: 1) { name } }
        query Unmarked { people(orderBy: [{name: ASC}], limit: 1) { name } }
        mutation AdminRename @auth(expr: "auth.token.admin == true") {
          person_update(id: "d0000000000000000000000000000003", data: {name: "Agnès Varda"})
        }
        """

    /// The outcome table: `nil` means the call runs.
    static let table: [(Caller, AccessLevel, StatusCode?)] = [
        (.noToken, .PUBLIC, nil), (.noToken, .USER_ANON, .unauthenticated), (.noToken, .USER, .unauthenticated),
        (.noToken, .USER_EMAIL_VERIFIED, .unauthenticated), (.noToken, .NO_ACCESS, .permissionDenied),
        (.anonymous, .PUBLIC, nil), (.anonymous, .USER_ANON, nil), (.anonymous, .USER, .unauthenticated),
        (.anonymous, .USER_EMAIL_VERIFIED, .unauthenticated), (.anonymous, .NO_ACCESS, .permissionDenied),
        (.signedIn, .PUBLIC, nil), (.signedIn, .USER_ANON, nil), (.signedIn, .USER, nil),
        (.signedIn, .USER_EMAIL_VERIFIED, .unauthenticated), (.signedIn, .NO_ACCESS, .permissionDenied),
        (.emailVerified, .PUBLIC, nil), (.emailVerified, .USER_ANON, nil), (.emailVerified, .USER, nil),
        (.emailVerified, .USER_EMAIL_VERIFIED, nil), (.emailVerified, .NO_ACCESS, .permissionDenied),
    ]

    @Test(arguments: table)
    func enforcesTheLevelTable(caller: Caller, level: AccessLevel, failure: StatusCode?) throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("Level\(level.rawValue)", auth: caller.auth)

        // then
        if let failure {
            #expect(result.status == failure)
            #expect(result.body["error"]?["status"]?.stringValue == failure.name)
            #expect(result.sql.isEmpty)
        } else {
            #expect(result.status == .ok)
            expectGoldenSQL(result)
            #expect(result.data == json(#"{"people": [{"name": "Gerwig"}]}"#))
        }
    }

    @Test func deniesOperationsWithoutAuthToConnectorCallsButNotToAdmins() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let client = backend.query("Unmarked", auth: EngineFixtures.alice)
        let admin = backend.admin("query Unmarked { people(orderBy: [{name: ASC}], limit: 1) { name } }")

        // then
        #expect(client.status == .permissionDenied)
        #expect(admin.status == .ok)
        #expect(admin.data == json(#"{"people": [{"name": "Gerwig"}]}"#))
    }

    @Test func evaluatesAnAuthExpression() throws {
        // given
        let backend = try TestBackend(Self.operations)
        let admin = AuthContext(claims: ["sub": "root", "admin": true])

        // when
        let denied = backend.mutation("AdminRename", auth: EngineFixtures.alice)
        let signedOut = backend.mutation("AdminRename", auth: nil)
        let allowed = backend.mutation("AdminRename", auth: admin)

        // then
        expectGoldenSQL(allowed)
        #expect(denied.status == .permissionDenied)
        #expect(signedOut.status == .permissionDenied)
        #expect(signedOut.sql.isEmpty)
        #expect(denied.sql.isEmpty)
        #expect(allowed.status == .ok)
        #expect(allowed.data == json(#"{"person_update": {"id": "d0000000000000000000000000000003"}}"#))
    }
}
