import FirebaseCore
import FirebaseDataConnect
import Foundation
import Testing

@_spi(Testing) @testable import FirebaseAuth

/// A Linux app on a real Firebase project, as far as this machine allows: options read from a
/// `GoogleService-Info.plist`, Firebase Auth and Data Connect in production mode with Google's hosts replaced by a
/// local stand-in, and every request compared with literal fixtures written from the public SDK sources and the
/// REST references (`identitytoolkit.googleapis.com/v1`, `securetoken.googleapis.com/v1/token`,
/// `firebasedataconnect.googleapis.com/v1`), not with the SDK's own request builders.
@Suite struct ProductionAppTests {
    static let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
          <key>API_KEY</key><string>AIzaSyProductionKey</string>
          <key>GCM_SENDER_ID</key><string>461234567890</string>
          <key>BUNDLE_ID</key><string>com.example.movies</string>
          <key>PROJECT_ID</key><string>movies-prod</string>
          <key>GOOGLE_APP_ID</key><string>1:461234567890:ios:5a1b2c3d4e5f</string>
        </dict>
        </plist>
        """

    /// The stand-in's answers, by the last path segment.
    static func answer(_ request: StandInServer.Request) -> (status: Int, body: Data) {
        let path = String(request.target.split(separator: "?")[0])
        let answer: String
        if path.hasSuffix(":signInWithPassword") {
            answer =
                #"{"idToken":"prod-id-token-1","refreshToken":"prod-refresh-1","expiresIn":"3600","localId":"uid-ada","email":"ada@example.com","registered":true}"#
        } else if path.hasSuffix(":lookup") {
            answer = #"{"users":[{"localId":"uid-ada","email":"ada@example.com","emailVerified":true}]}"#
        } else if path.hasSuffix("/v1/token") {
            answer =
                #"{"access_token":"prod-id-token-2","expires_in":"3600","token_type":"Bearer","refresh_token":"prod-refresh-2","id_token":"prod-id-token-2","user_id":"uid-ada","project_id":"461234567890"}"#
        } else if path.hasSuffix(":executeQuery") {
            answer = #"{"data":{"movies":[]}}"#
        } else {
            return (404, Data(#"{"error":{"code":404,"message":"not in the script","status":"NOT_FOUND"}}"#.utf8))
        }
        return (200, Data(answer.utf8))
    }

    struct Movies: Decodable, Sendable {
        var movies: [String]
    }

    struct NoVariables: OperationVariable {}

    struct FixedAppCheck: AppCheckTokenProvider {
        func token() async throws -> String? { "app-check-token-1" }
    }

    @Test func signInThenAQueryGoToTheProductionEndpointsWithTheAppleSDKsHeaders() async throws {
        // given: options from a GoogleService-Info.plist, Google's hosts replaced by the stand-in
        let server = try StandInServer(handler: Self.answer)
        defer { server.stop() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("GoogleService-Info-\(UUID()).plist")
        try Data(Self.plist.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let options = try #require(FirebaseOptions(contentsOfFile: file.path))
        let name = "production-\(UUID().uuidString)"
        FirebaseApp.configure(name: name, options: options)
        let app = try #require(FirebaseApp.app(name: name))
        var environment = AuthEnvironment.live(environment: [:])
        environment.endpoints = AuthEndpoints(identityToolkit: server.origin, secureToken: server.origin)
        environment.persistence = .inMemory
        let auth = Auth(app: app, environment: environment)
        auth.appCheck = FixedAppCheck()
        let dataConnect = DataConnect.dataConnect(
            app: app,
            connectorConfig: ConnectorConfig(serviceId: "movies", location: "us-central1", connector: "movies"),
            settings: DataConnectSettings(host: "127.0.0.1", port: server.port, sslEnabled: false))
        dataConnect.setAuthTokenProvider(FirebaseAuthTokenProvider(auth: auth))
        dataConnect.appCheckTokenProvider = FixedAppCheck()

        // when: the user signs in, a query runs, the token is refreshed and the query runs again
        try await auth.signIn(withEmail: "ada@example.com", password: "secret-1")
        let query = dataConnect.query(name: "listMovies", variables: NoVariables(), resultsDataType: Movies.self)
        _ = try await query.execute(fetchPolicy: .serverOnly)
        _ = try await auth.currentUser?.getIDToken(forcingRefresh: true)
        _ = try await query.execute(fetchPolicy: .serverOnly)

        // then: the requests, in order
        let requests = server.requests
        #expect(
            requests.map { [$0.method, $0.target, $0.canonicalBody] } == [
                [
                    "POST", "/v1/accounts:signInWithPassword?key=AIzaSyProductionKey",
                    canonicalJSON(#"{"email":"ada@example.com","password":"secret-1","returnSecureToken":true}"#),
                ],
                [
                    "POST", "/v1/accounts:lookup?key=AIzaSyProductionKey",
                    canonicalJSON(#"{"idToken":"prod-id-token-1"}"#),
                ],
                [
                    "POST",
                    "/v1/projects/movies-prod/locations/us-central1/services/movies/connectors/movies:executeQuery?key=AIzaSyProductionKey",
                    canonicalJSON(
                        #"{"name":"projects/movies-prod/locations/us-central1/services/movies/connectors/movies","operationName":"listMovies","variables":{}}"#
                    ),
                ],
                [
                    "POST", "/v1/token?key=AIzaSyProductionKey",
                    canonicalJSON(#"{"grantType":"refresh_token","refreshToken":"prod-refresh-1"}"#),
                ],
                [
                    "POST",
                    "/v1/projects/movies-prod/locations/us-central1/services/movies/connectors/movies:executeQuery?key=AIzaSyProductionKey",
                    canonicalJSON(
                        #"{"name":"projects/movies-prod/locations/us-central1/services/movies/connectors/movies","operationName":"listMovies","variables":{}}"#
                    ),
                ],
            ])
        // Auth's headers, as the Apple SDK sends them.
        let signIn = try #require(requests.first?.headers)
        #expect(signIn["x-firebase-gmpid"] == "1:461234567890:ios:5a1b2c3d4e5f")
        #expect(signIn["x-ios-bundle-identifier"] == "com.example.movies")
        #expect(signIn["x-firebase-appcheck"] == "app-check-token-1")
        #expect(signIn["content-type"] == "application/json")
        // Data Connect's, with the ID token of the moment: the first one, then the refreshed one.
        let queries = requests.filter { $0.target.contains(":executeQuery") }.map(\.headers)
        #expect(queries.map { $0["x-firebase-auth-token"] } == ["prod-id-token-1", "prod-id-token-2"])
        for headers in queries {
            #expect(headers["x-firebase-appcheck"] == "app-check-token-1")
            #expect(headers["x-firebase-gmpid"] == "1:461234567890:ios:5a1b2c3d4e5f")
            #expect(headers["x-goog-api-client"]?.hasPrefix("gl-swift/") == true)
            #expect(headers["x-goog-api-client"]?.contains(" fire/") == true)
            #expect(headers["x-client-version"]?.hasPrefix("linux/") == true)
            #expect(headers["content-type"] == "application/json")
            #expect(headers["authorization"] == nil, "the ID token is never sent as a bearer")
        }
    }
}
