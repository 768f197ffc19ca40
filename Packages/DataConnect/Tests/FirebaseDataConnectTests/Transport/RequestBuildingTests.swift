import DataConnectWire
import Foundation
import Testing

@testable import FirebaseDataConnect

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct RequestBuildingTests {
    private func build(
        _ request: OperationRequest, token: String? = nil, endpoint: ServiceEndpoint = .production
    ) throws -> URLRequest {
        try URLSessionTransport.makeURLRequest(
            for: request, authToken: token, endpoint: endpoint, timeout: 60, versions: TransportFixtures.versions)
    }

    @Test func queryGoesToExecuteQueryOverHTTPSInProduction() throws {
        // given / when
        let urlRequest = try build(TransportFixtures.query())

        // then
        #expect(urlRequest.httpMethod == "POST")
        #expect(
            urlRequest.url?.absoluteString
                == "https://firebasedataconnect.googleapis.com/v1/projects/demo/locations/us-central1/services/movies"
                + "/connectors/movies:executeQuery")
        #expect(urlRequest.timeoutInterval == 60)
    }

    @Test func mutationGoesToExecuteMutationOverPlainHTTPOnTheEmulator() throws {
        // given
        let endpoint = ServiceEndpoint(emulator: EmulatorConfiguration())

        // when
        let urlRequest = try build(TransportFixtures.mutation(), endpoint: endpoint)

        // then
        #expect(
            urlRequest.url?.absoluteString
                == "http://127.0.0.1:9399/v1/projects/demo/locations/us-central1/services/movies/connectors/movies"
                + ":executeMutation")
    }

    @Test func apiKeyIsSentAsQueryParameter() throws {
        // given
        let request = TransportFixtures.query(metadata: RequestMetadata(apiKey: "AIza+key"))

        // when
        let url = try build(request).url?.absoluteString

        // then
        #expect(url?.hasSuffix(":executeQuery?key=AIza%2Bkey") == true)
    }

    @Test func headersCarryClientIdentityAppTokenAndAffinity() throws {
        // given
        let request = TransportFixtures.query(metadata: RequestMetadata(appID: "1:123:ios:abc", appCheckToken: "check"))

        // when
        let urlRequest = try build(request, token: "jwt-token")

        // then
        #expect(urlRequest.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(urlRequest.value(forHTTPHeaderField: "X-Goog-Api-Client") == "gl-swift/6.3 fire/11.12.6 gl-linux/6.1.0")
        #expect(urlRequest.value(forHTTPHeaderField: "X-Client-Version") == "linux/11.12.6")
        #expect(urlRequest.value(forHTTPHeaderField: "x-firebase-gmpid") == "1:123:ios:abc")
        #expect(urlRequest.value(forHTTPHeaderField: "X-Firebase-Auth-Token") == "jwt-token")
        #expect(urlRequest.value(forHTTPHeaderField: "X-Firebase-AppCheck") == "check")
        #expect(urlRequest.value(forHTTPHeaderField: "x-firebase-sqlconnect-affinity") == "demomovies")
    }

    @Test func generatedCallerAddsSwiftGen() throws {
        // given
        let request = TransportFixtures.query(metadata: RequestMetadata(isGeneratedCaller: true))

        // when
        let header = try build(request).value(forHTTPHeaderField: "X-Goog-Api-Client")

        // then
        #expect(header == "gl-swift/6.3 fire/11.12.6 gl-linux/6.1.0 swift/gen")
    }

    @Test func signedOutRequestHasNoAuthOrOptionalHeaders() throws {
        // given / when
        let urlRequest = try build(TransportFixtures.query())

        // then
        #expect(urlRequest.value(forHTTPHeaderField: "X-Firebase-Auth-Token") == nil)
        #expect(urlRequest.value(forHTTPHeaderField: "x-firebase-gmpid") == nil)
        #expect(urlRequest.value(forHTTPHeaderField: "X-Firebase-AppCheck") == nil)
        #expect(urlRequest.url?.query == nil)
    }

    @Test func bodyAlwaysCarriesVariablesEvenWhenEmpty() throws {
        // given / when
        let body = try TransportFixtures.body(of: build(TransportFixtures.query()))

        // then
        #expect(
            body
                == [
                    "name": "projects/demo/locations/us-central1/services/movies/connectors/movies",
                    "operationName": "listMoviesByGenre", "variables": [:],
                ])
    }

    @Test func unsetVariablesAreOmittedAndExplicitNullsAreSent() throws {
        // given
        let request = TransportFixtures.query(variables: ["genre": "Drama", "limit": .null])

        // when
        let variables = try TransportFixtures.body(of: build(request))["variables"]?.objectValue

        // then
        #expect(variables?["genre"] == "Drama")
        #expect(variables?["limit"] == .null)
        #expect(variables?.contains(key: "offset") == false)
        #expect(variables?.count == 2)
    }
}
