import DataConnectEngine
import DataConnectWire
import EmulatorTesting
import Testing

/// The tables subscribed queries read and mutations write, on the movies backend.
@Suite(.onBothDatabases) struct DependencyTrackingTests {
    static func readTables(_ engine: Engine, _ operation: String, _ variables: JSONObject = [:]) -> Set<String>? {
        guard
            case .ready(let target) = engine.prepareSubscription(
                connector: "movies", operationName: operation, variables: variables, auth: nil)
        else { return nil }
        return target.tables
    }

    @Test func queriesReadTheirRootNestedAndFilterTables() throws {
        // given
        let emulator = try Backend.movies.start()
        let engine = emulator.emulator.engine
        // then
        #expect(Self.readTables(engine, "listMovies") == ["Movie"])
        #expect(Self.readTables(engine, "listMoviesByDirector", ["name": "George Lucas"]) == ["Movie", "Person"])
        #expect(Self.readTables(engine, "listHighlyReviewedMovies") == ["Movie", "Review"])
        #expect(Self.readTables(engine, "getCatalogueStats") == ["Movie", "Review", "User"])
        let detail = try #require(
            Self.readTables(engine, "getMovieById", ["id": "252ff53a-a807-5c12-840b-96bff4798d7b"]))
        #expect(detail.isSuperset(of: ["Movie", "Person", "MovieMetadata", "MovieActor", "Actor"]))
    }

    @Test func deletesReportCascadedTables() throws {
        // given
        let emulator = try Backend.movies.start()
        // when
        let response = emulator.emulator.engine.execute(
            EngineRequest(
                kind: .connector(connector: "movies", operationName: "deleteMovie", mutation: true),
                variables: ["id": "252ff53a-a807-5c12-840b-96bff4798d7b"]))
        let bump = emulator.emulator.engine.execute(
            EngineRequest(
                kind: .connector(connector: "movies", operationName: "bumpMovieRating", mutation: true),
                variables: ["id": "252ff53a-a807-5c12-840b-96bff4798d7b"]))
        // then
        let tables = try #require(response.mutation?.tables)
        #expect(tables.isSuperset(of: ["Movie", "MovieMetadata", "MovieActor", "Review", "FavoriteMovie"]))
        #expect(bump.mutation?.tables == ["Movie"])
        #expect(bump.mutation?.operationName == "bumpMovieRating")
    }

    @Test func subscribingToAMutationOrWithoutAccessIsRefused() throws {
        // given
        let emulator = try Backend.movies.start()
        let engine = emulator.emulator.engine
        // when
        let mutation = engine.prepareSubscription(
            connector: "movies", operationName: "deleteMovie", variables: [:], auth: nil)
        let signedOut = engine.prepareSubscription(
            connector: "movies", operationName: "listMyReviews", variables: [:], auth: nil)
        // then
        guard case .refused(let refusal) = mutation else { Issue.record("a mutation was accepted"); return }
        #expect(refusal.status == .invalidArgument)
        guard case .refused(let unauthenticated) = signedOut else { Issue.record("no auth accepted"); return }
        #expect(unauthenticated.status == .unauthenticated)
    }
}
