// Full-stack tests of {{app}}: the generated {{package}} SDK against the Data Connect emulator, run inside the
// test process (no socket, no port), on an in-memory database seeded from ../dataconnect/seed_data.gql.
//
// `emulator.attach { }` points every DataConnect the code inside uses (the generated accessor
// `DataConnect.{{connectorVar}}` included) at this test's emulator, with a client cache of its own, so tests
// that run in parallel do not see each other's data.

import DataConnectTesting
import FirebaseDataConnect
import Foundation
import Testing
import {{package}}

/// The project's `dataconnect/` folder, found from this file's path.
let backend = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("dataconnect").path

@Suite struct MovieCatalogueTests {
    @Test func aNewMovieIsListedInItsGenre() async throws {
        // given: the seeded catalogue
        let emulator = try TestEmulator.inProcess(backend: backend, seedFile: backend + "/seed_data.gql")
        try await emulator.attach {
            let connector = DataConnect.{{connectorVar}}
            let before = try await connector.listMoviesByGenreQuery.execute(fetchPolicy: .serverOnly, genre: "Sci-Fi")

            // when
            let created = try await connector.createMovieMutation.execute(
                title: "Arrival", releaseYear: 2016, genre: "Sci-Fi"
            ) { $0.rating = 5 }

            // then
            let after = try await connector.listMoviesByGenreQuery.execute(fetchPolicy: .serverOnly, genre: "Sci-Fi")
            #expect(after.data.movies.count == before.data.movies.count + 1)
            let movie = try #require(after.data.movies.first { $0.id == created.data.movie_insert.id })
            #expect(movie.title == "Arrival")
            #expect(movie.rating == 5)
        }
    }
}
