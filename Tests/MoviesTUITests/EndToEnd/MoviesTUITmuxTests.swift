import DataConnectTestSupport
import DataConnectTesting
import Foundation
import Testing

/// Runs the built `movies-tui` in a real terminal (a private tmux server) against an in-process emulator.
@Suite(.serialized) struct MoviesTUITmuxTests {
    private func startEmulator() throws -> TestEmulator {
        try TestEmulator(backend: RepositoryPaths.movies, seedFile: RepositoryPaths.moviesSeed)
    }

    /// Runs the `movies` CLI to completion with a private configuration folder; standard error follows standard
    /// output.
    static func runCLI(
        _ arguments: [String], configuration: TemporaryDirectory
    ) async throws -> (status: Int32?, output: String) {
        let result = try await ChildProcess.run(
            BuiltExecutable.require("movies"), arguments,
            environment: ChildProcess.environment(adding: ["MOVIES_CONFIG_DIR": configuration.path, "NO_COLOR": "1"]))
        return (result.exitStatus, result.standardOutput + result.standardError)
    }

    /// `sh -c` text running movies-tui, then printing its exit status and idling, so the pane survives it.
    ///
    /// `MOVIES_CONFIG_DIR` gives the run a private place for the user Firebase Auth keeps.
    private func command(_ executable: URL, emulator: TestEmulator, configuration: TemporaryDirectory) -> String {
        "MOVIES_CONFIG_DIR='\(configuration.path)' '\(executable.path)' --emulator \(emulator.host):\(emulator.port); "
            + "echo \"movies-tui exited $?\"; sleep 600"
    }

    /// Fills the sign-in screen (opened with L) and submits it; `create` switches the action to Create account.
    private func signIn(_ tmux: Tmux, email: String, password: String, create: Bool) throws {
        try tmux.keys("L")
        try tmux.type(email)
        try tmux.keys("Tab")
        try tmux.type(password)
        if create { try tmux.keys("Tab", "Right") }
        try tmux.keys("Enter")
    }

    private func expectScreen(
        _ result: (Bool, String), _ what: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            result.0, "\(what) (hang guard: not after \(HangGuard.process)); the screen was:\n\(result.1)",
            sourceLocation: sourceLocation)
    }

    @Test func browsesReviewsSeesOtherProcessesChangesAndRestoresTheTerminalOnQ() async throws {
        // given: a seeded emulator and movies-tui in a 120x40 terminal
        let tmux = try Tmux()
        defer { tmux.kill() }
        let executable = try BuiltExecutable.require("movies-tui")
        let emulator = try startEmulator()
        let configuration = try TemporaryDirectory(prefix: "movies-tui-config")
        defer { configuration.remove() }
        try tmux.start(command(executable, emulator: emulator, configuration: configuration))
        expectScreen(try await tmux.waitFor("79 movies"), "the seeded list loads")
        let first = try tmux.screen()
        #expect(first.contains(" movies-tui   Genre: All   Sort: title asc"))
        #expect(first.contains("Alien"))
        #expect(first.contains("127.0.0.1:\(emulator.port) | signed out"))

        // when: filtering by genre (f cycles: All, Action, Animation)
        try tmux.keys("f", "f")
        // then
        expectScreen(try await tmux.waitFor("Genre: Animation"), "f cycles to Animation")
        let animation = try tmux.screen()
        #expect(animation.contains("Coco"))
        #expect(animation.contains("千と千尋の神隠し"))
        #expect(!animation.contains("Alien"))
        #expect(animation.contains("10 of 79 movies"))

        // when: picking All from the genre list
        try tmux.keys("F", "Up", "Up", "Enter")
        expectScreen(try await tmux.waitFor("Genre: All"), "the picker selects All")

        // when: searching and opening the detail pane
        try tmux.keys("/")
        try tmux.type("star wars")
        try tmux.keys("Enter", "Enter")
        // then
        expectScreen(try await tmux.waitFor("Director: George Lucas"), "the detail pane shows Star Wars")
        #expect(try tmux.screen().contains("| Star Wars (1977)"))

        // when: creating an account on the sign-in screen (L), signing out, failing and signing in again
        let email = "tmux-\(UUID().uuidString.prefix(6).lowercased())@example.com"
        let username = String(email.prefix(11))
        try signIn(tmux, email: email, password: "secret-1", create: true)
        expectScreen(try await tmux.waitFor("signed in as \(email)"), "the new account shows in the status bar")
        try tmux.keys("O")
        expectScreen(try await tmux.waitFor("Signed out \(email)."), "O signs out")
        try signIn(tmux, email: email, password: "not-the-one", create: false)
        expectScreen(try await tmux.waitFor("Wrong password."), "a wrong password shows in the sign-in screen")
        try tmux.keys(
            "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace"
        )
        try tmux.type("secret-1")
        try tmux.keys("Enter")
        expectScreen(try await tmux.waitFor("signed in as \(email)"), "signing in again shows in the status bar")
        try tmux.keys("r", "5", "Tab")
        try tmux.type("Still great, 素晴らしい")
        try tmux.keys("Enter")
        // then
        expectScreen(try await tmux.waitFor("Review saved."), "the review is saved")
        expectScreen(
            try await tmux.waitForScreen { $0.contains("5/5  \(username)-") && $0.contains(": Still great, 素晴") },
            "the review shows in the detail pane under the new account's username")

        // when: another user reviews the same movie from another process, while its detail pane is open
        let other = try TemporaryDirectory(prefix: "movies-cli-tui")
        defer { other.remove() }
        let address = "\(emulator.host):\(emulator.port)"
        let signup = try await Self.runCLI(
            [
                "signup", "--email", "other@example.com", "--password", "secret-1", "--name", "uid-other",
                "--emulator", address,
            ], configuration: other)
        #expect(signup.status == 0, "movies signup: \(signup.output)")
        let review = try await Self.runCLI(
            [
                "review", "252ff53a-a807-5c12-840b-96bff4798d7b", "--rating", "4", "--text", "From another terminal",
                "--emulator", address,
            ], configuration: other)
        #expect(review.status == 0, "movies review: \(review.output)")
        // then: the pane follows the movie's subscription
        expectScreen(
            try await tmux.waitFor("uid-other: From another terminal"),
            "another process's review appears in the open detail pane")

        // when: another process adds movies, newest first
        try tmux.keys("Escape", "Escape", "s", "S", "g")
        expectScreen(try await tmux.waitFor("Sort: year desc"), "sorting by year, descending")
        // (the movies CLI, as a separate process, through the same emulator)
        let anonymous = try TemporaryDirectory(prefix: "movies-cli-tui")
        defer { anonymous.remove() }
        for (title, year, genre, rating) in [
            ("Amélie Returns", "2030", "Comedy", "4"), ("千と千尋の神隠し 2", "2031", "Animation", "5"),
        ] {
            let added = try await Self.runCLI(
                [
                    "add", "--title", title, "--year", year, "--genre", genre, "--rating", rating,
                    "--emulator", "\(emulator.host):\(emulator.port)",
                ], configuration: anonymous)
            #expect(added.status == 0, "movies add: \(added.output)")
        }
        // then: the list shows them, at the top
        let live = try await tmux.waitForScreen {
            $0.contains("千と千尋の神隠し 2") && $0.contains("Amélie Returns") && $0.contains("81 movies")
        }
        expectScreen(live, "the new movies appear live")
        let lines = live.1.split(separator: "\n").map(String.init)
        #expect(lines.count > 3 && lines[2].contains("千と千尋の神隠し 2") && lines[2].contains("2031"), "\(live.1)")
        #expect(lines.count > 3 && lines[3].contains("Amélie Returns"), "\(live.1)")

        // when: quitting
        try tmux.keys("q")
        // then: the shell's line follows a restored screen
        let exited = try await tmux.waitFor("movies-tui exited 0")
        expectScreen(exited, "movies-tui exits with status 0")
        #expect(!exited.1.contains("movies-tui   Genre:"), "the TUI is gone:\n\(exited.1)")
    }

    @Test func ctrlCAndSIGTERMQuitCleanly() async throws {
        // given
        let tmux = try Tmux()
        defer { tmux.kill() }
        let executable = try BuiltExecutable.require("movies-tui")
        let emulator = try startEmulator()
        // The second run starts signed in: `movies signup` left the user in the configuration folder both share.
        let configuration = try TemporaryDirectory(prefix: "movies-tui-config")
        defer { configuration.remove() }
        let signup = try await Self.runCLI(
            [
                "signup", "--email", "term@example.com", "--password", "secret-1", "--name", "uid-term",
                "--emulator", "\(emulator.host):\(emulator.port)",
            ], configuration: configuration)
        #expect(signup.status == 0, "movies signup: \(signup.output)")
        // `trap : INT` keeps the shell alive when Ctrl-C reaches the whole foreground process group; a trap
        // with a command (unlike an ignored signal) is reset to the default in the children.
        let twice =
            "trap : INT; MOVIES_CONFIG_DIR='\(configuration.path)/first' '\(executable.path)' --emulator \(emulator.host):\(emulator.port); echo \"first exited $?\"; "
            + "MOVIES_CONFIG_DIR='\(configuration.path)' '\(executable.path)' --emulator \(emulator.host):\(emulator.port); "
            + "echo \"second exited $?\"; sleep 600"
        try tmux.start(twice)
        expectScreen(try await tmux.waitFor("79 movies"), "the list loads")

        // when: Ctrl-C
        try tmux.keys("C-c")
        // then: the second run starts, so the first one ended (its status shows once the second restores the screen)
        expectScreen(try await tmux.waitFor("signed in as uid-term"), "Ctrl-C quits; the second run starts signed in")

        // when: SIGTERM to the second run
        let shell = try tmux.display("#{pane_pid}")
        let children = try String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        let child = try #require(children.split(separator: " ").first.flatMap { Int32($0) }, "movies-tui's pid")
        kill(child, SIGTERM)
        // then
        let second = try await tmux.waitForScreen { $0.contains("second exited") }
        expectScreen(second, "SIGTERM ends the second run")
        #expect(second.1.contains("first exited 0"), "Ctrl-C exits with status 0:\n\(second.1)")
        #expect(second.1.contains("second exited 0"), "SIGTERM exits with status 0:\n\(second.1)")
        #expect(!second.1.contains("movies-tui   Genre:"), "the TUI is gone:\n\(second.1)")
    }

    @Test func anUnreachableEmulatorRestoresTheTerminalThenReportsTheErrorAndExits1() async throws {
        // given: nothing listens on port 1
        let tmux = try Tmux()
        defer { tmux.kill() }
        let executable = try BuiltExecutable.require("movies-tui")
        try tmux.start("'\(executable.path)' --emulator 127.0.0.1:1; echo \"movies-tui exited $?\"; sleep 600")
        expectScreen(try await tmux.waitFor("update failed: emulator unreachable"), "the status bar shows the error")

        // when: the start-up timeout (15 s) passes
        let exited = try await tmux.waitFor("movies-tui exited")

        // then: the message is printed on the restored screen, after the TUI is gone
        expectScreen(exited, "movies-tui gives up")
        #expect(
            exited.1.contains("movies-tui: error: cannot load movies from the emulator at 127.0.0.1:1"), "\(exited.1)")
        #expect(exited.1.contains("movies-tui exited 1"), "\(exited.1)")
        #expect(!exited.1.contains("movies-tui   Genre:"), "the TUI is gone:\n\(exited.1)")
    }
}
