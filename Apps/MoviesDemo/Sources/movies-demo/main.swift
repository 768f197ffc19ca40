// movies-demo: the walkthrough `make demo` runs, narrated step by step, on the generated movies SDK.
//
//   movies-demo [--emulator host:port]     (default: FIREBASE_DATA_CONNECT_EMULATOR_HOST, else 127.0.0.1:9399)
//
// Each step prints what it shows and what happened; any failure prints the error and exits 1.

import FirebaseAuth
import FirebaseCore
import FirebaseDataConnect
import FirebaseDataConnectGenerated
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct DemoFailure: Error, CustomStringConvertible {
    var description: String
}

/// Prints a step's title, then runs it.
func step(_ number: Int, _ title: String, _ body: () async throws -> Void) async throws {
    print("\n== \(number). \(title)")
    try await body()
}

func say(_ text: String) { print("   " + text) }

func milliseconds(_ duration: Duration) -> String {
    let value = Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
    return value < 1 ? String(format: "%.3f ms", value) : String(format: "%.1f ms", value)
}

func median(_ samples: [Duration]) -> Duration { samples.sorted()[samples.count / 2] }

/// Sends `createMovie` as another client would: a plain HTTP request, not through this app's SDK or cache.
func createMovieAsAnotherClient(host: String, port: Int, title: String, genre: String) async throws {
    let path = "projects/demo/locations/us-central1/services/movies/connectors/movies"
    var request = URLRequest(url: URL(string: "http://\(host):\(port)/v1/\(path):executeMutation")!)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    let body: [String: Any] = [
        "name": path, "operationName": "createMovie",
        "variables": ["title": title, "releaseYear": 2026, "genre": genre, "rating": 4],
    ]
    request.httpBody = try JSONSerialization.data(withJSONObject: body)
    let (_, response) = try await URLSession.shared.data(for: request)
    guard (response as? HTTPURLResponse)?.statusCode == 200 else {
        throw DemoFailure(description: "createMovie failed")
    }
}

var address = ProcessInfo.processInfo.environment["FIREBASE_DATA_CONNECT_EMULATOR_HOST"] ?? "127.0.0.1:9399"
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    if argument == "--emulator", let value = arguments.next() {
        address = value
    } else {
        FileHandle.standardError.write(Data("usage: movies-demo [--emulator host:port]\n".utf8))
        exit(2)
    }
}
guard let endpoint = EmulatorConfiguration(hostAndPort: address) else {
    FileHandle.standardError.write(Data("movies-demo: not a host:port: \(address)\n".utf8))
    exit(2)
}

// Firebase Auth on the emulator's Auth API (the same port), keeping nothing on disk: each run is a new user.
// The connector takes its token from this Auth instance by itself (its default token provider).
FirebaseApp.configure()
let auth = Auth.auth(app: FirebaseApp.app()!, persistence: .inMemory)
auth.useEmulator(withHost: endpoint.host, port: endpoint.port)
let connector = DataConnect.moviesConnector
connector.useEmulator(host: endpoint.host, port: endpoint.port)

/// Sets custom claims on a user as an admin does: the Auth emulator's `accounts:update`, authorized with the
/// `Bearer owner` token firebase-tools' emulator accepts for the admin API.
func setCustomClaims(_ claims: String, uid: String, host: String, port: Int) async throws {
    let project = FirebaseApp.app()?.options.projectID ?? "demo-project"
    let url = URL(
        string: "http://\(host):\(port)/identitytoolkit.googleapis.com/v1/projects/\(project)/accounts:update")!
    var request = URLRequest(url: url)
    request.httpMethod = "POST"
    request.setValue("Bearer owner", forHTTPHeaderField: "Authorization")
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = try JSONSerialization.data(withJSONObject: ["localId": uid, "customAttributes": claims])
    let (body, response) = try await URLSession.shared.data(for: request)
    guard (response as? HTTPURLResponse)?.statusCode == 200 else {
        throw DemoFailure(description: "accounts:update failed: \(String(decoding: body, as: UTF8.self))")
    }
}

/// A token's claims as one line of JSON with sorted keys, leaving out the issuer, audience and times.
func describeClaims(_ claims: [String: Any]) -> String {
    let shown = claims.filter { !["iss", "aud", "iat", "exp", "auth_time"].contains($0.key) }
    guard
        let data = try? JSONSerialization.data(withJSONObject: shown, options: [.sortedKeys, .withoutEscapingSlashes])
    else { return "\(shown)" }
    return String(decoding: data, as: UTF8.self)
}

/// A claim's value as JSON text, or `absent`.
func describeClaim(_ value: Any?) -> String {
    guard let value else { return "absent" }
    return describeClaims(["value": value]).dropFirst(9).dropLast().description
}

do {
    var newMovieID = UUID()

    try await step(1, "Create a movie: connector.createMovieMutation.execute(title:releaseYear:genre:rating:)") {
        let result = try await connector.createMovieMutation.execute(
            title: "Empire Strikes Back", releaseYear: 1980, genre: "Sci-Fi", rating: 5)
        newMovieID = result.data.movie_insert.id
        say("created movie_insert.id = \(newMovieID)")
    }

    try await step(2, "List by genre: connector.listMoviesByGenreQuery.execute(genre: \"Sci-Fi\")") {
        let result = try await connector.listMoviesByGenreQuery.execute(genre: "Sci-Fi")
        let titles = result.data.movies.map(\.title)
        say("\(titles.count) Sci-Fi movies from the \(result.source): \(titles.prefix(5).joined(separator: ", ")), …")
        guard result.data.movies.contains(where: { $0.id == newMovieID }) else {
            throw DemoFailure(description: "the new movie is not in the list")
        }
        say("the movie created in step 1 is among them")
    }

    try await step(3, "The same query from the client cache and from the server (connector.yaml: maxAge 30s, memory)") {
        let ref = connector.listMoviesByGenreQuery.ref(genre: "Sci-Fi")
        var cached: [Duration] = []
        var server: [Duration] = []
        var sources: Set<String> = []
        for _ in 0..<25 {
            var start = ContinuousClock.now
            let fromCache = try await ref.execute()
            cached.append(ContinuousClock.now - start)
            sources.insert("\(fromCache.source)")
            start = ContinuousClock.now
            _ = try await ref.execute(fetchPolicy: .serverOnly)
            server.append(ContinuousClock.now - start)
        }
        say(
            "execute()                          -> source \(sources.sorted().joined(separator: "/")), median \(milliseconds(median(cached)))"
        )
        say("execute(fetchPolicy: .serverOnly)  -> source server, median \(milliseconds(median(server)))")
        let offline = try await ref.execute(fetchPolicy: .cacheOnly)
        say(
            "execute(fetchPolicy: .cacheOnly)   -> \(offline.data?.movies.count ?? 0) movies, never touching the network"
        )
    }

    try await step(4, "A live subscription: ref.subscribe() sees a change made by another client") {
        let genre = "Demo-\(Int(Date().timeIntervalSince1970) % 100_000)"
        let ref = connector.listMoviesByGenreQuery.ref(genre: genre)
        let updates = try await ref.subscribe()
        var iterator = updates.makeAsyncIterator()
        guard case .success(let first)? = await iterator.next() else {
            throw DemoFailure(description: "no first result")
        }
        say("subscribed to genre \(genre): \(first.data?.movies.count ?? 0) movies")
        let start = ContinuousClock.now
        try await createMovieAsAnotherClient(
            host: endpoint.host, port: endpoint.port, title: "Live Premiere", genre: genre)
        guard case .success(let pushed)? = await iterator.next() else {
            throw DemoFailure(description: "no push after the change")
        }
        let titles = pushed.data?.movies.map(\.title) ?? []
        say(
            "another client added \"Live Premiere\"; pushed \(milliseconds(ContinuousClock.now - start)) later: \(titles)"
        )
        say("ref.data now shows \(ref.data?.movies.count ?? 0) movie(s); the cache has it too")
    }

    try await step(5, "Sign in with Firebase Auth; addReview is @auth(level: USER)") {
        do {
            _ = try await connector.addReviewMutation.execute(movieId: newMovieID, rating: 5, text: "A classic.")
            throw DemoFailure(description: "addReview succeeded while signed out")
        } catch let error as DataConnectServerError where error.code == .unauthenticated {
            // Only the refusal the step shows; a connection failure or any other error fails the demo.
            say("signed out: refused, \(error.code) (HTTP \(error.httpStatus ?? 0)): \(error.message ?? "")")
        }
        let email = "demo-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let created = try await auth.createUser(withEmail: email, password: "demo-password")
        say("Auth.auth().createUser(withEmail: \"\(email)\", password: …): uid \(created.user.uid)")
        try auth.signOut()
        let user = try await auth.signIn(withEmail: email, password: "demo-password").user
        say("signOut(), then signIn(withEmail:password:): currentUser.uid \(user.uid)")
        let token = try await user.getIDTokenResult()
        say("getIDTokenResult(): signInProvider \(token.signInProvider); claims \(describeClaims(token.claims))")
        _ = try await connector.upsertUserMutation.execute(username: "demo-\(user.uid.prefix(6))")
        let review = try await connector.addReviewMutation.execute(movieId: newMovieID, rating: 5, text: "A classic.")
        say(
            "no token code: the connector sent the user's ID token; review saved for movie \(review.data.review_upsert.movieId)"
        )
        let mine = try await connector.listMyReviewsQuery.execute(fetchPolicy: .serverOnly)
        say("listMyReviews: \(mine.data.reviews.count) review(s) by \(email)")

        try await setCustomClaims(#"{"critic":true}"#, uid: user.uid, host: endpoint.host, port: endpoint.port)
        say("an admin sets {\"critic\":true} (POST …/projects/demo-project/accounts:update, Bearer owner)")
        let before = try await user.getIDTokenResult()
        let after = try await user.getIDTokenResult(forcingRefresh: true)
        say("getIDTokenResult(): critic = \(describeClaim(before.claims["critic"])) (the token held)")
        say("getIDTokenResult(forcingRefresh: true): critic = \(describeClaim(after.claims["critic"]))")
        guard after.claims["critic"] as? Bool == true else {
            throw DemoFailure(description: "the refreshed token has no critic claim")
        }
    }

    print("\nAll steps passed.")
} catch {
    print("\nmovies-demo: error: \(error)")
    exit(1)
}
