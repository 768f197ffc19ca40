// The Swift snippets of the Data Connect "Use generated iOS SDKs" guide, compiled unchanged against the
// generated movies package. Run with the emulator's address in FIREBASE_DATA_CONNECT_EMULATOR_HOST (the
// bare `useEmulator()` follows it), or against an emulator on 127.0.0.1:9399.

import FirebaseDataConnect
import FirebaseDataConnectGenerated

// "Instrument clients to use a local emulator"
let connector = DataConnect.moviesConnector
connector.useEmulator()

// "Run a mutation": the result is read both through `result.data.` and `if let data = result.data`.
do {
    let result = try await connector.createMovieMutation.execute(
        title: "Empire Strikes Back",
        releaseYear: 1980,
        genre: "Sci-Fi",
        rating: 5)

    print("Movie ID: \(result.data.movie_insert.id)")
    if let data = result.data {
        print("created \(data.movie_insert.id)")
    }
} catch {
    print("error: \(error)")
}

// "Run a query": one-shot execution and a ref.
let resultData = try await DataConnect.moviesConnector.listMoviesByGenreQuery.execute(genre: "Sci-Fi")
print("Sci-Fi movies: \(resultData.data.movies.count)")

let queryRef = connector.listMoviesByGenreQuery.ref(genre: "Sci-Fi")
_ = try await queryRef.execute()
print("ref titles include Empire: \(queryRef.data?.movies.contains { $0.title == "Empire Strikes Back" } ?? false)")

// "Enable client-side caching": the fetch policies.
let cached = try await connector.listMoviesByGenreQuery.ref(genre: "Sci-Fi").execute(fetchPolicy: .cacheOnly)
print("cacheOnly source: \(cached.source)")
_ = try await connector.listMoviesByGenreQuery.ref(genre: "Sci-Fi").execute(fetchPolicy: .serverOnly)

// "Handle changes to enum fields": an exhaustive switch with `_UNKNOWN`.
do {
    let result = try await DataConnect.moviesConnector.listMoviesQuery.execute()
    if let data = result.data {
        for movie in data.movies {
            switch movie.aspectratio {
            case .ACADEMY: print("academy")
            case .WIDESCREEN: print("widescreen")
            case .ANAMORPHIC: print("anamorphic")
            case ._UNKNOWN(let unknownAspect): print(unknownAspect)
            }
        }
    }
} catch {
    print("error: \(error)")
}
print("done")
