import DataConnectWire
import FirebaseCore
import Observation
import Synchronization
import Testing

@testable import FirebaseDataConnect

/// `query(name:variables:resultsDataType:publisher:)`: which kind of ref each publisher returns, and that the
/// kinds share one state.
@Suite struct ObservableRefKindsTests {
    let alien: JSONValue = ["movies": [["id": "m1", "title": "Alien"]]]

    private func ref(
        _ dataConnect: DataConnect, publisher: ResultsPublisherType
    ) -> any ObservableQueryRef {
        dataConnect.query(
            name: "listMoviesByGenre", variables: GenreVariables(genre: "Sci-Fi"), resultsDataType: MovieList.self,
            publisher: publisher)
    }

    @Test func observableObjectIsTheObservableObjectKindAndTheOthersTheObservationKind() {
        // given
        let dataConnect = DataConnectFixtures.dataConnect(RecordingTransport())

        // when
        let object = ref(dataConnect, publisher: .observableObject)
        let macro = ref(dataConnect, publisher: .observableMacro)
        let auto = ref(dataConnect, publisher: .auto)

        // then
        #expect(object is QueryRefObservableObject<MovieList, GenreVariables>)
        #expect(macro is QueryRefObservation<MovieList, GenreVariables>)
        #expect(auto is QueryRefObservation<MovieList, GenreVariables>)
    }

    @Test func bothKindsShareTheDataOfOneRefAndTheObservableObjectIsReused() async throws {
        // given
        let transport = RecordingTransport(replies: [.success(GraphQLResponse(data: alien))])
        let dataConnect = DataConnectFixtures.dataConnect(transport)
        let object = try #require(
            ref(dataConnect, publisher: .observableObject) as? QueryRefObservableObject<MovieList, GenreVariables>)
        let observation = dataConnect.query(
            name: "listMoviesByGenre", variables: GenreVariables(genre: "Sci-Fi"), resultsDataType: MovieList.self)

        // when
        let result = try await object.execute()

        // then
        #expect(result.source == .server)
        #expect(object.data?.movies.first?.title == "Alien")
        #expect(observation.data?.movies.first?.title == "Alien")
        #expect(object.source == .server && object.lastError == nil)
        #expect(transport.requests.count == 1)
        #expect(ref(dataConnect, publisher: .observableObject) as AnyObject === object)
        #expect(object.operationName == "listMoviesByGenre" && object.variables == GenreVariables(genre: "Sci-Fi"))
    }

    @Test func theObservableObjectKindIsObservableWithObservation() async throws {
        // given
        let transport = RecordingTransport(replies: [.success(GraphQLResponse(data: alien))])
        let dataConnect = DataConnectFixtures.dataConnect(transport)
        let object = try #require(
            ref(dataConnect, publisher: .observableObject) as? QueryRefObservableObject<MovieList, GenreVariables>)
        let changed = Atomic(false)
        withObservationTracking {
            _ = object.data
        } onChange: {
            changed.store(true, ordering: .relaxed)
        }

        // when
        _ = try await object.execute(fetchPolicy: .serverOnly)

        // then
        let didChange = changed.load(ordering: .relaxed)
        #expect(didChange)
    }

    @Test func theObservableObjectKindKeepsTheLastError() async throws {
        // given
        let transport = RecordingTransport(replies: [
            .failure(.server(RequestError(status: .permissionDenied, message: "no"), httpStatus: 403))
        ])
        let dataConnect = DataConnectFixtures.dataConnect(transport)
        let object = try #require(
            ref(dataConnect, publisher: .observableObject) as? QueryRefObservableObject<MovieList, GenreVariables>)

        // when
        await #expect(throws: DataConnectServerError.self) { try await object.execute() }

        // then
        #expect(object.lastError is DataConnectServerError)
        #expect(object.data == nil)
    }

    @Test func emulatorDefaultsAreUpstreamsAndAnExplicitDefaultAddressFollowsTheEnvironment() {
        // given
        let environment = [EmulatorConfiguration.environmentVariable: "127.0.0.1:9555"]
        let explicitDefaults = DataConnectFixtures.dataConnect(RecordingTransport(), environment: environment)
        let otherPort = DataConnectFixtures.dataConnect(RecordingTransport(), environment: environment)

        // when
        explicitDefaults.useEmulator(host: DataConnect.EmulatorDefaults.host, port: DataConnect.EmulatorDefaults.port)
        otherPort.useEmulator(port: 9400)

        // then
        #expect(DataConnect.EmulatorDefaults.host == "127.0.0.1")
        #expect(DataConnect.EmulatorDefaults.port == 9399)
        #expect(explicitDefaults.endpoint == ServiceEndpoint(host: "127.0.0.1", port: 9555, sslEnabled: false))
        #expect(otherPort.endpoint == ServiceEndpoint(host: "127.0.0.1", port: 9400, sslEnabled: false))
    }
}
