import FirebaseDataConnectGenerated
import Foundation
import MoviesCLICore
import MoviesModels

/// Runs one parsed command against `DataConnect.moviesConnector` and prints its result.
struct MoviesApp {
    let command: MoviesCommand
    let address: EmulatorAddress
    let style: TerminalStyle
    let accounts: Accounts
    let movies: MoviesClient
    /// Reads one line of standard input, for `--password-stdin`.
    var readLine: () -> String? = { Swift.readLine(strippingNewline: true) }

    /// Parses, runs and reports a command line; never throws.
    ///
    /// - Returns: The exit status: 0 ok, 1 failed or not found, 2 usage, 3 unreachable, 4 unauthorized.
    static func run(arguments: [String], environment: [String: String]) async -> ExitStatus {
        var address = EmulatorAddress.standard
        do {
            let command = try MoviesCommand.parse(arguments)
            if case .help(let topic) = command.action {
                Console.out(HelpText.text(for: topic))
                return .success
            }
            address = try command.emulatorAddress(environment: environment)
            let app = MoviesApp(
                command: command, address: address,
                style: TerminalStyle.detect(isTerminal: Console.isTerminal, environment: environment),
                accounts: Accounts(address: address, environment: environment), movies: MoviesClient(address: address))
            try await app.run()
            return .success
        } catch {
            let failure = FailureMapping.failure(for: error, address: address)
            Console.error(failure.line)
            return failure.exitStatus
        }
    }

    func run() async throws {
        switch command.action {
        case .help(let topic):
            Console.out(HelpText.text(for: topic))
        case .list(let options):
            let rows = MovieListing.apply(options, to: try await movies.listMovies())
            print(rows, key: "movies") { MovieFormatter.list($0, style: style) }
        case .search(let options):
            let rows = try await movies.search(options)
            print(rows, key: "movies") { MovieFormatter.list($0, style: style) }
        case .show(let id):
            let movie = try await movies.movie(id: id)
            print(movie, key: "movie") { MovieFormatter.details($0, style: style) }
        case .add(let movie):
            let id = try await movies.add(movie)
            Console.out(MovieID.format(id) + "\n")
        case .review(let options):
            try requireSignIn()
            let movie = try await movies.movie(id: options.movieID)
            try await movies.review(options)
            Console.out("Reviewed \(DisplayWidth.sanitized(movie.title)): \(options.rating)/5\n")
        case .delete(let id):
            try await movies.delete(id: id)
            Console.out("Deleted \(MovieID.format(id))\n")
        case .favorites(let action):
            try requireSignIn()
            try await favorites(action)
        case .signup(let options):
            try await signUp(options)
        case .login(let credentials):
            let password = try credentials.password.resolve(readLine: readLine)
            try await accounts.signIn(email: credentials.email, password: password)
            Console.out(MovieFormatter.signedIn(try await accounts.whoami()))
        case .logout:
            Console.out(try accounts.signOut() ? "Signed out.\n" : "Not signed in.\n")
        case .whoami:
            let user = try await accounts.whoami()
            print(user, key: "user") { MovieFormatter.whoami($0) }
        case .watch(let genre, let poll):
            try await watch(genre: genre, poll: poll)
        }
    }

    // MARK: Commands

    private func favorites(_ action: FavoritesAction) async throws {
        switch action {
        case .list:
            let favorites = try await movies.favorites()
            print(favorites, key: "favorites") { MovieFormatter.favorites($0, style: style) }
        case .add(let id):
            let movie = try await movies.movie(id: id)
            try await movies.addFavorite(id: id)
            Console.out("Added \(DisplayWidth.sanitized(movie.title)) to your favorites.\n")
        case .remove(let id):
            try await movies.removeFavorite(id: id)
            Console.out("Removed \(MovieID.format(id)) from your favorites.\n")
        }
    }

    /// Creates the account, then the profile the connector's `@auth(level: USER)` operations write under.
    private func signUp(_ options: SignUpOptions) async throws {
        let password = try options.credentials.password.resolve(readLine: readLine)
        let uid = try await accounts.signUp(
            email: options.credentials.email, password: password, name: options.name)
        try await movies.upsertProfile(username: options.name ?? uid)
        Console.out(MovieFormatter.signedIn(try await accounts.whoami()))
    }

    private func watch(genre: String?, poll: Bool) async throws {
        // Catch Ctrl-C and SIGTERM before anything is printed, so a signal right after the first list still
        // stops the watch cleanly.
        let stop = SignalTrap(signals: [SIGINT, SIGTERM])
        defer { stop.cancel() }
        let source: any MovieListSource =
            poll
            ? PollingMovieListSource(interval: .seconds(1)) { [movies] in
                MovieListing.apply(ListOptions(genre: genre), to: try await movies.listMovies())
            }
            : SubscribedMovieListSource(movies: movies) { MovieListing.apply(ListOptions(genre: genre), to: $0) }
        let json = command.json
        let style = self.style
        let task = Task {
            try await MovieWatcher(source: source).run { event in
                switch event {
                case .initial(let rows):
                    Console.out(json ? JSONOutput.line(["movies": rows]) : MovieFormatter.list(rows, style: style))
                    if !json { Console.error("Watching for changes; press Ctrl-C to stop.") }
                case .changes(let changes):
                    for change in changes {
                        Console.out(json ? JSONOutput.line(change) : MovieFormatter.change(change, style: style))
                    }
                }
            }
        }
        stop.onSignal { task.cancel() }
        do {
            try await task.value
        } catch  where stop.fired {
            // Stopped by Ctrl-C or SIGTERM while a fetch was in flight: a clean stop.
        }
    }

    // MARK: Helpers

    /// Fails unless someone is signed in; the connector sends their token by itself.
    private func requireSignIn() throws {
        guard accounts.isSignedIn else { throw MoviesFailure.notSignedIn }
    }

    /// Prints `value` as `{"<key>": value}` JSON with `--json`, else as `text(value)`.
    private func print<Value: Encodable>(_ value: Value, key: String, text: (Value) -> String) {
        Console.out(command.json ? JSONOutput.render([key: value]) : text(value))
    }
}
