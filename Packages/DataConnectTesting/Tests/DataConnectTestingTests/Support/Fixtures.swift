import FirebaseCore
import FirebaseDataConnect
import Foundation

/// Shared values for the tests against the emulator serving `Backend/movies`.
enum DataConnectFixtures {
    static let config = ConnectorConfig(serviceId: "movies", location: "us-central1", connector: "movies")

    /// A new app with a unique name and the `demo` project.
    static func makeApp() -> FirebaseApp {
        let name = "test-\(UUID().uuidString)"
        FirebaseApp.configure(name: name, options: FirebaseOptions(projectID: "demo", apiKey: "key-1"))
        return FirebaseApp.app(name: name)!
    }
}

struct GenreVariables: OperationVariable {
    var genre: String
}

struct NoVariables: OperationVariable {}

struct MovieList: Decodable, Sendable, Equatable {
    struct Movie: Decodable, Sendable, Equatable {
        var id: String
        var title: String
    }

    var movies: [Movie]
}
