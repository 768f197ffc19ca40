import DataConnectTestSupport
import Foundation
import Testing

/// Runs the built `movies` executable against the shared seeded emulator, the way a user does.
///
/// Each test has its own configuration folder and writes rows only it uses, so the tests can run in parallel.
@Suite struct MoviesExecutableTests {
    let user: MoviesUser
    let starWars = MoviesFixture.starWarsID

    init() throws {
        user = try MoviesUser()
    }

    private func json(_ result: ProcessResult) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
        return try #require(object as? [String: Any], "stdout is a JSON object: \(result.standardOutput)")
    }

    private func expectFailure(_ result: ProcessResult, status: Int32, message: String) {
        #expect(result.exitStatus == status, "stderr: \(result.standardError)")
        #expect(result.errorLines.count == 1, "one line on stderr: \(result.standardError)")
        #expect(result.errorLines.first?.hasPrefix("movies: error: \(message)") == true, "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
    }

    /// Signs a new account up as `name-<random>` with a unique email; returns its uid.
    @discardableResult
    private func signUp(_ name: String) async throws -> (uid: String, email: String, username: String) {
        let tag = UUID().uuidString.prefix(8).lowercased()
        let email = "\(name)-\(tag)@example.com"
        let username = "\(name)-\(tag)"
        let result = try await user.run("signup", "--email", email, "--password", "secret-1", "--name", username)
        #expect(result.exitStatus == 0, "\(result.standardError)")
        let whoami = try await user.run("whoami", "--json")
        let uid = try #require(try json(whoami)["user"] as? [String: Any])["uid"] as? String
        return (try #require(uid), email, username)
    }

    // MARK: Help and usage

    @Test func helpListsCommandsAndExitStatuses() async throws {
        // when
        let overview = try await ChildProcess.movies(["--help"])
        let listHelp = try await ChildProcess.movies(["list", "--help"])

        // then
        #expect(overview.exitStatus == 0)
        #expect(overview.standardOutput.contains("Exit status:"))
        #expect(overview.standardOutput.contains("3  the emulator is unreachable"))
        #expect(listHelp.exitStatus == 0)
        #expect(listHelp.standardOutput.hasPrefix("usage: movies list"))
    }

    @Test func badArgumentsExitWithStatus2() async throws {
        // when
        let badSort = try await user.run("list", "--sort", "length")
        let unknown = try await user.run("frobnicate")
        let badID = try await user.run("show", "not-an-id")

        // then
        expectFailure(badSort, status: 2, message: "--sort needs title, year or rating")
        expectFailure(unknown, status: 2, message: "unknown command \"frobnicate\"")
        expectFailure(badID, status: 2, message: "\"not-an-id\" is not a movie ID")
    }

    @Test func anUnreachableEmulatorExitsWithStatus3() async throws {
        // when: nothing listens on port 1
        let result = try await ChildProcess.movies(
            ["list", "--emulator", "127.0.0.1:1"], environment: user.environment)

        // then
        expectFailure(result, status: 3, message: "emulator unreachable at 127.0.0.1:1")
    }

    @Test func theEmulatorAddressComesFromTheEnvironmentWithoutTheOption() async throws {
        // when
        let result = try await ChildProcess.movies(
            ["show", starWars],
            environment: user.environment.merging(
                ["FIREBASE_DATA_CONNECT_EMULATOR_HOST": user.address]) { _, new in new })

        // then
        #expect(result.exitStatus == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("Star Wars (1977)"))
    }

    // MARK: Reading

    @Test func listPrintsAnAlignedTableWithoutColorWhenPiped() async throws {
        // when
        let result = try await user.run("list", "--genre", "animation", "--sort", "year")

        // then
        #expect(result.exitStatus == 0, "\(result.standardError)")
        let lines = result.outputLines
        #expect(lines.first?.hasPrefix("ID") == true)
        #expect(lines.count > 3)
        #expect(!result.standardOutput.contains("\u{1B}"), "no escapes when stdout is not a terminal")
        #expect(lines.contains { $0.contains("となりのトトロ") })
        let genreColumns = lines.dropFirst().map { line in
            line.range(of: "Animation").map { DisplayWidthProbe.columns(before: $0.lowerBound, in: line) }
        }
        #expect(Set(genreColumns).count == 1, "the GENRE column lines up with wide titles: \(lines)")
    }

    @Test func listJSONIsParseableAndHonoursSortAndLimit() async throws {
        // when
        let result = try await user.run(
            "list", "--genre", "Sci-Fi", "--sort", "year", "--desc", "--limit", "3", "--json")

        // then
        #expect(result.exitStatus == 0, "\(result.standardError)")
        let movies = try #require(try json(result)["movies"] as? [[String: Any]])
        #expect(movies.count == 3)
        let years = movies.compactMap { $0["releaseYear"] as? Int }
        #expect(years == years.sorted(by: >))
        #expect(movies.allSatisfy { $0["genre"] as? String == "Sci-Fi" })
    }

    @Test func searchFindsTitlesAndAppliesFilters() async throws {
        // when
        let found = try await user.run("search", "Star", "--json")
        let filtered = try await user.run("search", "Star", "--min-year", "1978", "--json")
        let table = try await user.run("search", "Star", "--genre", "Sci-Fi", "--max-year", "1977", "--min-rating", "5")

        // then
        let foundIDs = try #require(try json(found)["movies"] as? [[String: Any]]).compactMap { $0["id"] as? String }
        let filteredIDs = try #require(try json(filtered)["movies"] as? [[String: Any]]).compactMap {
            $0["id"] as? String
        }
        #expect(foundIDs.contains(starWars))
        #expect(!filteredIDs.contains(starWars))
        #expect(table.exitStatus == 0)
        #expect(table.standardOutput.contains("Star Wars"))
    }

    @Test func showPrintsDirectorCastReviewsAndStats() async throws {
        // when
        let text = try await user.run("show", starWars)
        let data = try await user.run("show", starWars, "--json")

        // then
        #expect(text.exitStatus == 0, "\(text.standardError)")
        #expect(text.standardOutput.contains("Director:   George Lucas"))
        #expect(text.standardOutput.contains("Harrison Ford"))
        #expect(text.standardOutput.contains("Latest reviews"))
        let movie = try #require(try json(data)["movie"] as? [String: Any])
        #expect(movie["title"] as? String == "Star Wars")
        #expect((movie["director"] as? [String: Any])?["name"] as? String == "George Lucas")
        #expect(((movie["stats"] as? [String: Any])?["reviewCount"] as? Int ?? 0) >= 1)
    }

    @Test func anUnknownIDExitsWithStatus1() async throws {
        // given
        let id = UUID().uuidString.lowercased()

        // when
        let show = try await user.run("show", id)
        let delete = try await user.run("delete", id)

        // then
        expectFailure(show, status: 1, message: "no movie with id \(id)")
        expectFailure(delete, status: 1, message: "no movie with id \(id)")
    }

    // MARK: Writing

    @Test func addPrintsTheNewIDAndDeleteRemovesIt() async throws {
        // given
        let title = MoviesFixture.unique("千と千尋 Amélie")

        // when
        let added = try await user.run(
            "add", "--title", title, "--year", "2001", "--genre", "Animation", "--rating", "5", "--aspect", "academy",
            "--tags", "spirits,bathhouse")
        let id = added.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let shown = try await user.run("show", id, "--json")
        let deleted = try await user.run("delete", id)
        let afterDelete = try await user.run("show", id)

        // then
        #expect(added.exitStatus == 0, "\(added.standardError)")
        #expect(UUID(uuidString: id) != nil, "prints only the id: \(added.standardOutput)")
        let movie = try #require(try json(shown)["movie"] as? [String: Any])
        #expect(movie["title"] as? String == title)
        #expect(movie["aspectratio"] as? String == "ACADEMY")
        #expect(movie["tags"] as? [String] == ["spirits", "bathhouse"])
        #expect(deleted.exitStatus == 0)
        #expect(deleted.standardOutput == "Deleted \(id)\n")
        expectFailure(afterDelete, status: 1, message: "no movie with id")
    }

    @Test func reviewAndFavoritesNeedASignedInUser() async throws {
        // when
        let review = try await user.run("review", starWars, "--rating", "4")
        let favorites = try await user.run("favorites")
        let whoami = try await user.run("whoami")

        // then
        expectFailure(review, status: 4, message: "not signed in")
        expectFailure(favorites, status: 4, message: "not signed in")
        expectFailure(whoami, status: 4, message: "not signed in")
    }

    @Test func signupSignsInAndTheUserIsRememberedAcrossRunsUntilLogout() async throws {
        // given: an account made by one process
        let (uid, email, username) = try await signUp("critic")
        let title = MoviesFixture.unique("Review me")
        let id = try await user.run("add", "--title", title, "--year", "2020", "--genre", "Drama", "--rating", "3")
            .standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)

        // when: later processes read the user Firebase Auth kept in MOVIES_CONFIG_DIR
        let whoami = try await user.run("whoami", "--json")
        let text = try await user.run("whoami")
        let userFile = user.configuration.url.appendingPathComponent(
            "firebase-auth/__FIRAPP_DEFAULT/demo-project/user.json")
        let savedAfterSignup = FileManager.default.fileExists(atPath: userFile.path)
        let review = try await user.run("review", id, "--rating", "5", "--text", "Loved it")
        let shown = try await user.run("show", id)
        let reviewUnknown = try await user.run("review", UUID().uuidString, "--rating", "5")
        let logout = try await user.run("logout")
        let afterLogout = try await user.run("whoami")
        let reviewAfterLogout = try await user.run("review", id, "--rating", "1")

        // then
        let signedIn = try #require(try json(whoami)["user"] as? [String: Any])
        #expect(signedIn["uid"] as? String == uid)
        #expect(signedIn["email"] as? String == email)
        #expect(signedIn["displayName"] as? String == username)
        #expect(signedIn["emailVerified"] as? Bool == false)
        #expect(signedIn["signInProvider"] as? String == "password")
        #expect((signedIn["claims"] as? [String: Any])?.isEmpty == true)
        #expect(text.standardOutput.hasPrefix("Signed in as \(username) (uid \(uid), \(email))\n"))
        #expect(text.standardOutput.contains("  provider:        password\n"))
        #expect(savedAfterSignup, "Firebase Auth keeps the user under MOVIES_CONFIG_DIR")
        #expect(review.exitStatus == 0, "\(review.standardError)")
        #expect(review.standardOutput == "Reviewed \(title): 5/5\n")
        #expect(shown.standardOutput.contains("5/5  \(username): Loved it"))
        expectFailure(reviewUnknown, status: 1, message: "no movie with id")
        #expect(logout.standardOutput == "Signed out.\n")
        #expect(!FileManager.default.fileExists(atPath: userFile.path), "logout removes the kept user")
        expectFailure(afterLogout, status: 4, message: "not signed in")
        expectFailure(reviewAfterLogout, status: 4, message: "not signed in")
        _ = try await user.run("delete", id)
    }

    @Test func loginInAnotherConfigurationWithThePasswordFromStandardInput() async throws {
        // given: an account made by one user's configuration
        let (uid, email, username) = try await signUp("reader")
        let elsewhere = try MoviesUser()

        // when: another configuration (another machine) signs in, the password piped in
        let before = try await elsewhere.run("whoami")
        let login = try await elsewhere.run(["login", "--email", email, "--password-stdin"], input: "secret-1\n")
        let favorites = try await elsewhere.run("favorites")

        // then
        expectFailure(before, status: 4, message: "not signed in")
        #expect(login.exitStatus == 0, "\(login.standardError)")
        #expect(login.standardOutput == "Signed in as \(username) (uid \(uid), \(email))\n")
        #expect(favorites.exitStatus == 0, "a USER-level query works: \(favorites.standardError)")
        #expect(favorites.standardOutput.hasPrefix("No favorites yet"))
    }

    @Test func wrongPasswordUnknownEmailTakenEmailAndWeakPasswordAreOneLineErrors() async throws {
        // given
        let (_, email, _) = try await signUp("careful")
        let other = try MoviesUser()

        // when
        let wrong = try await other.run("login", "--email", email, "--password", "not-the-one")
        let unknown = try await other.run(
            "login", "--email", "nobody-\(UUID().uuidString)@example.com", "--password", "x1234567")
        let taken = try await other.run("signup", "--email", email, "--password", "secret-2")
        let weak = try await other.run(
            "signup", "--email", "weak-\(UUID().uuidString)@example.com", "--password", "123")
        let emptyStdin = try await other.run(["login", "--email", email, "--password-stdin"], input: "")
        let still = try await other.run("whoami")

        // then
        expectFailure(wrong, status: 4, message: "wrong password")
        expectFailure(unknown, status: 4, message: "no account with this email")
        expectFailure(taken, status: 1, message: "an account with this email exists already")
        expectFailure(weak, status: 1, message: "password too weak")
        expectFailure(emptyStdin, status: 2, message: "--password-stdin read no password")
        expectFailure(still, status: 4, message: "not signed in")
    }

    @Test func aClaimSetByAnAdminAppearsInWhoamiAfterTheNextLogin() async throws {
        // given
        let (uid, email, _) = try await signUp("admin-made-critic")

        // when: an admin sets a custom claim, and the user signs in again
        try await user.setCustomClaims(#"{"critic":true}"#, uid: uid)
        let login = try await user.run("login", "--email", email, "--password", "secret-1")
        let whoami = try await user.run("whoami", "--json")
        let text = try await user.run("whoami")

        // then
        #expect(login.exitStatus == 0, "\(login.standardError)")
        let signedIn = try #require(try json(whoami)["user"] as? [String: Any])
        #expect((signedIn["claims"] as? [String: Any])?["critic"] as? Bool == true)
        #expect(text.standardOutput.contains("  claims:          critic=true\n"))
    }

    @Test func authCommandsReportAnUnreachableEmulator() async throws {
        // when: nothing listens on port 1
        let result = try await ChildProcess.movies(
            ["login", "--email", "a@example.com", "--password", "secret-1", "--emulator", "127.0.0.1:1"],
            environment: user.environment)

        // then
        expectFailure(result, status: 3, message: "emulator unreachable at 127.0.0.1:1")
    }

    @Test func favoritesAddListAndRemove() async throws {
        // given
        try await signUp("fan")

        // when
        let add = try await user.run("favorites", "add", starWars)
        let list = try await user.run("favorites")
        let listJSON = try await user.run("favorites", "--json")
        let remove = try await user.run("favorites", "remove", starWars)
        let removeAgain = try await user.run("favorites", "remove", starWars)
        let empty = try await user.run("favorites")
        let addUnknown = try await user.run("favorites", "add", UUID().uuidString)

        // then
        #expect(add.exitStatus == 0, "\(add.standardError)")
        #expect(add.standardOutput == "Added Star Wars to your favorites.\n")
        #expect(list.outputLines.count == 2)
        #expect(list.outputLines.last?.hasPrefix("\(starWars)  Star Wars") == true)
        let favorites = try #require(try json(listJSON)["favorites"] as? [[String: Any]])
        #expect((favorites.first?["movie"] as? [String: Any])?["id"] as? String == starWars)
        #expect(remove.exitStatus == 0)
        expectFailure(removeAgain, status: 1, message: "movie \(starWars) is not one of your favorites")
        #expect(empty.standardOutput.hasPrefix("No favorites yet"))
        expectFailure(addUnknown, status: 1, message: "no movie with id")
    }

    // MARK: Watching

    @Test func watchPrintsAChangeMadeByAnotherProcessAndStopsOnSIGINT() async throws {
        // given: a genre only this test uses, watched from the start
        let genre = MoviesFixture.unique("Watch")
        let watch = try user.start("watch", "--genre", genre)
        #expect(await watch.waitForOutput(containing: "No movies."), "initial list: \(watch.standardOutput)")

        // when: another process adds a movie of that genre
        let added = try await user.run("add", "--title", "Heat Ω", "--year", "1995", "--genre", genre, "--rating", "4")
        let id = added.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let sawChange = await watch.waitForOutput(containing: "+ \(id)  Heat Ω (1995, \(genre), rating 4)")
        watch.send(SIGINT)
        let result = await watch.waitForExit()

        // then
        #expect(added.exitStatus == 0)
        #expect(sawChange, "watch output: \(watch.standardOutput)")
        #expect(result.exitStatus == 0, "stopped cleanly: \(result.standardError)")
        _ = try await user.run("delete", id)
    }

    @Test func watchStopsCleanlyOnSIGTERMAndStreamsJSON() async throws {
        // given
        let genre = MoviesFixture.unique("Quiet")
        let watch = try user.start("watch", "--genre", genre, "--json")
        #expect(await watch.waitForOutput(containing: "{\"movies\":[]}\n"))

        // when
        watch.send(SIGTERM)
        let result = await watch.waitForExit()

        // then
        #expect(result.exitStatus == 0, "\(result.standardError)")
        #expect(result.standardOutput == "{\"movies\":[]}\n")
    }
}

/// Measures how many terminal columns precede a position in a line, like a terminal would draw it.
enum DisplayWidthProbe {
    static func columns(before index: String.Index, in line: String) -> Int {
        line[..<index].reduce(0) { width, character in
            let scalar = character.unicodeScalars.first!.value
            let wide =
                (0x3000...0x9FFF).contains(scalar) || (0xAC00...0xD7A3).contains(scalar)
                || (0xFF00...0xFF60).contains(scalar)
            return width + (wide ? 2 : 1)
        }
    }
}
