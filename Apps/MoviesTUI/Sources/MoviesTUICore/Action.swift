import MoviesModels

/// Everything that can happen to the app: keys, the terminal, and results of effects and the feed.
public enum Action: Equatable, Sendable {
    /// A key was pressed.
    case key(Key)
    /// The terminal was resized (KEY_RESIZE).
    case resized(ScreenSize)
    /// SIGINT or SIGTERM arrived: quit.
    case interrupted
    /// The feed delivered the whole movie list.
    case moviesLoaded([MovieRow])
    /// The feed failed to refresh the list.
    case feedFailed(String)
    /// A ``Effect/loadDetail(movieID:)`` finished.
    case detailLoaded(MovieDetails)
    /// A ``Effect/loadDetail(movieID:)`` failed.
    case detailFailed(movieID: String, message: String)
    /// A review was saved.
    case reviewSaved(movieID: String)
    /// Saving a review failed.
    case reviewFailed(String)
    /// A favorite was added or removed.
    case favoriteChanged(movieID: String, isFavorite: Bool)
    /// Changing a favorite failed.
    case favoriteFailed(String)
    /// Signing in (or creating the account, or finding the user Firebase Auth kept) succeeded; with the user's
    /// favorite movie ids.
    case signedIn(Account, favorites: Set<String>)
    /// Signing in or creating the account failed; the text says why.
    case signInFailed(String)
}

/// Work the reducer asks the shell to do; results come back as ``Action``s.
public enum Effect: Equatable, Sendable {
    /// Fetch one movie's details (`getMovieById`); answers ``Action/detailLoaded(_:)`` or ``Action/detailFailed(movieID:message:)``.
    case loadDetail(movieID: String)
    /// Save the signed-in user's review (`addReview`); answers ``Action/reviewSaved(movieID:)`` or ``Action/reviewFailed(_:)``.
    case submitReview(movieID: String, rating: Int, text: String)
    /// Add or remove a favorite; answers ``Action/favoriteChanged(movieID:isFavorite:)`` or ``Action/favoriteFailed(_:)``.
    case setFavorite(movieID: String, isFavorite: Bool)
    /// Sign in to Firebase Auth with an email and password; answers ``Action/signedIn(_:favorites:)`` or
    /// ``Action/signInFailed(_:)``.
    case signIn(email: String, password: String)
    /// Create the Firebase Auth account, sign in and create the profile (`upsertUser`); answers
    /// ``Action/signedIn(_:favorites:)`` or ``Action/signInFailed(_:)``.
    case createAccount(email: String, password: String)
    /// Sign out of Firebase Auth; answers nothing.
    case signOut
    /// Re-fetch the list from the server now.
    case refresh
}
