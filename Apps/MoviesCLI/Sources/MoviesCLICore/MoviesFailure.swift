import MoviesModels

/// The exit statuses of `movies`, as documented in `movies --help`.
public enum ExitStatus: Int32, CaseIterable, Sendable {
    /// The command succeeded.
    case success = 0
    /// The operation failed, or what it needed was not found.
    case failure = 1
    /// The command line was wrong.
    case usage = 2
    /// The emulator could not be reached.
    case unreachable = 3
    /// Nobody is signed in, or the signed-in user may not do this.
    case unauthorized = 4
}

/// Why a `movies` command failed, with its one-line message and exit status.
///
/// The executable maps SDK errors to these; each prints as `movies: error: <message>` on standard error.
///
/// ```swift
/// let failure = MoviesFailure.notFound("no movie with id 252ff53a-…")
/// failure.exitStatus   // .failure
/// failure.line         // "movies: error: no movie with id 252ff53a-…"
/// ```
public enum MoviesFailure: Error, Equatable, Sendable {
    /// The command line was wrong.
    case usage(UsageError)
    /// Something the command needs does not exist.
    case notFound(String)
    /// The operation failed for another reason; the text says why.
    case operationFailed(String)
    /// Nothing answered at this address.
    case emulatorUnreachable(EmulatorAddress)
    /// The command needs a signed-in user and there is none.
    case notSignedIn
    /// The service refused the signed-in (or anonymous) user; the text is the server's reason.
    case permissionDenied(String)
    /// Firebase Auth refused to sign up or sign in.
    case account(AccountFailure)

    /// The process exit status for this failure.
    public var exitStatus: ExitStatus {
        switch self {
        case .usage: .usage
        case .notFound, .operationFailed: .failure
        case .emulatorUnreachable: .unreachable
        case .notSignedIn, .permissionDenied: .unauthorized
        case .account(let failure): failure.exitStatus
        }
    }

    /// The message, without the `movies: error:` prefix.
    public var message: String {
        switch self {
        case .usage(let error): error.description
        case .notFound(let text), .operationFailed(let text): text
        case .emulatorUnreachable(let address):
            "emulator unreachable at \(address); start it with `dataconnect emulator --backend Backend/movies` "
                + "or pass --emulator HOST:PORT"
        case .notSignedIn: "not signed in; run `movies login --email E --password-stdin` (or `movies signup`) first"
        case .permissionDenied(let text): "permission denied: \(text)"
        case .account(let failure): failure.message
        }
    }

    /// The single line printed on standard error: `movies: error: <message>`, with line breaks flattened.
    public var line: String {
        "movies: error: " + message.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}

/// Why Firebase Auth refused `movies signup` or `movies login` (the shell maps `AuthErrorCode`s to these).
public enum AccountFailure: Equatable, Sendable {
    /// The password does not match the account (`wrongPassword`, `invalidCredential`).
    case wrongPassword
    /// No account has this email (`userNotFound`).
    case userNotFound
    /// `signup` with an email an account has already (`emailAlreadyInUse`).
    case emailAlreadyInUse
    /// The server refused the new password, with its reason (`weakPassword`).
    case weakPassword(String)
    /// The email is not an address the server accepts (`invalidEmail`).
    case invalidEmail
    /// An admin disabled the account (`userDisabled`).
    case userDisabled
    /// Too many attempts (`tooManyRequests`).
    case tooManyRequests
    /// The sign-in ended for another reason; the text is Auth's.
    case other(String)

    /// Refusals of the credentials exit 4, like a missing sign-in; a taken email or a bad password exit 1.
    public var exitStatus: ExitStatus {
        switch self {
        case .wrongPassword, .userNotFound, .userDisabled: .unauthorized
        case .emailAlreadyInUse, .weakPassword, .invalidEmail, .tooManyRequests, .other: .failure
        }
    }

    /// The message, without the `movies: error:` prefix.
    public var message: String {
        switch self {
        case .wrongPassword: "wrong password"
        case .userNotFound: "no account with this email; create one with `movies signup`"
        case .emailAlreadyInUse: "an account with this email exists already; sign in with `movies login`"
        case .weakPassword(let reason): "password too weak: \(reason)"
        case .invalidEmail: "the email address is not valid"
        case .userDisabled: "this account is disabled"
        case .tooManyRequests: "too many attempts; try again later"
        case .other(let text): text
        }
    }
}
