// {{app}}: lists the Sci-Fi movies, adds one with its lead actor, and lists them again, through the
// generated {{package}} SDK.
//
// Run it with `make run`, which starts the emulator with the seed data first. On its own it talks to the
// emulator at FIREBASE_DATA_CONNECT_EMULATOR_HOST (host:port), or 127.0.0.1:9399 when that is not set.

import FirebaseDataConnect
import Foundation
import {{package}}

let connector = DataConnect.{{connectorVar}}
// A bare `useEmulator()` follows FIREBASE_DATA_CONNECT_EMULATOR_HOST.
connector.useEmulator()

let genre = "Sci-Fi"

/// Prints the movies of `genre` and returns their titles. `.serverOnly` skips the client cache, so the
/// second listing sees the movie just added.
func listMovies() async throws -> [String] {
    let result = try await connector.listMoviesByGenreQuery.execute(fetchPolicy: .serverOnly, genre: genre)
    let movies = result.data.movies
    print("\(movies.count) \(genre) movie(s):")
    for movie in movies {
        let year = movie.releaseYear.map { " (\($0))" } ?? ""
        let stars = movie.rating.map { " " + String(repeating: "*", count: $0) } ?? ""
        print("  - \(movie.title)\(year)\(stars)")
    }
    return movies.map(\.title)
}

do {
    _ = try await listMovies()

    let title = "Dune"
    let created = try await connector.createMovieMutation.execute(title: title, releaseYear: 2021, genre: genre) {
        $0.rating = 4
        $0.description = "A noble family takes over a desert planet."
    }
    let movieId = created.data.movie_insert.id
    let actor = try await connector.createActorMutation.execute(name: "Timothée Chalamet")
    _ = try await connector.addActorToMovieMutation.execute(
        movieId: movieId, actorId: actor.data.actor_insert.id, role: "main")
    print("added \"\(title)\" (id \(movieId))")

    let titles = try await listMovies()
    guard titles.contains(title) else {
        print("error: the new movie is missing from the list")
        exit(1)
    }

    let details = try await connector.getMovieByIdQuery.execute(fetchPolicy: .serverOnly, id: movieId)
    if let movie = details.data.movie {
        print("\(movie.title) cast: " + movie.cast.map { "\($0.actor.name) (\($0.role))" }.joined(separator: ", "))
    }
} catch {
    print("error: \(error)")
    print("Is the emulator running? `make run` starts one; `make emulator` runs one on its own.")
    exit(1)
}
