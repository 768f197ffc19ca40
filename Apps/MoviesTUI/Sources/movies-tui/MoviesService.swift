import FirebaseAuth
import FirebaseCore
import FirebaseDataConnect
import FirebaseDataConnectGenerated
import Foundation
import MoviesAppModels
import MoviesModels
import MoviesTUICore
import Synchronization

/// The subscription that keeps the open detail pane live; one at a time.
final class DetailWatch: Sendable {
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// Replaces the running watch.
    func replace(with next: Task<Void, Never>?) {
        task.withLock { current in
            current?.cancel()
            current = next
        }
    }
}

/// Runs ``Effect``s against the generated movies SDK and posts their results to the ``Inbox``.
struct MoviesService: Sendable {
    let connector: MoviesConnector
    /// The default app's Firebase Auth; the connector sends its signed-in user's token by itself.
    let auth: Auth
    let inbox: Inbox
    /// The observed `listMovies` ref the feed shares, re-executed for ``Effect/refresh``.
    let listRef: QueryRefObservation<ListMoviesQuery.Data, ListMoviesQuery.Variables>
    /// Keeps the shown movie's details live.
    let detailWatch = DetailWatch()

    /// Points Firebase Auth (kept in `signInDirectory`, else its automatic place) and the shared connector at the
    /// emulator.
    ///
    /// Auth is created first: the connector asks for the app's `Auth` at its first request, and the persistence
    /// is only taken by the call that creates the instance.
    init(address: EmulatorAddress, signInDirectory: String?, inbox: Inbox) {
        FirebaseApp.configure()
        guard let app = FirebaseApp.app() else { preconditionFailure("FirebaseApp.configure() registers the app") }
        let persistence: AuthPersistence =
            signInDirectory.map { .directory(URL(fileURLWithPath: $0, isDirectory: true)) }
            ?? .automatic(program: "movies")
        auth = Auth.auth(app: app, persistence: persistence)
        auth.useEmulator(withHost: address.host, port: address.port)
        connector = DataConnect.moviesConnector
        connector.useEmulator(host: address.host, port: address.port)
        listRef = connector.listMoviesQuery.ref()
        self.inbox = inbox
    }

    /// Starts running `effect` in the background.
    func run(_ effect: Effect) {
        Task.detached { [self] in
            if let action = await perform(effect) { inbox.post(action) }
        }
    }

    /// Runs `effect` and returns the action reporting its result, if any.
    func perform(_ effect: Effect) async -> Action? {
        switch effect {
        case .loadDetail(let movieID):
            do {
                let loaded = try await details(id: movieID)
                watchDetail(movieID)
                return .detailLoaded(loaded)
            } catch {
                return .detailFailed(movieID: movieID, message: Self.describe(error))
            }
        case .submitReview(let movieID, let rating, let text):
            do {
                guard let id = MovieID.parse(movieID) else { return .reviewFailed("bad movie id") }
                _ = try await connector.addReviewMutation.execute(movieId: id, rating: rating, text: text)
                return .reviewSaved(movieID: movieID)
            } catch {
                return .reviewFailed(Self.describe(error))
            }
        case .setFavorite(let movieID, let isFavorite):
            do {
                guard let id = MovieID.parse(movieID) else { return .favoriteFailed("bad movie id") }
                if isFavorite {
                    _ = try await connector.addFavoritedMovieMutation.execute(movieId: id)
                } else {
                    _ = try await connector.deleteFavoritedMovieMutation.execute(movieId: id)
                }
                return .favoriteChanged(movieID: movieID, isFavorite: isFavorite)
            } catch {
                return .favoriteFailed(Self.describe(error))
            }
        case .signIn(let email, let password):
            do {
                let user = try await auth.signIn(withEmail: email, password: password).user
                return .signedIn(Self.account(user), favorites: try await favorites())
            } catch {
                return .signInFailed(Self.describe(error))
            }
        case .createAccount(let email, let password):
            do {
                let user = try await auth.createUser(withEmail: email, password: password).user
                _ = try await connector.upsertUserMutation.execute(username: Self.username(email: email, uid: user.uid))
                return .signedIn(Self.account(user), favorites: [])
            } catch {
                return .signInFailed(Self.describe(error))
            }
        case .signOut:
            try? auth.signOut()
            return nil
        case .refresh:
            do {
                _ = try await listRef.execute(fetchPolicy: .serverOnly)
                return nil
            } catch {
                return .feedFailed(Self.describe(error))
            }
        }
    }

    /// The user Firebase Auth kept from an earlier run (of this app or `movies login`), with their favorites;
    /// `nil` when nobody is signed in.
    func restoreSignIn() async -> Action? {
        guard let user = auth.currentUser else { return nil }
        do {
            return .signedIn(Self.account(user), favorites: try await favorites())
        } catch {
            return .signInFailed(Self.describe(error))
        }
    }

    /// The signed-in user's favorite movie ids (`getCurrentUser`).
    private func favorites() async throws -> Set<String> {
        let user = try await connector.getCurrentUserQuery.execute(fetchPolicy: .serverOnly).data?.user
        return Set((user?.favorites ?? []).map { MovieID.format($0.movie.id) })
    }

    private static func account(_ user: User) -> Account {
        Account(uid: user.uid, email: user.email, displayName: user.displayName)
    }

    /// A new account's public username: the email's local part and the uid's first characters, e.g. `ada-vOVM`,
    /// unique enough for the `username` column's `@unique`.
    static func username(email: String, uid: String) -> String {
        let local = email.split(separator: "@").first.map(String.init) ?? "user"
        return String(local.prefix(40)) + "-" + String(uid.prefix(4))
    }

    /// Subscribes to the shown movie's details, so reviews or edits made by other processes appear in the pane;
    /// the previous movie's subscription ends. Results for a movie no longer shown are ignored by the reducer.
    private func watchDetail(_ movieID: String) {
        guard let id = MovieID.parse(movieID) else { return }
        let ref = connector.getMovieByIdQuery.ref(id: id)
        let inbox = inbox
        detailWatch.replace(
            with: Task.detached {
                guard let updates = try? await ref.subscribe() else { return }
                var first = true
                for await update in updates {
                    // The first result repeats what was just loaded.
                    defer { first = false }
                    guard !first, case .success(let result) = update, let movie = result.data?.movie else { continue }
                    inbox.post(.detailLoaded(MovieDetails(movie)))
                }
            })
    }

    /// One movie's details (`getMovieById`), mapped to the CLI's ``MovieDetails`` model.
    private func details(id text: String) async throws -> MovieDetails {
        guard let id = MovieID.parse(text) else { throw DescribedError(description: "bad movie id \(text)") }
        guard let movie = try await connector.getMovieByIdQuery.execute(fetchPolicy: .serverOnly, id: id).data?.movie
        else { throw DescribedError(description: "the movie no longer exists") }
        return MovieDetails(movie)
    }

    /// A one-line description of an SDK error for the status bar.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let operation as DataConnectOperationError:
            let errors = operation.response?.errors ?? []
            return errors.isEmpty
                ? (operation.message ?? "operation failed") : errors.map(\.message).joined(separator: "; ")
        case is DataConnectConnectionError:
            return "emulator unreachable"
        case let auth as NSError where auth.domain == AuthErrors.domain:
            return describe(authError: auth)
        case let server as DataConnectServerError:
            return server.details.isEmpty
                ? (server.message ?? "\(server.code)") : server.details.map(\.message).joined(separator: "; ")
        case let dataConnect as any DataConnectError:
            return dataConnect.message ?? dataConnect.description
        default:
            return String(describing: error)
        }
    }
}

extension MoviesService {
    /// Firebase Auth's refusals, in the sign-in screen's words.
    static func describe(authError error: NSError) -> String {
        switch AuthErrorCode(rawValue: error.code) {
        case .wrongPassword?, .invalidCredential?: return "Wrong password."
        case .userNotFound?: return "No account with this email; choose Create account."
        case .emailAlreadyInUse?: return "An account with this email exists; choose Sign in."
        case .weakPassword?:
            return "Password too weak: \(error.userInfo[NSLocalizedFailureReasonErrorKey] as? String ?? "too short")."
        case .invalidEmail?: return "The email address is not valid."
        case .userDisabled?: return "This account is disabled."
        case .networkError?: return "emulator unreachable"
        case .tooManyRequests?: return "Too many attempts; try again later."
        default: return error.localizedDescription
        }
    }
}

/// An error that is just its message.
struct DescribedError: Error, CustomStringConvertible {
    var description: String
}
