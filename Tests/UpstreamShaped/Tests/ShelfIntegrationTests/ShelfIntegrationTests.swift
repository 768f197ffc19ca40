import FirebaseCore
import FirebaseDataConnect
import Foundation
import ShelfSDK
import Testing

/// Code shaped like Google's generated Swift (`ShelfSDK`), used the way apps and the iOS SDK's integration tests
/// use a generated connector, against a live emulator configured through `POST /emulator/configure`.
///
/// Every test runs on the main actor, as upstream's `execute` is `@MainActor`. Waits on subscriptions are bounded by
/// the suite's time limit (a hang guard), never by a timed expectation.
@MainActor @Suite(.serialized, .timeLimit(.minutes(3))) struct ShelfIntegrationTests {
    let connector: ShelfConnector

    init() async throws {
        let port = try await LiveEmulator.port.value
        FirebaseConfiguration.shared.setLoggerLevel(.warning)
        connector = DataConnect.shelfConnector
        connector.useEmulator(port: port)
    }

    /// A title no other test uses.
    static func uniqueTitle(_ label: String) -> String { "\(label) \(UUID().uuidString.prefix(8))" }

    @Test func mutationsWithRequiredAndOptionalVariables() async throws {
        // given
        let title = Self.uniqueTitle("Shaped")
        let created = try await connector.createMovieMutation.execute(
            title: title, releaseYear: 2026, genre: "Test", rating: 3)
        let id = created.data.movie_insert.id

        // when: an optional variable is set in the trailing closure, as upstream's generated API takes it
        _ = try await connector.updateMovieMutation.execute(id: id) { vars in
            vars.genre = "Documentary"
        }

        // then
        let movie = try await connector.getMovieByIdQuery.execute(id: id)
        #expect(movie.data.movie?.title == title)
        #expect(movie.data.movie?.genre == "Documentary")
    }

    @Test func observableObjectRefPublishesDataSourceAndError() async throws {
        // given
        let title = Self.uniqueTitle("Listed")
        _ = try await connector.createMovieMutation.execute(title: title, releaseYear: 2001, genre: "Test", rating: 4)

        // when
        let ref = connector.listMoviesQuery.ref()
        let result = try await ref.execute()

        // then: the members upstream's ObservableObject publishes are set
        #expect(result.data.movies.contains { $0.title == title })
        #expect(ref.data?.movies.contains { $0.title == title } == true)
        #expect(ref.source == .server)
        #expect(ref.lastError == nil)
        #expect(connector.listMoviesQuery.ref() === ref, "one ref per operation and variables")
    }

    @Test func optionalVariablesOnlyThroughTheClosureInitializer() async throws {
        // given
        let title = Self.uniqueTitle("Closure")
        _ = try await connector.createMovieMutation.execute(title: title, releaseYear: 2010, genre: "Test", rating: 5)
        let variables = SearchMoviesQuery.Variables { vars in
            vars.title = title
        }
        #expect(variables == SearchMoviesQuery.Variables { $0.title = title })
        #expect(variables != SearchMoviesQuery.Variables())

        // when
        let found = try await connector.searchMoviesQuery.execute { vars in
            vars.title = title
            vars.minYear = 2000
        }
        let none = try await connector.searchMoviesQuery.execute { vars in
            vars.title = title
            vars.minYear = 2020
        }

        // then
        #expect(found.data.movies.map(\.title) == [title])
        #expect(none.data.movies.isEmpty)
    }

    @Test func aSubscriptionDeliversTheCurrentResultThenAnotherClientsMutation() async throws {
        // given: a subscription to a search nothing matches yet
        let title = Self.uniqueTitle("Pushed")
        let ref = connector.searchMoviesQuery.ref { vars in
            vars.title = title
        }
        let updates = try await ref.subscribe()
        var iterator = updates.makeAsyncIterator()
        let first = try #require(await iterator.next()).get()
        #expect(first.data?.movies.isEmpty == true)

        // when: a mutation from this client adds a matching movie
        _ = try await connector.createMovieMutation.execute(title: title, releaseYear: 1999, genre: "Test", rating: 2)

        // then: the subscriber sees it pushed, and the ref's published data follows
        let second = try #require(await iterator.next()).get()
        #expect(second.data?.movies.map(\.title) == [title])
        #expect(ref.data?.movies.map(\.title) == [title])
    }

    @Test func theLoggerLevelIsFirebaseCoresSwitch() {
        // when
        FirebaseConfiguration.shared.setLoggerLevel(.debug)
        defer { FirebaseConfiguration.shared.setLoggerLevel(.warning) }
        // then
        #expect(FirebaseConfiguration.shared.loggerLevel == .debug)
        #expect(FirebaseLoggerLevel.min == .error && FirebaseLoggerLevel.max == .debug)
    }

    @Test func configuringAgainKeepsServing() async throws {
        // when: the suite configures the same folder again, as a second test class's set-up would
        try await LiveEmulator.configure(port: try await LiveEmulator.port.value)
        // then
        let title = Self.uniqueTitle("Again")
        let created = try await connector.createMovieMutation.execute(
            title: title, releaseYear: 2002, genre: "Test", rating: 1)
        #expect(
            try await connector.getMovieByIdQuery.execute(id: created.data.movie_insert.id).data.movie?.title == title)
    }
}
