import DataConnectWire

/// Messages with every field set, shared by the round-trip, transcoding and cross-implementation tests.
enum Fixtures {
    static let connector = "projects/demo/locations/us-central1/services/movies/connectors/default"

    static let variables: JSONObject = [
        "id": "m1", "limit": 10, "rating": 8.5, "tags": ["sci-fi", "horror"], "filter": ["year": ["ge": 1979]],
        "missing": nil, "released": true, "title": "Ålien — ☃ 🎬",
    ]

    static let request = GraphQLRequest(name: connector, operationName: "ListMovies", variables: variables)

    static let fullError = GraphQLError(
        message: "duplicate key value violates unique constraint",
        path: ["movies", 0, "title"],
        locations: [.init(line: 3, column: 7), .init(line: -1, column: 2)],
        extensions: .init(
            code: .alreadyExists, debugDetails: "key (id)=(m1) exists", warningLevel: "REQUIRE_ACK",
            other: [
                "file": "connector/mutations.gql", "resource": "movies",
                "workarounds": [["description": "use upsert", "reason": "conflict", "replace": "movie_upsert"]],
            ]
        )
    )

    static let bareError = GraphQLError(message: "not found", path: ["movie"], code: .notFound)

    static let listProperties = DataConnectProperties(
        path: ["movies"], entityIds: ["m1", "m2"], maxAge: "30s", action: .list)

    static let getProperties = DataConnectProperties(
        path: ["movie", "director"], entityId: "d1", maxAge: "1.500s", action: .get)

    static let response = GraphQLResponse(
        data: [
            "movies": [
                ["id": "m1", "title": "Alien", "rating": 8.5, "year": 1979, "tags": ["sci-fi"], "director": nil],
                ["id": "m2", "title": "Heat \"95\"\n", "rating": -1.25e-7, "year": 1995, "tags": [], "director": [:]],
            ],
            "count": 2, "big": 1e300, "negative": -42,
        ],
        errors: [fullError, bareError],
        extensions: .init(dataConnect: [listProperties, getProperties])
    )

    /// `count` movies, as the engine answers a list query.
    static func listAnswer(count: Int) -> GraphQLResponse {
        var movies: [JSONValue] = []
        var ids: [String] = []
        for index in 0..<count {
            let id = "0b1d3f7e-\(1000 + index)-4c2a-9e1f-5a7b3c9d2e10"
            ids.append(id)
            movies.append([
                "id": .string(id), "title": .string("Movie number \(index)"), "releaseYear": JSONValue(1970 + index),
                "rating": JSONValue(Double(index % 10) + 0.5), "genre": "drama",
                "director": ["id": .string("d\(index)"), "name": "Some Director"],
            ])
        }
        return GraphQLResponse(
            data: ["movies": .array(movies)],
            extensions: .init(dataConnect: [DataConnectProperties(path: ["movies"], entityIds: ids, action: .list)]))
    }

    /// One movie by key.
    static let getAnswer = GraphQLResponse(
        data: [
            "movie": [
                "id": "0b1d3f7e-1000-4c2a-9e1f-5a7b3c9d2e10", "title": "Alien", "releaseYear": 1979, "rating": 8.5,
                "genre": "sci-fi", "description": "In space, no one can hear you scream.",
            ]
        ],
        extensions: .init(dataConnect: [
            DataConnectProperties(path: ["movie"], entityId: "0b1d3f7e-1000-4c2a-9e1f-5a7b3c9d2e10", action: .get)
        ]))

    static let streamRequests: [StreamRequest] = [
        StreamRequest(
            requestId: "1", kind: .subscribe(.init(operationName: "ListMovies", variables: variables)), name: connector,
            headers: ["X-Firebase-Auth-Token": "token", "x-client-version": "ios/11.4"], dataEtag: "9f3c"),
        StreamRequest(requestId: "2", kind: .execute(.init(operationName: "AddMovie", variables: ["title": "Alien"]))),
        StreamRequest(requestId: "1", kind: .resume),
        StreamRequest(requestId: "1", kind: .cancel),
        // What the iOS client really sends: an opening message without a kind, and a token refresh.
        StreamRequest(requestId: "3", kind: nil, name: connector),
        StreamRequest(requestId: nil, kind: nil, headers: ["x-firebase-auth-token": "refreshed"]),
    ]

    static let streamResponses: [StreamResponse] = [
        StreamResponse(
            requestId: "1", data: response.data, errors: response.errors, extensions: response.extensions,
            dataEtag: "9f3c"),
        StreamResponse(requestId: "1", dataEtag: "9f3c"),
        StreamResponse(requestId: "2", errors: [bareError], cancelled: true),
    ]
}
