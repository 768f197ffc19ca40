import MoviesCLICore
import MoviesModels
import Synchronization
import Testing

@Suite struct MovieListingTests {
    let rows = [
        MovieRow(id: "1", title: "alien", genre: "Sci-Fi", releaseYear: 1979, rating: 5),
        MovieRow(id: "2", title: "Heat", genre: "Crime", releaseYear: 1995, rating: 4),
        MovieRow(id: "3", title: "Blade Runner", genre: "sci-fi", releaseYear: 1982, rating: nil),
        MovieRow(id: "4", title: "Up", genre: "Animation", releaseYear: nil, rating: 4),
    ]

    private func ids(_ options: ListOptions) -> [String] {
        MovieListing.apply(options, to: rows).map(\.id)
    }

    @Test func ordersByTitleIgnoringCaseByDefault() {
        #expect(ids(ListOptions()) == ["1", "3", "2", "4"])
        #expect(ids(ListOptions(descending: true)) == ["4", "2", "3", "1"])
    }

    @Test func filtersByGenreIgnoringCase() {
        #expect(ids(ListOptions(genre: "SCI-FI")) == ["1", "3"])
        #expect(ids(ListOptions(genre: "Western")).isEmpty)
    }

    @Test func ordersByYearOrRatingWithMissingValuesLast() {
        #expect(ids(ListOptions(sort: .year)) == ["1", "3", "2", "4"])
        #expect(ids(ListOptions(sort: .year, descending: true)) == ["2", "3", "1", "4"])
        #expect(ids(ListOptions(sort: .rating)) == ["2", "4", "1", "3"], "ties by title")
        #expect(ids(ListOptions(sort: .rating, descending: true)) == ["1", "2", "4", "3"])
    }

    @Test func limitsAndPages() {
        #expect(ids(ListOptions(limit: 2)) == ["1", "3"])
        #expect(ids(ListOptions(limit: 2, page: 2)) == ["2", "4"])
        #expect(ids(ListOptions(limit: 3, page: 2)) == ["4"])
        #expect(ids(ListOptions(limit: 2, page: 3)).isEmpty)
        #expect(ids(ListOptions(page: 1)) == ["1", "3", "2", "4"], "20 per page without a limit")
    }
}

@Suite struct MovieChangeTests {
    let alien = MovieRow(id: "1", title: "Alien", rating: 5)
    let heat = MovieRow(id: "2", title: "Heat", rating: 4)

    @Test func reportsAddedRemovedAndChangedRowsByID() {
        // given
        var rerated = alien
        rerated.rating = 4
        let up = MovieRow(id: "3", title: "Up")

        // when
        let changes = MovieChange.between([alien, heat], [rerated, up])

        // then
        #expect(changes == [.removed(heat), .changed(old: alien, new: rerated), .added(up)])
    }

    @Test func reportsNothingForEqualSnapshotsInAnotherOrder() {
        #expect(MovieChange.between([alien, heat], [heat, alien]).isEmpty)
    }
}

/// A source that yields fixed snapshots, as a subscription would.
private struct FixedSource: MovieListSource {
    let lists: [[MovieRow]]

    func snapshots() -> AsyncThrowingStream<[MovieRow], any Error> {
        AsyncThrowingStream { continuation in
            for list in lists { continuation.yield(list) }
            continuation.finish()
        }
    }
}

@Suite struct MovieWatcherTests {
    let alien = MovieRow(id: "1", title: "Alien", rating: 5)
    let heat = MovieRow(id: "2", title: "Heat", rating: 4)

    @Test func emitsTheFirstListThenOnlyDifferences() async throws {
        // given
        let source = FixedSource(lists: [[alien], [alien], [alien, heat], [heat]])
        var events: [WatchEvent] = []

        // when
        try await MovieWatcher(source: source).run { events.append($0) }

        // then
        #expect(events == [.initial([alien]), .changes([.added(heat)]), .changes([.removed(alien)])])
    }

    @Test func pollingFetchesRepeatedlyAndEndsWithTheFetchError() async throws {
        // given: a fetch that returns two lists, then fails
        struct Offline: Error {}
        let calls = Counter()
        let source = PollingMovieListSource(interval: .milliseconds(1)) { [alien, heat] in
            switch calls.next() {
            case 0: return [alien]
            case 1: return [alien, heat]
            default: throw Offline()
            }
        }
        var events: [WatchEvent] = []

        // when
        await #expect(throws: Offline.self) {
            try await MovieWatcher(source: source).run { events.append($0) }
        }

        // then
        #expect(events == [.initial([alien]), .changes([.added(heat)])])
    }

    @Test func pollingStopsWhenTheConsumerStops() async throws {
        // given: a source whose first pause ends at once and whose second lasts until its task is cancelled
        let calls = Counter()
        let pauses = Counter()
        let (cancellations, cancelled) = AsyncStream<Void>.makeStream()
        let source = PollingMovieListSource(
            interval: .seconds(1),
            pause: { _ in
                guard pauses.next() > 0 else { return }
                let (forever, end) = AsyncStream<Void>.makeStream()
                await withTaskCancellationHandler {
                    for await _ in forever {}
                } onCancel: {
                    end.finish()
                }
                cancelled.yield()
                throw CancellationError()
            },
            fetch: { [alien] in
                _ = calls.next()
                return [alien]
            })

        // when: read two snapshots, then stop
        var received = 0
        for try await _ in source.snapshots() {
            received += 1
            if received == 2 { break }
        }
        var stops = cancellations.makeAsyncIterator()
        let stopped: Void? = await stops.next()

        // then: the pause after the second fetch was cancelled, and nothing was fetched after it
        #expect(stopped != nil)
        #expect(calls.value == 2, "no polling after the consumer left")
    }
}

/// A thread-safe call counter.
private final class Counter: Sendable {
    private let state = Mutex(0)

    func next() -> Int {
        state.withLock { value in
            defer { value += 1 }
            return value
        }
    }

    var value: Int { state.withLock { $0 } }
}
