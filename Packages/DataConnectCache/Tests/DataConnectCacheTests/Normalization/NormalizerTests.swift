import DataConnectWire
import Testing

@testable import DataConnectCache

@Suite struct NormalizerTests {
    @Test func splitsEntitiesFromTheTree() throws {
        // given the example response
        let response = try Response(Fixtures.movieResponse)

        // when it is normalized
        let result = Normalizer(properties: response.properties).normalize(response.data)

        // then entities hold their own fields, and the tree keeps ids, keys and relations
        #expect(result.entities.keys.sorted() == ["Movie/m1", "Person/d1", "Review/m1/u1", "User/u1"])
        #expect(JSONValue.object(result.entities["Movie/m1"]!).jsonString() == #"{"id":"m1","title":"Alien"}"#)
        #expect(JSONValue.object(result.entities["Review/m1/u1"]!).jsonString() == #"{"rating":5}"#)
        #expect(
            result.tree.jsonString()
                == #"{"$o":{"movie":{"$e":"Movie/m1","$k":["id","title","director","reviews_on_movie"],"$c":{"#
                + #""director":{"$e":"Person/d1","$k":["id","name"]},"reviews_on_movie":{"$l":[{"$e":"Review/m1/u1","#
                + #""$k":["rating","user"],"$c":{"user":{"$e":"User/u1","$k":["id","name"]}}}],"$t":"Review"}}}}}"#
        )
        #expect(result.maxAge == nil)
    }

    @Test func computesDependencies() throws {
        // given the example response's tree
        let response = try Response(Fixtures.movieResponse)
        let tree = Normalizer(properties: response.properties).normalize(response.data).tree

        // when its dependencies are computed
        let dependencies = ResultTree.dependencies(of: tree)

        // then they name each entity with the keys read from its record, and the listed table
        #expect(
            dependencies.entities == [
                "Movie/m1": ["id", "title"], "Person/d1": ["id", "name"], "Review/m1/u1": ["rating"],
                "User/u1": ["id", "name"],
            ])
        #expect(dependencies.listTables == ["Review"])
    }

    @Test func removesAnEntityFromListsAndReferences() throws {
        // given a tree with movie m1 in a list and at a reference
        let response = try Response(
            """
            {"data":{"movies":[{"id":"m1"},{"id":"m2"}],"top":{"id":"m1"}},
             "extensions":{"dataConnect":[{"path":["movies"],"entityIds":["Movie/m1","Movie/m2"]},\
            {"path":["top"],"entityId":"Movie/m1"}]}}
            """)
        let tree = Normalizer(properties: response.properties).normalize(response.data).tree

        // when m1 is removed
        let removed = try #require(ResultTree.removing(entity: "Movie/m1", from: tree))

        // then it left the list and the reference is null; removing an absent entity changes nothing
        let hydrated = try Hydrator(entities: ["Movie/m2": ["id": "m2"]]).hydrate(removed)
        #expect(hydrated.jsonString() == #"{"movies":[{"id":"m2"}],"top":null}"#)
        #expect(ResultTree.removing(entity: "Movie/m9", from: tree) == Optional<JSONValue>.none)
    }

    @Test func parsesProtobufDurations() {
        #expect(ProtobufDuration.seconds("30s") == 30)
        #expect(ProtobufDuration.seconds("1.5s") == 1.5)
        #expect(ProtobufDuration.seconds("30") == nil)
        #expect(ProtobufDuration.seconds("abcs") == nil)
    }
}
