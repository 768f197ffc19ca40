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
    let auth: EmulatorAuth
    let inbox: Inbox
    /// The observed `listMovies` ref the feed shares, re-executed for ``Effect/refresh``.
    let listRef: QueryRefObservation<ListMoviesQuery.Data, ListMoviesQuery.Variables>
    /// Keeps the shown movie's details live.
    let detailWatch = DetailWatch()

    /// Points the shared connector at the emulator, signed out.
    init(address: EmulatorAddress, inbox: Inbox) {
        connector = DataConnect.moviesConnector
        auth = EmulatorAuth()
        connector.useEmulator(host: address.host, port: address.port)
        connector.setAuthTokenProvider(auth)
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
        case .signIn(let uid):
            do {
                auth.signIn(uid: uid)
                _ = try await connector.upsertUserMutation.execute(username: uid)
                let user = try await connector.getCurrentUserQuery.execute(fetchPolicy: .serverOnly).data?.user
                let favorites = Set((user?.favorites ?? []).map { MovieID.format($0.movie.id) })
                return .signedIn(uid: uid, favorites: favorites)
            } catch {
                auth.signOut()
                return .signInFailed(Self.describe(error))
            }
        case .signOut:
            auth.signOut()
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

/// An error that is just its message.
struct DescribedError: Error, CustomStringConvertible {
    var description: String
}
