import DataConnectEngine
import DataConnectWire

/// The calls of `Backend/movies`: every query of `queries.gql`, every mutation of `mutations.gql`, on rows of
/// `seed_data.gql`.
extension DifferentialScript {
    static let movies = DifferentialScript(
        queries: [
            DifferentialCall("movies", "listMovies"),
            DifferentialCall("movies", "getMovieByKey", ["key": ["id": .string(MoviesSeed.starWars)]]),
            DifferentialCall("movies", "getMovieByKey", ["key": ["id": .string(MoviesSeed.missing)]]),
            DifferentialCall("movies", "listMoviesByGenre", ["genre": "Sci-Fi"]),
            DifferentialCall("movies", "listMoviesByGenre", ["genre": "Crime"]),
            DifferentialCall("movies", "getMovieById", ["id": .string(MoviesSeed.starWars)]),
            DifferentialCall("movies", "getMovieById", ["id": .string(MoviesSeed.alien)]),
            DifferentialCall("movies", "getMovieById", ["id": .string(MoviesSeed.someLikeItHot)]),
            DifferentialCall("movies", "getMovieByTitle", ["title": "Alien"]),
            DifferentialCall("movies", "getMovieByTitle", ["title": "Star Wars IV"]),
            DifferentialCall("movies", "searchMovies"),
            DifferentialCall("movies", "searchMovies", ["title": "Alien", "minYear": 1980]),
            DifferentialCall("movies", "searchMovies", ["title": "the", "excludedGenres": ["Drama"], "limit": 5]),
            DifferentialCall("movies", "searchMovies", ["title": "é"]),
            DifferentialCall("movies", "searchMovies", ["genre": "Sci-Fi", "maxYear": 1990, "minRating": 5]),
            DifferentialCall("movies", "searchMovies", ["excludedGenres": ["Sci-Fi", "Drama"], "limit": 500]),
            DifferentialCall("movies", "listMoviesPaged"),
            DifferentialCall("movies", "listMoviesPaged", ["orderByRating": "ASC", "limit": 3, "offset": 3]),
            DifferentialCall(
                "movies", "listMoviesPaged",
                ["orderByRating": "DESC", "orderByReleaseYear": "ASC", "limit": 7, "offset": 60]),
            DifferentialCall("movies", "listMoviesByTag", ["tag": "space"]),
            DifferentialCall("movies", "listMoviesByTag", ["tag": "time travel"]),
            DifferentialCall("movies", "listMoviesByDirector", ["name": "Ridley Scott"]),
            DifferentialCall("movies", "listHighlyReviewedMovies"),
            DifferentialCall("movies", "listHighlyReviewedMovies", ["minRating": 3]),
            DifferentialCall("movies", "listGenreStats"),
            DifferentialCall("movies", "getCatalogueStats"),
            DifferentialCall("movies", "listActors"),
            DifferentialCall("movies", "listActors", ["limit": 3]),
            DifferentialCall("movies", "getActorById", ["id": .string(MoviesSeed.harrisonFord)]),
            DifferentialCall("movies", "listDirectors"),
            DifferentialCall("movies", "listRecentReviews"),
            DifferentialCall("movies", "getCurrentUser", as: MoviesSeed.alice),
            DifferentialCall("movies", "getCurrentUser", as: MoviesSeed.zoe),
            DifferentialCall("movies", "getCurrentUser"),
            DifferentialCall("movies", "listMyReviews", as: MoviesSeed.alice),
            DifferentialCall(
                "movies", "getMyFavorite", ["movieId": .string(MoviesSeed.someLikeItHot)], as: MoviesSeed.alice),
            DifferentialCall("movies", "getMyFavorite", ["movieId": .string(MoviesSeed.alien)], as: MoviesSeed.alice),
        ],
        mutations: [
            DifferentialCall("movies", "bumpMovieRating", ["id": .string(MoviesSeed.alien)]),
            DifferentialCall("movies", "bumpMovieRating", ["id": .string(MoviesSeed.missing)]),
            DifferentialCall("movies", "markClassicsBefore", ["year": 1980], as: MoviesSeed.alice),
            DifferentialCall("movies", "markClassicsBefore", ["year": 1990]),
            DifferentialCall("movies", "upsertUser", ["username": "alice2"], as: MoviesSeed.alice),
            DifferentialCall("movies", "upsertUser", ["username": "zoë"], as: MoviesSeed.zoe),
            // another user's name: the unique constraint on `username` fails
            DifferentialCall("movies", "upsertUser", ["username": "bruno"], as: MoviesSeed.zoe),
            DifferentialCall(
                "movies", "addReview", ["movieId": .string(MoviesSeed.alien), "rating": 4, "text": "Tense."],
                as: MoviesSeed.alice),
            // no such movie: the foreign key fails
            DifferentialCall(
                "movies", "addReview", ["movieId": .string(MoviesSeed.missing), "rating": 1, "text": "?"],
                as: MoviesSeed.alice),
            DifferentialCall(
                "movies", "updateReview",
                ["movieId": .string(MoviesSeed.alien), "rating": 3, "text": "Tense, then long."],
                as: MoviesSeed.alice),
            DifferentialCall(
                "movies", "updateReview", ["movieId": .string(MoviesSeed.starWars), "rating": 1, "text": "none"],
                as: MoviesSeed.alice),
            DifferentialCall(
                "movies", "updateMyReviewText", ["movieId": .string(MoviesSeed.alien), "text": "Still tense."],
                as: MoviesSeed.alice),
            // no review of alice's: the @check fails
            DifferentialCall(
                "movies", "updateMyReviewText", ["movieId": .string(MoviesSeed.starWars), "text": "?"],
                as: MoviesSeed.alice),
            DifferentialCall(
                "movies", "addFavoritedMovie", ["movieId": .string(MoviesSeed.alien)], as: MoviesSeed.alice),
            DifferentialCall(
                "movies", "addFavoritedMovie", ["movieId": .string(MoviesSeed.alien)], as: MoviesSeed.alice),
            DifferentialCall(
                "movies", "updateMovie",
                [
                    "id": .string(MoviesSeed.starWars), "title": "Star Wars IV", "tags": ["space", "ep. \"IV\"", "ü"],
                    "aspectratio": "ACADEMY",
                ]),
            DifferentialCall("movies", "updateMovie", ["id": .string(MoviesSeed.gravity), "rating": nil]),
            DifferentialCall(
                "movies", "addActorToMovie",
                [
                    "movieId": .string(MoviesSeed.alien), "actorId": .string(MoviesSeed.harrisonFord),
                    "role": "supporting",
                ]),
            DifferentialCall(
                "movies", "addActorToMovie",
                ["movieId": .string(MoviesSeed.alien), "actorId": .string(MoviesSeed.harrisonFord), "role": "main"]),
            // no such actor: the foreign key fails
            DifferentialCall(
                "movies", "addActorToMovie",
                ["movieId": .string(MoviesSeed.alien), "actorId": .string(MoviesSeed.missing), "role": "main"]),
            DifferentialCall(
                "movies", "createMovie", ["title": "Zeta", "releaseYear": 2020, "genre": "Drama", "rating": 3]),
            DifferentialCall(
                "movies", "createMovieWithMetadata",
                [
                    "title": "Ωmega", "releaseYear": 2021, "genre": "Sci-Fi", "rating": 2, "aspectratio": "ANAMORPHIC",
                    "tags": ["space", "x"], "releaseDate": "2021-01-02", "durationHours": 1.75,
                    "budget": "9007199254740993", "extras": ["b": [1, 2.5, nil], "a": ["nested": true], "s": "é\"'"],
                ]),
            DifferentialCall("movies", "createActor", ["name": "Zoë Kravitz", "birthDate": "1988-12-01"]),
            DifferentialCall("movies", "createActor", ["name": "Nobody"]),
            DifferentialCall(
                "movies", "deleteFavoritedMovie", ["movieId": .string(MoviesSeed.alien)], as: MoviesSeed.alice),
            DifferentialCall("movies", "deleteReview", ["movieId": .string(MoviesSeed.alien)], as: MoviesSeed.alice),
            DifferentialCall("movies", "deleteMovie", ["id": .string(MoviesSeed.starWars)]),
            DifferentialCall("movies", "deleteUnratedMovies", as: MoviesSeed.alice),
        ])
}

/// Rows and users of `Backend/movies/seed_data.gql` the movies script uses.
enum MoviesSeed {
    static let starWars = "252ff53a-a807-5c12-840b-96bff4798d7b"
    static let alien = "17dbe1ae-39cd-5b7c-b0d9-127c66401864"
    static let someLikeItHot = "96f1fac8-2890-507a-a279-d6ad73e4c1f1"
    static let gravity = "dd8018ea-63c7-505d-b46b-ecd1d3978254"
    static let harrisonFord = "61016af0-2d8c-5b95-b5b0-c96404e0e9b7"
    /// A key no row has.
    static let missing = "00000000-0000-4000-8000-000000000000"
    /// A seeded user with reviews and favorites.
    static let alice = DifferentialCaller.verified("uid-alice", email: "alice@example.com")
    /// A signed-in user without a profile until `upsertUser`.
    static let zoe = DifferentialCaller.verified("uid-zoe", email: "zoe@example.com")
}
