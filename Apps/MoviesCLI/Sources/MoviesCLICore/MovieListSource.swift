import MoviesModels

/// Where `movies watch` gets successive snapshots of the movie list.
///
/// The app's default source is a realtime subscription (the query ref's `subscribe()`); ``PollingMovieListSource``
/// serves `movies watch --poll`, for servers that do not push.
public protocol MovieListSource: Sendable {
    /// The current list, then every later list, until the consumer stops iterating or an error ends it.
    ///
    /// - Returns: An independent sequence of snapshots.
    func snapshots() -> AsyncThrowingStream<[MovieRow], any Error>
}

/// A ``MovieListSource`` that fetches the list at a fixed interval.
///
/// ```swift
/// let source = PollingMovieListSource(interval: .seconds(1)) {
///     try await fetchMovies()
/// }
/// for try await movies in source.snapshots() { print(movies.count) }
/// ```
public struct PollingMovieListSource: MovieListSource {
    /// The pause between the end of one fetch and the start of the next.
    public let interval: Duration
    /// Fetches the current list.
    public let fetch: @Sendable () async throws -> [MovieRow]
    /// Waits for an interval; throws `CancellationError` when the task is cancelled meanwhile.
    public let pause: @Sendable (Duration) async throws -> Void

    /// Creates a polling source.
    ///
    /// - Parameters:
    ///   - interval: The pause between fetches.
    ///   - pause: Waits for the interval; `Task.sleep(for:)` by default, replaced by tests.
    ///   - fetch: Fetches the current list; an error ends the sequence with that error.
    public init(
        interval: Duration,
        pause: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        fetch: @escaping @Sendable () async throws -> [MovieRow]
    ) {
        self.interval = interval
        self.pause = pause
        self.fetch = fetch
    }

    /// Every fetched list, including unchanged ones, until cancelled or a fetch fails.
    public func snapshots() -> AsyncThrowingStream<[MovieRow], any Error> {
        let (stream, continuation) = AsyncThrowingStream<[MovieRow], any Error>.makeStream()
        let task = Task { [interval, pause, fetch] in
            do {
                while !Task.isCancelled {
                    continuation.yield(try await fetch())
                    try await pause(interval)
                }
                continuation.finish()
            } catch is CancellationError {
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}

/// What `movies watch` prints: the first list, then only the differences.
public enum WatchEvent: Equatable, Sendable {
    /// The list when watching started.
    case initial([MovieRow])
    /// What changed since the previous snapshot; never empty.
    case changes([MovieChange])
}

/// Turns a source's snapshots into ``WatchEvent``s: the first one whole, later ones as differences by id.
///
/// ```swift
/// try await MovieWatcher(source: source).run { event in print(event) }
/// ```
public struct MovieWatcher: Sendable {
    /// Where the snapshots come from.
    public let source: any MovieListSource

    /// Creates a watcher.
    ///
    /// - Parameter source: The snapshots.
    public init(source: any MovieListSource) {
        self.source = source
    }

    /// Consumes the source until it ends, calling `emit` with the first snapshot and each non-empty difference.
    ///
    /// - Parameter emit: Called for each event, in order.
    /// - Throws: The error that ended the source.
    public func run(emit: (WatchEvent) -> Void) async throws {
        var previous: [MovieRow]?
        for try await snapshot in source.snapshots() {
            guard let last = previous else {
                emit(.initial(snapshot))
                previous = snapshot
                continue
            }
            let changes = MovieChange.between(last, snapshot)
            if !changes.isEmpty { emit(.changes(changes)) }
            previous = snapshot
        }
    }
}
