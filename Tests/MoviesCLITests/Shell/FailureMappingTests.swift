import FirebaseAuth
import FirebaseDataConnect
import Foundation
import MoviesCLICore
import MoviesModels
import Testing

@testable import movies

/// How SDK errors become exit statuses, for the failures the emulator cannot easily be made to produce.
@Suite struct FailureMappingTests {
    let address = EmulatorAddress(host: "127.0.0.1", port: 9399)

    @Test func connectionFailuresMeanTheEmulatorIsUnreachable() {
        // given: what the SDK throws when nothing answers, or the request times out
        let refused = DataConnectConnectionError(
            code: .unavailable, message: "refused", underlyingError: TransportError.connection("refused", code: -1004))
        let timedOut = DataConnectConnectionError(
            code: .deadlineExceeded, message: "timed out",
            underlyingError: TransportError.connection("timed out", code: -1001))

        // when
        let failures = [refused, timedOut].map { FailureMapping.failure(for: $0, address: address) }

        // then
        #expect(failures == [.emulatorUnreachable(address), .emulatorUnreachable(address)])
        #expect(failures.allSatisfy { $0.exitStatus == .unreachable })
    }

    @Test func authFailuresMeanPermissionDenied() {
        // given
        let denied = DataConnectServerError(code: .permissionDenied, message: "denied", httpStatus: 403)
        let unauthenticated = DataConnectServerError(code: .unauthenticated, message: "no token", httpStatus: 401)
        let operation = DataConnectOperationError(
            response: OperationFailureResponse(
                rawJsonData: nil, errors: [.init(message: "not yours", code: "PERMISSION_DENIED")]))

        // when / then
        #expect(FailureMapping.failure(for: denied, address: address) == .permissionDenied("denied"))
        #expect(FailureMapping.failure(for: unauthenticated, address: address).exitStatus == .unauthorized)
        #expect(FailureMapping.failure(for: operation, address: address) == .permissionDenied("not yours"))
    }

    @Test func otherServerErrorsMeanTheOperationFailed() {
        // given
        let invalid = DataConnectServerError(code: .invalidArgument, message: "bad variables", httpStatus: 400)
        let operation = DataConnectOperationError(
            response: OperationFailureResponse(rawJsonData: nil, errors: [.init(message: "duplicate username")]))

        // when / then
        #expect(FailureMapping.failure(for: invalid, address: address) == .operationFailed("bad variables"))
        #expect(FailureMapping.failure(for: operation, address: address) == .operationFailed("duplicate username"))
        #expect(FailureMapping.failure(for: MoviesFailure.notSignedIn, address: address) == .notSignedIn)
    }

    @Test func authErrorsBecomeOneLineAccountFailures() {
        // given: Firebase Auth's errors, as NSErrors in FIRAuthErrorDomain
        func auth(_ code: AuthErrorCode, _ userInfo: [String: Any] = [:]) -> NSError {
            NSError(domain: AuthErrors.domain, code: code.rawValue, userInfo: userInfo)
        }
        let weak = auth(.weakPassword, [NSLocalizedFailureReasonErrorKey: "Password should be at least 6 characters"])

        // when
        let failures = [
            auth(.wrongPassword), auth(.invalidCredential), auth(.userNotFound), auth(.emailAlreadyInUse), weak,
            auth(.userDisabled), auth(.networkError),
        ].map { FailureMapping.failure(for: $0, address: address) }

        // then
        #expect(
            failures == [
                .account(.wrongPassword), .account(.wrongPassword), .account(.userNotFound),
                .account(.emailAlreadyInUse), .account(.weakPassword("Password should be at least 6 characters")),
                .account(.userDisabled), .emulatorUnreachable(address),
            ])
        #expect(
            failures.map(\.exitStatus) == [
                .unauthorized, .unauthorized, .unauthorized, .failure, .failure,
                .unauthorized, .unreachable,
            ])
        #expect(failures[0].line == "movies: error: wrong password")
        #expect(failures[5].line == "movies: error: this account is disabled")
    }
}
