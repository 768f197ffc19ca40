import Foundation
import MoviesCLICore
import MoviesModels
import Testing

@Suite struct CommandLineParserTests {
    let id = "252ff53a-a807-5c12-840b-96bff4798d7b"
    var uuid: UUID { UUID(uuidString: id)! }

    private func parse(_ arguments: String...) throws -> MoviesCommand {
        try MoviesCommand.parse(arguments)
    }

    private func usageError(_ arguments: String...) -> UsageError? {
        do {
            _ = try MoviesCommand.parse(arguments)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Help

    @Test func noArgumentsAndHelpFlagsShowTheOverview() throws {
        // given / when / then
        #expect(try parse() == MoviesCommand(.help(topic: nil)))
        #expect(try parse("--help") == MoviesCommand(.help(topic: nil)))
        #expect(try parse("-h") == MoviesCommand(.help(topic: nil)))
        #expect(try parse("help") == MoviesCommand(.help(topic: nil)))
    }

    @Test(arguments: HelpTopic.allCases) func everyCommandHasHelp(topic: HelpTopic) throws {
        // given
        let name = topic.rawValue

        // when
        let viaFlag = try parse(name, "--help")
        let viaShortFlag = try parse(name, "-h")
        let viaHelp = try parse("help", name)

        // then
        #expect(viaFlag.action == .help(topic: topic))
        #expect(viaShortFlag.action == .help(topic: topic))
        #expect(viaHelp.action == .help(topic: topic))
        #expect(HelpText.text(for: topic).hasPrefix("usage: movies \(name)"))
    }

    @Test func helpForAnUnknownCommandIsAUsageError() {
        // given / when
        let error = usageError("help", "frobnicate")

        // then
        #expect(error?.message.contains("no help for \"frobnicate\"") == true)
    }

    @Test func overviewDocumentsEveryExitStatus() {
        // given
        let text = HelpText.text(for: nil)

        // then
        for status in ExitStatus.allCases {
            #expect(text.contains("  \(status.rawValue)  "), "exit status \(status.rawValue) is documented")
        }
        for topic in HelpTopic.allCases {
            #expect(text.contains("  \(topic.rawValue) "), "\(topic.rawValue) is listed")
        }
    }

    // MARK: list

    @Test func listDefaultsToEveryMovieByTitle() throws {
        #expect(try parse("list") == MoviesCommand(.list(ListOptions())))
    }

    @Test func listReadsEveryOptionInBothSpellings() throws {
        // given / when
        let spaced = try parse("list", "--genre", "Sci-Fi", "--sort", "rating", "--desc", "--limit", "5", "--page", "2")
        let joined = try parse("list", "--genre=Sci-Fi", "--sort=RATING", "--desc", "--limit=5", "--page=2")

        // then
        let expected = MoviesCommand(
            .list(ListOptions(genre: "Sci-Fi", sort: .rating, descending: true, limit: 5, page: 2)))
        #expect(spaced == expected)
        #expect(joined == expected)
    }

    @Test func globalOptionsGoAnywhere() throws {
        // given / when
        let before = try parse("--emulator", "localhost:9000", "--json", "list")
        let after = try parse("list", "--json", "--emulator=localhost:9000")

        // then
        let expected = MoviesCommand(
            .list(ListOptions()), emulator: EmulatorAddress(host: "localhost", port: 9000), json: true)
        #expect(before == expected)
        #expect(after == expected)
    }

    @Test(arguments: [
        (["list", "--sort", "length"], "--sort needs title, year or rating"),
        (["list", "--limit", "0"], "--limit needs a number from 1"),
        (["list", "--limit", "many"], "--limit needs a number"),
        (["list", "--page", "-1"], "--page needs a number from 1"),
        (["list", "--limit"], "--limit needs a value"),
        (["list", "--desc=yes"], "--desc takes no value"),
        (["list", "--genre", "--desc"], "--genre needs a value"),
        (["list", "extra"], "unexpected argument \"extra\" for list"),
        (["list", "--title", "x"], "unknown option \"--title\" for list"),
        (["list", "--emulator", "nowhere"], "--emulator needs HOST:PORT"),
        (["list", "--emulator", "host:70000"], "--emulator needs HOST:PORT"),
    ])
    func listRejectsBadArguments(arguments: [String], message: String) {
        // given / when
        let error = #expect(throws: UsageError.self) { try MoviesCommand.parse(arguments) }

        // then
        #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "no error")")
        #expect(error?.topic == .list)
    }

    // MARK: search

    @Test func searchTakesTextAndFilters() throws {
        // given / when
        let command = try parse(
            "search", "star", "wars", "--genre", "Sci-Fi", "--min-year", "1970", "--max-year", "1990", "--min-rating",
            "4")

        // then
        #expect(
            command.action
                == .search(
                    SearchOptions(text: "star wars", genre: "Sci-Fi", minYear: 1970, maxYear: 1990, minRating: 4)))
    }

    @Test func searchTextMayStartWithADashAfterTheSeparator() throws {
        #expect(try parse("search", "--", "-x-").action == .search(SearchOptions(text: "-x-")))
    }

    @Test func searchNeedsText() {
        #expect(usageError("search", "--genre", "Drama")?.message == "search needs the TEXT to find")
        #expect(usageError("search", "x", "--min-year", "old")?.message.hasPrefix("--min-year needs a number") == true)
        #expect(
            usageError("search", "x", "--min-rating", "9")?.message.hasPrefix("--min-rating needs a number from 0 to 5")
                == true)
    }

    // MARK: show, delete

    @Test func showAndDeleteTakeOneID() throws {
        // given
        let undashed = id.replacingOccurrences(of: "-", with: "").uppercased()

        // when / then
        #expect(try parse("show", id) == MoviesCommand(.show(id: uuid)))
        #expect(try parse("show", undashed, "--json") == MoviesCommand(.show(id: uuid), json: true))
        #expect(try parse("delete", id) == MoviesCommand(.delete(id: uuid)))
    }

    @Test func showAndDeleteRejectMissingOrMalformedIDs() {
        #expect(usageError("show")?.message == "show needs a movie ID")
        #expect(usageError("show", "42")?.message == "\"42\" is not a movie ID (a UUID)")
        #expect(usageError("delete", id, id)?.message == "unexpected argument \"\(id)\" for delete")
        #expect(usageError("delete", id, "--json")?.message == "--json applies only to read commands, not to delete")
    }

    // MARK: add

    @Test func addReadsTheMovie() throws {
        // given / when
        let minimal = try parse("add", "--title", "Amélie", "--year", "2001", "--genre", "Comedy", "--rating", "5")
        let full = try parse(
            "add", "--title", "Heat", "--year", "1995", "--genre", "Crime", "--rating", "4", "--aspect", "anamorphic",
            "--tags", "heist, la,,")

        // then
        #expect(minimal.action == .add(NewMovie(title: "Amélie", releaseYear: 2001, genre: "Comedy", rating: 5)))
        #expect(
            full.action
                == .add(
                    NewMovie(
                        title: "Heat", releaseYear: 1995, genre: "Crime", rating: 4, aspectRatio: .anamorphic,
                        tags: ["heist", "la"])))
    }

    @Test(arguments: [
        (["add", "--year", "2001", "--genre", "G", "--rating", "3"], "add needs --title"),
        (["add", "--title", "T", "--genre", "G", "--rating", "3"], "add needs --year"),
        (["add", "--title", "T", "--year", "2001", "--rating", "3"], "add needs --genre"),
        (["add", "--title", "T", "--year", "2001", "--genre", "G"], "add needs --rating"),
        (
            ["add", "--title", "T", "--year", "2001", "--genre", "G", "--rating", "6"],
            "--rating needs a number from 1 to 5"
        ),
        (["add", "--title", " ", "--year", "2001", "--genre", "G", "--rating", "3"], "--title must not be empty"),
        (
            ["add", "--title", "T", "--year", "2001", "--genre", "G", "--rating", "3", "--aspect", "IMAX"],
            "--aspect needs"
        ),
    ])
    func addRejectsMissingAndBadValues(arguments: [String], message: String) {
        let error = #expect(throws: UsageError.self) { try MoviesCommand.parse(arguments) }
        #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "no error")")
    }

    // MARK: review

    @Test func reviewReadsRatingAndText() throws {
        #expect(try parse("review", id, "--rating", "4").action == .review(ReviewOptions(movieID: uuid, rating: 4)))
        #expect(
            try parse("review", "--text", "Great fun", id, "--rating=5").action
                == .review(ReviewOptions(movieID: uuid, rating: 5, text: "Great fun")))
    }

    @Test func anOptionLikeValueNeedsTheEqualsSpelling() throws {
        #expect(
            try parse("review", id, "--rating", "3", "--text=--meh--").action
                == .review(ReviewOptions(movieID: uuid, rating: 3, text: "--meh--")))
        #expect(
            try parse("review", id, "--rating", "3", "--text", "-1").action
                == .review(ReviewOptions(movieID: uuid, rating: 3, text: "-1")))
    }

    @Test func reviewNeedsAnIDAndARating() {
        #expect(usageError("review", "--rating", "4")?.message == "review needs a movie ID")
        #expect(usageError("review", id)?.message == "review needs --rating")
        #expect(
            usageError("review", id, "--rating", "0")?.message.hasPrefix("--rating needs a number from 1 to 5") == true)
    }

    // MARK: favorites

    @Test func favoritesListsAddsAndRemoves() throws {
        #expect(try parse("favorites").action == .favorites(.list))
        #expect(try parse("favorites", "list", "--json") == MoviesCommand(.favorites(.list), json: true))
        #expect(try parse("favorites", "add", id).action == .favorites(.add(uuid)))
        #expect(try parse("favorites", "remove", id).action == .favorites(.remove(uuid)))
    }

    @Test func favoritesRejectsUnknownActionsAndMissingIDs() {
        #expect(usageError("favorites", "clear")?.message.hasPrefix("unknown favorites action \"clear\"") == true)
        #expect(usageError("favorites", "add")?.message == "favorites needs a movie ID")
        #expect(usageError("favorites", "add", id, "--json")?.message.hasPrefix("--json applies only") == true)
    }

    // MARK: signup, login, logout, whoami

    @Test func signupReadsEmailPasswordAndName() throws {
        // given
        let credentials = Credentials(email: "ada@example.com", password: .argument("secret-1"))

        // when / then
        #expect(
            try parse("signup", "--email", "ada@example.com", "--password", "secret-1").action
                == .signup(SignUpOptions(credentials: credentials)))
        #expect(
            try parse("signup", "--email=ada@example.com", "--password-stdin", "--name", "Ada").action
                == .signup(
                    SignUpOptions(
                        credentials: Credentials(email: "ada@example.com", password: .standardInput), name: "Ada")))
    }

    @Test func loginReadsEmailAndPasswordSource() throws {
        #expect(
            try parse("login", "--email", "ada@example.com", "--password", "secret-1").action
                == .login(Credentials(email: "ada@example.com", password: .argument("secret-1"))))
        #expect(
            try parse("login", "--password-stdin", "--email", "ada@example.com", "--emulator", "127.0.0.1:9000")
                == MoviesCommand(
                    .login(Credentials(email: "ada@example.com", password: .standardInput)),
                    emulator: EmulatorAddress(host: "127.0.0.1", port: 9000)))
    }

    @Test func signInNeedsAnEmailAndExactlyOnePasswordSource() {
        #expect(usageError("login")?.message == "login needs --email")
        #expect(usageError("login", "--email", "ada")?.message.hasPrefix("--email needs an address") == true)
        #expect(
            usageError("login", "--email", "ada@example.com")?.message
                == "login needs --password or --password-stdin")
        #expect(
            usageError("signup", "--email", "ada@example.com", "--password", "x", "--password-stdin")?.message
                == "give --password or --password-stdin, not both")
        #expect(
            usageError("signup", "--email", "a@example.com", "--password", "")?.message
                == "--password must not be empty")
        #expect(
            usageError("signup", "--email", "a@example.com", "--password", "secret-1", "--name", "")?.message
                == "--name needs 1 to 50 characters")
        #expect(
            usageError("login", "--email", "a@example.com", "--password", "secret-1", "--name", "Ada")?.message
                == "unknown option \"--name\" for login")
        #expect(usageError("login", "--email", "a@example.com", "--password", "p", "--json")?.topic == .login)
    }

    @Test func passwordStdinReadsOneLineWithoutItsEnding() throws {
        // given
        var lines = ["secret-1\r", "second line"]
        let readLine = { lines.isEmpty ? nil : lines.removeFirst() }

        // when / then
        #expect(try PasswordSource.standardInput.resolve(readLine: readLine) == "secret-1")
        #expect(try PasswordSource.argument("given").resolve(readLine: { nil }) == "given")
        #expect(throws: UsageError("--password-stdin read no password from standard input")) {
            try PasswordSource.standardInput.resolve(readLine: { nil })
        }
        #expect(throws: UsageError("--password-stdin read no password from standard input")) {
            try PasswordSource.standardInput.resolve(readLine: { "" })
        }
    }

    @Test func logoutAndWhoamiTakeNoArguments() throws {
        #expect(try parse("logout").action == .logout)
        #expect(try parse("whoami", "--json") == MoviesCommand(.whoami, json: true))
        #expect(usageError("logout", "now")?.message == "unexpected argument \"now\" for logout")
    }

    // MARK: watch

    @Test func watchTakesAGenre() throws {
        #expect(try parse("watch").action == .watch(genre: nil))
        #expect(try parse("watch", "--poll").action == .watch(genre: nil, poll: true))
        #expect(try parse("watch", "--genre", "Drama", "--json") == MoviesCommand(.watch(genre: "Drama"), json: true))
    }

    // MARK: Unknown commands

    @Test func unknownCommandsAndLeadingOptionsAreUsageErrors() {
        #expect(usageError("frobnicate")?.message.hasPrefix("unknown command \"frobnicate\"") == true)
        #expect(usageError("--verbose", "list")?.message == "unknown option \"--verbose\"")
        #expect(usageError("frobnicate")?.description.hasSuffix("(see movies --help)") == true)
    }
}
