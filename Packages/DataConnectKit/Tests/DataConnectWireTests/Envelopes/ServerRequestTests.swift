import DataConnectWire
import Testing

/// The request bodies only the server reads: `:impersonate*` and `:executeGraphql*`, and the
/// faults it tells apart by ``WireFormatError/field`` and ``WireFormatError/problem``.
@Suite struct ServerRequestTests {
    static let connector = "projects/p/locations/l/services/movies/connectors/movies"

    @Test func graphQLRequestNamesTheFieldAndTheProblem() {
        // given
        let connector = Self.connector
        let bodies: [JSONValue] = [
            ["name": .string(connector), "operationName": "", "variables": [:]],
            ["name": .string(connector), "operationName": "ListMovies"],
            ["name": .string(connector), "operationName": "ListMovies", "variables": [1]],
            [1],
        ]

        // when
        let errors = bodies.map { body -> WireFormatError? in
            do throws(WireFormatError) {
                _ = try GraphQLRequest(json: body)
                return nil
            } catch {
                return error
            }
        }

        // then
        #expect(errors.map { $0?.field } == ["operationName", "variables", "variables", nil])
        let problems: [WireFormatError.Problem?] = [.invalidValue, .missing, .wrongType, .wrongType]
        #expect(errors.map { $0?.problem } == problems)
    }

    @Test func graphQLRequestReadsNullVariablesAsEmpty() throws {
        // when
        let request = try GraphQLRequest(
            json: ["name": .string(Self.connector), "operationName": "ListMovies", "variables": nil])

        // then
        #expect(request.variables == [:])
    }

    @Test func impersonationIsReadLeniently() {
        // given
        let claims: JSONValue = ["impersonate": ["authClaims": ["sub": "user-1"]]]
        let anonymous: JSONValue = ["impersonate": ["unauthenticated": true]]

        // then
        #expect(Impersonation(extensions: claims) == .authClaims(["sub": "user-1"]))
        #expect(Impersonation(extensions: anonymous) == .unauthenticated)
        #expect(Impersonation(extensions: ["impersonate": "user-1"]) == nil)
        #expect(Impersonation(extensions: nil) == nil)
        #expect(Impersonation(extensions: Impersonation.unauthenticated.toExtensionsJSON()) == .unauthenticated)
    }

    @Test func impersonateRequestNeedsOnlyAnOperationName() throws {
        // when
        let request = try ImpersonateRequest(
            json: ["operationName": "GetCurrentUser", "extensions": ["impersonate": ["authClaims": ["sub": "u"]]]])
        let error = #expect(throws: WireFormatError.self) { try ImpersonateRequest(json: ["variables": [:]]) }

        // then
        #expect(
            request == ImpersonateRequest(operationName: "GetCurrentUser", impersonation: .authClaims(["sub": "u"])))
        #expect(try ImpersonateRequest(json: request.toJSON()) == request)
        #expect(error?.field == "operationName")
        #expect(error?.problem == .missing)
    }

    @Test func executeGraphqlRequestNeedsAQueryAndIgnoresAnOperationNameThatIsNotAString() throws {
        // when
        let request = try ExecuteGraphqlRequest(
            json: ["query": "query { movies { title } }", "operationName": 5, "variables": ["n": 2]])
        let error = #expect(throws: WireFormatError.self) { try ExecuteGraphqlRequest(json: ["query": 5]) }

        // then
        #expect(request == ExecuteGraphqlRequest(query: "query { movies { title } }", variables: ["n": 2]))
        #expect(try ExecuteGraphqlRequest(json: request.toJSON()) == request)
        #expect(error?.field == "query")
        #expect(error?.problem == .wrongType)
    }
}
