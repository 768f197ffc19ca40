import DataConnectEngine
import Testing

/// The callers of the outcome table.
enum AuthTableCaller: String, CaseIterable, Sendable {
    case noToken, anonymous, signedIn, emailVerified

    var auth: AuthContext? {
        switch self {
        case .noToken: return nil
        case .anonymous: return AuthContext(claims: ["sub": "a", "firebase": ["sign_in_provider": "anonymous"]])
        case .signedIn: return AuthContext(claims: ["sub": "u", "firebase": ["sign_in_provider": "password"]])
        case .emailVerified: return AuthContext(claims: ["sub": "v", "email_verified": true])
        }
    }
}

/// The expected outcome kind.
enum AuthTableOutcome: Sendable {
    case ok, unauthenticated, permissionDenied
}

@Suite struct AccessLevelTests {
    /// The reference's outcome table, row by row.
    static let table: [(AuthTableCaller, AccessLevel, AuthTableOutcome)] = [
        (.noToken, .PUBLIC, .ok), (.noToken, .USER_ANON, .unauthenticated), (.noToken, .USER, .unauthenticated),
        (.noToken, .USER_EMAIL_VERIFIED, .unauthenticated), (.noToken, .NO_ACCESS, .permissionDenied),
        (.anonymous, .PUBLIC, .ok), (.anonymous, .USER_ANON, .ok), (.anonymous, .USER, .unauthenticated),
        (.anonymous, .USER_EMAIL_VERIFIED, .unauthenticated), (.anonymous, .NO_ACCESS, .permissionDenied),
        (.signedIn, .PUBLIC, .ok), (.signedIn, .USER_ANON, .ok), (.signedIn, .USER, .ok),
        (.signedIn, .USER_EMAIL_VERIFIED, .unauthenticated), (.signedIn, .NO_ACCESS, .permissionDenied),
        (.emailVerified, .PUBLIC, .ok), (.emailVerified, .USER_ANON, .ok), (.emailVerified, .USER, .ok),
        (.emailVerified, .USER_EMAIL_VERIFIED, .ok), (.emailVerified, .NO_ACCESS, .permissionDenied),
    ]

    @Test(arguments: table)
    func followsTheOutcomeTable(caller: AuthTableCaller, level: AccessLevel, expected: AuthTableOutcome) {
        // given / when
        let outcome = authorize(level: level, auth: caller.auth)

        // then
        switch (outcome, expected) {
        case (.allowed, .ok), (.unauthenticated, .unauthenticated), (.permissionDenied, .permissionDenied):
            break
        default:
            Issue.record("\(caller) at \(level): expected \(expected), got \(outcome)")
        }
    }

    @Test func theTableCoversEveryCallerAndLevel() {
        #expect(Self.table.count == AuthTableCaller.allCases.count * AccessLevel.allCases.count)
    }

    @Test func anUnauthenticatedContextCountsAsNoToken() {
        #expect(authorize(level: .USER_ANON, auth: .unauthenticated) == authorize(level: .USER_ANON, auth: nil))
    }

    @Test func messagesNameTheDirective() {
        #expect(
            authorize(level: .USER, auth: nil)
                == .unauthenticated("operation requires a signed-in user (@auth(level: USER))"))
        #expect(
            authorize(level: .USER, auth: AuthTableCaller.anonymous.auth)
                == .unauthenticated("operation requires a signed-in user, not an anonymous one (@auth(level: USER))"))
        #expect(
            authorize(level: .NO_ACCESS, auth: AuthTableCaller.emailVerified.auth)
                == .permissionDenied("operation is not accessible to clients (@auth(level: NO_ACCESS))"))
        guard
            case .unauthenticated(let message) = authorize(
                level: .USER_EMAIL_VERIFIED, auth: AuthTableCaller.signedIn.auth)
        else {
            Issue.record("expected UNAUTHENTICATED")
            return
        }
        #expect(message.hasSuffix("(@auth(level: USER_EMAIL_VERIFIED))"))
    }

    @Test func levelsParseFromTheirSchemaSpelling() {
        #expect(AccessLevel(rawValue: "USER_EMAIL_VERIFIED") == .USER_EMAIL_VERIFIED)
        #expect(AccessLevel(rawValue: "user") == nil)
        #expect(AuthOutcome.allowed.isAllowed)
    }
}
