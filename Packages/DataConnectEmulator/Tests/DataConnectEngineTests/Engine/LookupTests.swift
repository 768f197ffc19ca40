import DataConnectWire
import EmulatorTesting
import Testing

@testable import DataConnectEngine

/// Single lookups `x(id | id_expr | key | first)`.
@Suite(.onBothDatabases) struct LookupTests {
    static let operations = """
        query MovieById($id: UUID!) @auth(level: PUBLIC) { movie(id: $id) { id title } }
        query ReviewByKey($movieId: UUID!, $userId: String!) @auth(level: PUBLIC) {
          review(key: {movieId: $movieId, userId: $userId}) { rating reviewDate }
        }
        query MyReview($movieId: UUID!) @auth(level: PUBLIC) {
          review(key: {movieId: $movieId, userId_expr: "auth.uid"}) { rating }
        }
        query BestDrama @auth(level: PUBLIC) {
          movie(first: {where: {genre: {eq: DRAMA}}, orderBy: [{rating: DESC}]}) { title rating }
        }
        query Me @auth(level: PUBLIC) { user(id_expr: "auth.uid") { id username } }
        """

    @Test func looksUpByID() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when: the id is sent dashed and uppercase
        let found = backend.query("MovieById", ["id": "A0000000-0000-0000-0000-000000000001"])
        let missing = backend.query("MovieById", ["id": "ffffffffffffffffffffffffffffffff"])

        // then
        expectGoldenSQL(found)
        #expect(found.data == json(#"{"movie": {"id": "a0000000000000000000000000000001", "title": "Inception"}}"#))
        #expect(missing.data == json(#"{"movie": null}"#))
        #expect(missing.errors.isEmpty)
    }

    @Test func looksUpByCompositeKey() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("ReviewByKey", ["movieId": .string(EngineFixtures.inception), "userId": "u2"])

        // then
        expectGoldenSQL(result)
        #expect(result.data == json(#"{"review": {"rating": 4, "reviewDate": "2024-02-02"}}"#))
    }

    @Test func looksUpByKeyWithAnExpressionPart() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let alice = backend.query(
            "MyReview", ["movieId": .string(EngineFixtures.inception)], auth: EngineFixtures.alice)
        let bob = backend.query("MyReview", ["movieId": .string(EngineFixtures.inception)], auth: EngineFixtures.bob)

        // then: the same statement, bound to each caller's uid
        expectGoldenSQL(alice)
        #expect(alice.data == json(#"{"review": {"rating": 5}}"#))
        #expect(bob.data == json(#"{"review": {"rating": 4}}"#))
    }

    @Test func looksUpTheFirstRowInOrder() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let result = backend.query("BestDrama")

        // then: dramas are Little Women (7.8) and Cleo (7.9)
        expectGoldenSQL(result)
        #expect(result.data == json(#"{"movie": {"title": "Cleo from 5 to 7", "rating": 7.9}}"#))
    }

    @Test func looksUpTheSignedInUserByIDExpression() throws {
        // given
        let backend = try TestBackend(Self.operations)

        // when
        let signedIn = backend.query("Me", auth: EngineFixtures.bob)
        let signedOut = backend.query("Me", auth: nil)

        // then
        expectGoldenSQL(signedIn)
        #expect(signedIn.data == json(#"{"user": {"id": "u2", "username": "bob"}}"#))
        #expect(signedOut.status == .ok)
        #expect(signedOut.data == .null)
        #expect(signedOut.errors.first?["extensions"]?["code"] == "UNAUTHENTICATED")
    }
}
