import DataConnectCache

/// Responses shared by the engine tests.
enum Fixtures {
    static let getMovie = QueryKey(operationName: "GetMovie", variables: ["id": "m1"])
    static let listMovies = QueryKey(operationName: "ListMovies")

    /// The brief's example: an entity, a nested entity, a list of entities with a nested entity.
    static let movieResponse = """
        {"data":{"movie":{"id":"m1","title":"Alien","director":{"id":"d1","name":"Ridley"},\
        "reviews_on_movie":[{"rating":5,"user":{"id":"u1","name":"Al"}}]}},
         "extensions":{"dataConnect":[{"path":["movie"],"entityId":"Movie/m1","action":"GET"},\
        {"path":["movie","director"],"entityId":"Person/d1","action":"GET"},\
        {"path":["movie","reviews_on_movie"],"entityIds":["Review/m1/u1"],"action":"LIST"},\
        {"path":["movie","reviews_on_movie",0,"user"],"entityId":"User/u1","action":"GET"}]}}
        """

    /// A list of two movies showing id and title.
    static func moviesResponse(titles: (String, String) = ("Alien", "Heat")) -> String {
        """
        {"data":{"movies":[{"id":"m1","title":"\(titles.0)"},{"id":"m2","title":"\(titles.1)"}]},
         "extensions":{"dataConnect":[{"path":["movies"],"entityIds":["Movie/m1","Movie/m2"],"action":"LIST"}]}}
        """
    }

    /// One movie showing id, title and rating.
    static func movieWithRating(title: String = "Alien", rating: Double = 8.5) -> String {
        """
        {"data":{"movie":{"id":"m1","title":"\(title)","rating":\(rating)}},
         "extensions":{"dataConnect":[{"path":["movie"],"entityId":"Movie/m1","action":"GET"}]}}
        """
    }
}
