import MoviesModels

/// What a ``MovieFeed`` delivers.
public enum MovieFeedEvent: Equatable, Sendable {
    /// The whole current list.
    case movies([MovieRow])
    /// A refresh failed; the feed keeps going.
    case failed(String)
}

/// Where `movies-tui` gets the live movie list: the seam between the app and how changes are noticed.
///
/// The shell's implementation (`SubscribedMovieFeed`) holds a realtime subscription to the `listMovies` query
/// ref (the emulator pushes a new result when any process changes the list) and reads the ref's `results`
/// stream, which also carries the client cache's republications after this process's own mutations. Another
/// source (polling, a test double) only has to yield the same events; the reducer, layout and loop do not
/// change.
public protocol MovieFeed: Sendable {
    /// The list now, then after every change, until the consumer stops iterating.
    ///
    /// - Returns: An independent sequence of events.
    func events() -> AsyncStream<MovieFeedEvent>
}
