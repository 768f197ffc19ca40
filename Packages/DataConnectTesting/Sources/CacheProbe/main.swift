// cache-probe: one query through a persistent client cache, as a separate app process would run it.
//
//   CacheProbe <cache folder> <emulator host:port> <preferCache|cacheOnly|serverOnly|staleIfOffline> <maxAge seconds>
//
// Prints one JSON line: {"source": "server"|"cache", "isStale": Bool, "titles": [...]} or {"error": "..."}.
// Used by the SDK's persistence tests to show the cache surviving a process restart and a stopped server.

import FirebaseCore
import FirebaseDataConnect
import Foundation

struct Catalogue: Decodable, Sendable {
    struct Movie: Decodable, Sendable {
        var id: String
        var title: String
    }
    var movies: [Movie]
}

struct Genre: OperationVariable {
    var genre: String
}

let arguments = CommandLine.arguments
guard arguments.count == 5, let maxAge = TimeInterval(arguments[4]),
    let endpoint = EmulatorConfiguration(hostAndPort: arguments[2])
else {
    FileHandle.standardError.write(Data("usage: CacheProbe <cache folder> <host:port> <policy> <maxAge>\n".utf8))
    exit(2)
}
let policies: [String: QueryFetchPolicy] = [
    "preferCache": .preferCache, "cacheOnly": .cacheOnly, "serverOnly": .serverOnly,
    "staleIfOffline": .staleIfOffline,
]
guard let policy = policies[arguments[3]] else {
    FileHandle.standardError.write(Data("unknown policy \(arguments[3])\n".utf8))
    exit(2)
}

FirebaseApp.configure(options: FirebaseOptions(projectID: "demo"))
let dataConnect = DataConnect.dataConnect(
    connectorConfig: ConnectorConfig(serviceId: "movies", location: "us-central1", connector: "movies"),
    settings: DataConnectSettings(
        cacheSettings: CacheSettings(storage: .persistent, maxAge: maxAge, directory: arguments[1])))
dataConnect.useEmulator(host: endpoint.host, port: endpoint.port)
let ref = dataConnect.query(
    name: "listMoviesByGenre", variables: Genre(genre: "Sci-Fi"), resultsDataType: Catalogue.self)
do {
    let result = try await ref.execute(fetchPolicy: policy)
    let titles = (result.data?.movies.map(\.title) ?? []).map { "\"\($0)\"" }.joined(separator: ",")
    let source = result.source == .server ? "server" : "cache"
    print(
        "{\"source\":\"\(source)\",\"isStale\":\(result.isStale),\"hasData\":\(result.data != nil),\"titles\":[\(titles)]}"
    )
} catch {
    print("{\"error\":\"\(String(describing: error).replacingOccurrences(of: "\"", with: "'"))\"}")
    exit(1)
}
