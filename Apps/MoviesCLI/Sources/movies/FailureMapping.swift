import FirebaseAuth
import FirebaseDataConnect
import Foundation
import MoviesCLICore
import MoviesModels

/// Maps the errors a command can throw to the ``MoviesFailure`` that says what to print and how to exit.
enum FailureMapping {
    /// The failure for an error thrown while running a command against `address`.
    static func failure(for error: any Error, address: EmulatorAddress) -> MoviesFailure {
        switch error {
        case let failure as MoviesFailure:
            return failure
        case let usage as UsageError:
            return .usage(usage)
        case is DataConnectConnectionError:
            return .emulatorUnreachable(address)
        case let server as DataConnectServerError:
            return failure(for: server, address: address)
        case let operation as DataConnectOperationError:
            let errors = operation.response?.errors ?? []
            let text =
                errors.isEmpty
                ? (operation.message ?? "operation failed") : errors.map(\.message).joined(separator: "; ")
            let codes = Set(errors.compactMap(\.code))
            if !codes.isDisjoint(with: ["UNAUTHENTICATED", "PERMISSION_DENIED"]) { return .permissionDenied(text) }
            if codes.contains("NOT_FOUND") { return .notFound(text) }
            return .operationFailed(text)
        case let dataConnect as any DataConnectError:
            return .operationFailed(dataConnect.message ?? dataConnect.description)
        case let auth as NSError where auth.domain == AuthErrors.domain:
            return failure(forAuth: auth, address: address)
        default:
            return .operationFailed(String(describing: error))
        }
    }

    /// Firebase Auth's errors (`FIRAuthErrorDomain`, ``AuthErrorCode`` values) as the CLI reports them.
    private static func failure(forAuth error: NSError, address: EmulatorAddress) -> MoviesFailure {
        switch AuthErrorCode(rawValue: error.code) {
        case .networkError?: return .emulatorUnreachable(address)
        case .wrongPassword?, .invalidCredential?: return .account(.wrongPassword)
        case .userNotFound?: return .account(.userNotFound)
        case .emailAlreadyInUse?: return .account(.emailAlreadyInUse)
        case .weakPassword?:
            let reason = error.userInfo[NSLocalizedFailureReasonErrorKey] as? String
            return .account(.weakPassword(reason ?? "use at least 6 characters"))
        case .invalidEmail?: return .account(.invalidEmail)
        case .userDisabled?: return .account(.userDisabled)
        case .tooManyRequests?: return .account(.tooManyRequests)
        case .userTokenExpired?, .invalidUserToken?, .nullUser?: return .notSignedIn
        default: return .account(.other(error.localizedDescription))
        }
    }

    private static func failure(for error: DataConnectServerError, address: EmulatorAddress) -> MoviesFailure {
        let text =
            error.details.isEmpty
            ? (error.message ?? "\(error.code)")
            : error.details.map(\.message)
                .joined(separator: "; ")
        switch error.code {
        case .unauthenticated, .permissionDenied:
            return .permissionDenied(text)
        case .notFound:
            return .notFound(text)
        default:
            return .operationFailed(text)
        }
    }
}
