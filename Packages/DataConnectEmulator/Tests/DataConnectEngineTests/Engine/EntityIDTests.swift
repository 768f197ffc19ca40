import DataConnectWire
import EmulatorTesting
import Testing

@testable import DataConnectEngine

/// `extensions.dataConnect`: entity ids and actions for connectors whose `connector.yaml` enables the
/// client cache.
@Suite(.onBothDatabases) struct EntityIDTests {
    static let operations = """
        query TwoMovies @auth(level: PUBLIC) { movies(orderBy: [{title: ASC}], limit: 2) { title } }
        query MovieAndDirector @auth(level: PUBLIC) {
          movie(id: "a0000000000000000000000000000001") { title director { name } }
        }
        query ReviewsOfInception @auth(level: PUBLIC) {
          movie(id: "a0000000000000000000000000000001") { reviews_on_movie(orderBy: [{userId: ASC}]) { rating } }
        }
        query MoviesAndDirectors @auth(level: PUBLIC) {
          movies(where: {title: {in: ["Inception", "50% Off_Sale"]}}, orderBy: [{title: ASC}]) { title director { name } }
        }
        query Genres @auth(level: PUBLIC) { movies(distinct: true, orderBy: [{genre: ASC}]) { genre } }
        mutation Create @auth(level: PUBLIC) { actor_insert(data: {id: "c00000000000000000000000000000ff", name: "New"}) }
        mutation Update @auth(level: PUBLIC) { actor_update(id: "c0000000000000000000000000000001", data: {name: "Leo"}) }
        mutation Upsert @auth(level: PUBLIC) { user_upsert(data: {id: "u1", username: "alice2"}) }
        mutation Delete @auth(level: PUBLIC) {
          review_delete(key: {movieId: "a0000000000000000000000000000001", userId: "u2"})
        }
        mutation RenameAndRead @auth(level: PUBLIC) @transaction {
          actor_update(id: "c0000000000000000000000000000001", data: {name: "Leo"})
          query { actor(id: "c0000000000000000000000000000001") { name } }
        }
        query Aliased @auth(level: PUBLIC) { movies(where: {title: {eq: "Inception"}}) { _dc_eid: title } }
        query Extras @auth(level: PUBLIC) { movies(where: {title: {eq: "Inception"}}) { title extras } }
        mutation SetExtras($extras: Any) @auth(level: PUBLIC) @transaction {
          movie_update(id: "a0000000000000000000000000000001", data: {extras: $extras})
          query { movies(where: {title: {eq: "Inception"}}) { title extras } }
        }
        mutation CreateTwo @auth(level: PUBLIC) { actor_insertMany(data: [{id: "c000000000000000000000000000000a", name: "A"}, {id: "c000000000000000000000000000000b", name: "B"}]) }
        """

    /// How both dialects write the hidden member's name in an object's pairs: the empty string literal.
    static let hiddenMember = ", '', "

    @Test func listsTheEntitiesOfAList() throws {
        // given
        let backend = try TestBackend(Self.operations, clientCache: true)

        // when
        let result = backend.query("TwoMovies")

        // then: the unselected key travels bare in a hidden member, removed from the data; the type is added as
        expectGoldenSQL(result)
        // the response is written
        #expect(!result.allSQL.contains("'Movie' || '/'"))
        #expect(result.data == json(#"{"movies": [{"title": "50% Off_Sale"}, {"title": "Barbie"}]}"#))
        #expect(
            result.dataConnect == [
                json(
                    #"{"path": ["movies"], "entityIds": ["Movie/a0000000000000000000000000000005", "Movie/a0000000000000000000000000000002"], "action": "LIST"}"#
                )
            ])
    }

    @Test func aListsJoinedReferencesNameTheirEntitiesAndAnUnsetOneNone() throws {
        // given
        let backend = try TestBackend(Self.operations, clientCache: true)

        // when
        let result = backend.query("MoviesAndDirectors")

        // then: the director read through the list's join has its id at its path; the unset one has none
        expectGoldenSQL(result)
        #expect(
            result.data
                == json(
                    #"{"movies": [{"title": "50% Off_Sale", "director": null}, {"title": "Inception", "director": {"name": "Nolan"}}]}"#
                ))
        let director = try #require(result.dataConnect.first { $0["path"] == json(#"["movies", 1, "director"]"#) })
        #expect(director["entityId"]?.stringValue?.hasPrefix("Person/") == true)
        #expect(director["action"] == "GET")
        #expect(!result.dataConnect.contains { $0["path"] == json(#"["movies", 0, "director"]"#) })
        #expect(result.dataConnect.first?["path"] == json(#"["movies"]"#))
    }

    @Test func aMutationsQueryFieldNamesItsEntitiesAndHidesTheKeys() throws {
        // given
        let backend = try TestBackend(Self.operations, clientCache: true)

        // when
        let result = backend.mutation("RenameAndRead")

        // then: no hidden key in the data; the query field's entity is named like a query's
        let actor = "c0000000000000000000000000000001"
        #expect(result.data == json(#"{"actor_update": {"id": "\#(actor)"}, "query": {"actor": {"name": "Leo"}}}"#))
        #expect(
            result.dataConnect.contains(
                json(#"{"path": ["query", "actor"], "entityId": "Actor/\#(actor)", "action": "GET"}"#)))
    }

    @Test func namesNestedSingleEntities() throws {
        // given
        let backend = try TestBackend(Self.operations, clientCache: true)

        // when
        let result = backend.query("MovieAndDirector")

        // then
        #expect(result.data == json(#"{"movie": {"title": "Inception", "director": {"name": "Nolan"}}}"#))
        #expect(
            Set(result.dataConnect) == [
                json(#"{"path": ["movie"], "entityId": "Movie/a0000000000000000000000000000001", "action": "GET"}"#),
                json(
                    #"{"path": ["movie", "director"], "entityId": "Person/d0000000000000000000000000000001", "action": "GET"}"#
                ),
            ])
    }

    @Test func listsTheEntitiesOfANestedList() throws {
        // given
        let backend = try TestBackend(Self.operations, clientCache: true)

        // when
        let result = backend.query("ReviewsOfInception")

        // then
        #expect(
            Set(result.dataConnect) == [
                json(#"{"path": ["movie"], "entityId": "Movie/a0000000000000000000000000000001", "action": "GET"}"#),
                json(
                    #"{"path": ["movie", "reviews_on_movie"], "entityIds": ["Review/a0000000000000000000000000000001/u1", "#
                        + #""Review/a0000000000000000000000000000001/u2"], "action": "LIST"}"#),
            ])
    }

    @Test func leavesDistinctProjectionsWithoutEntityIDs() throws {
        // given
        let backend = try TestBackend(Self.operations, clientCache: true)

        // when
        let result = backend.query("Genres")

        // then: duplicates are still removed, and no entity is claimed
        #expect(!result.allSQL.contains(Self.hiddenMember))
        #expect(
            result.data
                == json(#"{"movies": [{"genre": "DRAMA"}, {"genre": "COMEDY"}, {"genre": "SCIFI"}, {"genre": null}]}"#))
        #expect(result.dataConnect.isEmpty)
    }

    @Test(arguments: [
        ("Create", "actor_insert", "Actor/c00000000000000000000000000000ff", "CREATE"),
        ("Update", "actor_update", "Actor/c0000000000000000000000000000001", "UPDATE"),
        ("Upsert", "user_upsert", "User/u1", "UPSERT"),
        ("Delete", "review_delete", "Review/a0000000000000000000000000000001/u2", "DELETE"),
    ])
    func namesTheEntityAMutationWrote(_ operation: String, _ field: String, _ entityID: String, _ action: String) throws
    {
        // given
        let backend = try TestBackend(Self.operations, clientCache: true)

        // when
        let result = backend.mutation(operation)

        // then
        #expect(result.errors.isEmpty, "\(result.body)")
        #expect(
            result.dataConnect == [
                .object(["path": [.string(field)], "entityId": .string(entityID), "action": .string(action)])
            ])
    }

    @Test func namesEveryEntityOfAManyInsert() throws {
        // given
        let backend = try TestBackend(Self.operations, clientCache: true)

        // when
        let result = backend.mutation("CreateTwo")

        // then
        #expect(
            result.dataConnect == [
                json(
                    #"{"path": ["actor_insertMany"], "entityIds": ["Actor/c000000000000000000000000000000a", "Actor/c000000000000000000000000000000b"], "action": "CREATE"}"#
                )
            ])
    }

    @Test func emitsNothingWithoutClientCache() throws {
        // given
        let backend = try TestBackend(Self.operations, clientCache: false)

        // when
        let query = backend.query("TwoMovies")
        let mutation = backend.mutation("Update")

        // then
        #expect(!query.allSQL.contains(Self.hiddenMember))
        #expect(query.dataConnect.isEmpty)
        #expect(mutation.errors.isEmpty)
        #expect(mutation.dataConnect.isEmpty)
    }

    // MARK: - Ids read off key values

    /// A one-column `Int` key (`Shelf.number`) and a `UUID` key (`Book.id`); `_id` is the id as the statement
    /// builds it, so it names what every entity id must be.
    static let keySchema = """
        type Shelf @table(key: ["number"]) {
          number: Int!
          label: String!
        }

        type Book @table {
          title: String!
          shelf: Shelf!
        }
        """

    static let keyOperations = """
        mutation Seed @auth(level: PUBLIC) {
          s1: shelf_insert(data: {number: 7, label: "A"})
          s2: shelf_insert(data: {number: 12, label: "B"})
          b1: book_insert(data: {id: "b0000000000000000000000000000001", title: "X", shelfNumber: 7})
          b2: book_insert(data: {id: "b0000000000000000000000000000002", title: "Y", shelfNumber: 12})
        }
        query BooksWithKeys @auth(level: PUBLIC) {
          books(orderBy: [{title: ASC}]) { _id id title shelf { _id number label } }
        }
        query BooksWithoutKeys @auth(level: PUBLIC) {
          books(orderBy: [{title: ASC}]) { _id title shelf { _id label } }
        }
        mutation ReadBooks @auth(level: PUBLIC) @transaction {
          query { books(orderBy: [{title: ASC}]) { _id id shelf { _id label } } }
        }
        """

    /// The `extensions.dataConnect` the key schema's two books answer, at `path`, with the ids their `_id`
    /// fields hold.
    static func expectedProperties(_ data: JSONValue?, path: [JSONValue]) -> [JSONValue] {
        let books = data?.arrayValue ?? []
        var properties: [JSONValue] = [
            .object([
                "path": .array(path), "entityIds": .array(books.compactMap { $0["_id"] }), "action": "LIST",
            ])
        ]
        for (index, book) in books.enumerated() {
            if let id = book["shelf"]?["_id"] {
                properties.append(
                    .object([
                        "path": .array(path + [.number(JSONNumber(index)), "shelf"]), "entityId": id, "action": "GET",
                    ]))
            }
        }
        return properties
    }

    @Test(arguments: ["BooksWithKeys", "BooksWithoutKeys"])
    func idsReadOffKeyValuesAreTheIDsTheStatementBuilds(_ operation: String) throws {
        // given
        let backend = try TestBackend(Self.keyOperations, schema: Self.keySchema, clientCache: true, seeded: false)
        #expect(backend.mutation("Seed").errors.isEmpty)

        // when
        let result = backend.query(operation)

        // then: no id is joined in SQL (only `_id` does that); each equals its object's `_id`
        #expect(result.errors.isEmpty, "\(result.body)")
        let books = result.data?["books"]
        #expect(books?.arrayValue?.count == 2)
        #expect(books?[0]?["_id"] == "Book/b0000000000000000000000000000001")
        #expect(books?[1]?["shelf"]?["_id"] == "Shelf/12")
        #expect(result.dataConnect == Self.expectedProperties(books, path: ["books"]))
        #expect(
            !result.allSQL.contains(Self.hiddenMember + "'Book'")
                && !result.allSQL.contains(Self.hiddenMember + "'Shelf'"))
        #expect(result.allSQL.contains(Self.hiddenMember) == (operation == "BooksWithoutKeys"))
    }

    @Test func aMutationsQueryFieldReadsIDsOffKeyValuesToo() throws {
        // given
        let backend = try TestBackend(Self.keyOperations, schema: Self.keySchema, clientCache: true, seeded: false)
        #expect(backend.mutation("Seed").errors.isEmpty)

        // when: the query field's value is parsed, not copied
        let result = backend.mutation("ReadBooks")

        // then
        #expect(result.errors.isEmpty, "\(result.body)")
        let books = result.data?["query"]?["books"]
        #expect(books?.arrayValue?.count == 2)
        #expect(result.dataConnect == Self.expectedProperties(books, path: ["query", "books"]))
    }
    @Test func aJSONValueThatLooksLikeAHiddenMemberIsTheUsersData() throws {
        // given: an `Any` value holding members named as the hidden one, and an empty name
        let backend = try TestBackend(Self.operations, clientCache: true)
        let extras = json(
            #"{"_dc_eid": "Movie/forged", "": "empty", "list": [{"_dc_eid": "x", "": 1}], "n": {"": {}}}"#)
        let movie = "Movie/a0000000000000000000000000000001"
        let expected = [json(#"{"path": ["movies"], "entityIds": ["\#(movie)"], "action": "LIST"}"#)]

        // when: the mutation's query field is parsed, the query's text is copied
        let written = backend.mutation("SetExtras", ["extras": extras])
        let read = backend.query("Extras")

        // then: both keep the value as stored and name only the movie
        #expect(written.errors.isEmpty, "\(written.body)")
        #expect(written.data?["query"]?["movies"]?[0]?["extras"] == extras)
        #expect(
            written.dataConnect.filter { $0["path"]?[0] == "query" }
                == expected.map { property in
                    var property = property.objectValue ?? [:]
                    property["path"] = json(#"["query", "movies"]"#)
                    return .object(property)
                })
        #expect(read.errors.isEmpty, "\(read.body)")
        #expect(read.data?["movies"]?[0]?["extras"] == extras)
        #expect(read.dataConnect == expected)
    }
    @Test func anyAliasIsTheResponsesOwnKey() throws {
        // given
        let backend = try TestBackend(Self.operations, clientCache: true)

        // when: an alias that a hidden member's name could have been
        let result = backend.query("Aliased")

        // then
        #expect(result.errors.isEmpty, "\(result.body)")
        #expect(result.data == json(#"{"movies": [{"_dc_eid": "Inception"}]}"#))
        #expect(
            result.dataConnect == [
                json(
                    #"{"path": ["movies"], "entityIds": ["Movie/a0000000000000000000000000000001"], "action": "LIST"}"#)
            ])
    }
}
