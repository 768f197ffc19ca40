// An app and test suite written against the upstream-shaped ShelfSDK, the way the Data Connect documentation
// and the iOS SDK's integration tests use a generated connector. Run it with an emulator serving Backend/movies
// on 127.0.0.1:9399: `swift run --package-path Tests/UpstreamShaped ShelfApp`.

import FirebaseCore
import FirebaseDataConnect
import Foundation
import ShelfSDK

@MainActor
func runShelf() async throws {
    FirebaseConfiguration.shared.setLoggerLevel(.debug)
    FirebaseApp.configure()
    let connector = DataConnect.shelfConnector
    connector.useEmulator(port: 9399)

    // A mutation, and a mutation with an optional variable set in the trailing closure.
    let created = try await connector.createMovieMutation.execute(
        title: "Upstream Shaped", releaseYear: 2026, genre: "Test", rating: 3)
    let id = created.data.movie_insert.id
    _ = try await connector.updateMovieMutation.execute(id: id) { vars in
        vars.genre = "Documentary"
    }

    // Queries: one-shot, and a QueryRefObservableObject whose published members are read after execute.
    let movie = try await connector.getMovieByIdQuery.execute(id: id)
    print("genre: \(movie.data.movie?.genre ?? "none")")

    let listRef = connector.listMoviesQuery.ref()
    _ = try await listRef.execute()
    print("movies: \(listRef.data?.movies.count ?? 0), source: \(String(describing: listRef.source))")
    if let error = listRef.lastError { print("last error: \(error)") }

    // Optional variables only: `Variables.init(_ optionalVars:)`, `ref(_ optionalVars:)`, `execute(_ optionalVars:)`.
    let variables = SearchMoviesQuery.Variables { vars in
        vars.title = "Upstream"
    }
    let searchRef = connector.searchMoviesQuery.ref { vars in
        vars.title = variables.title
    }
    _ = try await searchRef.execute(fetchPolicy: .serverOnly)
    let found = try await connector.searchMoviesQuery.execute { vars in
        vars.title = "Upstream"
        vars.minYear = 2000
    }
    print("found: \(found.data.movies.map(\.title))")

    // Realtime, as the integration tests subscribe.
    let updates = try await searchRef.subscribe()
    for await update in updates {
        if case .success(let result) = update { print("subscribed: \(result.data?.movies.count ?? 0)") }
        break
    }
}

try await runShelf()
