import MoviesModels
import MoviesTUICore
import Testing

@Suite struct ScreenTests {
    private func widths(_ frame: Frame) -> [Int] {
        frame.lines.map { DisplayWidth.of($0.text) }
    }

    @Test(arguments: [(24, 80), (40, 120), (10, 30), (5, 12), (3, 20), (60, 200)])
    func everyLineFillsTheWidthExactly(rows: Int, columns: Int) {
        // given: wide titles, a search, a message and an open detail pane
        var state = press(Fixtures.state(rows: rows, columns: columns), .end).0
        state =
            send(
                state, .key(.enter),
                .detailLoaded(
                    MovieDetails(
                        id: "id-spirited", title: "千と千尋の神隠し",
                        releaseYear: 2001, director: .init(id: "d", name: "宮崎駿"),
                        reviews: [
                            .init(rating: 5, text: "素晴らしい映画でした。とても長いレビュー", reviewDate: "2024-01-01", username: "ユーザー")
                        ]))
            ).0
        state.message = StatusMessage("A rather long message that will certainly not fit on a narrow screen")

        // when
        let frame = Screen.render(state)

        // then
        #expect(frame.lines.count == rows)
        #expect(widths(frame).allSatisfy { $0 == columns }, "\(frame.lines.map(\.text))")
    }

    @Test func wideTitlesAreClippedByDisplayWidthNotCharacters() {
        // given: a 40-column list leaves 15 columns for titles
        let state = Fixtures.state(
            [MovieRow(id: "w", title: "千と千尋の神隠し千と千尋の神隠し", genre: "Animation", releaseYear: 2001, rating: 5)],
            rows: 6, columns: 40)

        // when
        let row = Screen.render(state).lines[2].text

        // then: 7 wide characters (14 columns) then the ellipsis
        #expect(row.contains("千と千尋の神隠…"))
        #expect(DisplayWidth.of(row) == 40)
    }

    @Test func theListShowsTitleYearGenreAndRatingWithAFavoriteMarker() {
        // given
        let state = send(Fixtures.state(), .signedIn(Fixtures.bob, favorites: ["id-amelie"])).0

        // when
        let lines = Screen.render(state).lines.map(\.text)

        // then
        #expect(lines[0].hasPrefix(" movies-tui   Genre: All   Sort: title asc"))
        #expect(lines[1].contains("TITLE") && lines[1].contains("YEAR") && lines[1].contains("RATING"))
        #expect(lines[2].hasPrefix("  Alien"))
        #expect(lines[3].hasPrefix("* Amélie"))
        #expect(lines[3].contains("2001 Comedy"))
        #expect(lines[3].hasSuffix("4/5"))
        #expect(Screen.render(state).lines[2].spans.first?.style == .selected)
        #expect(lines[23].contains("127.0.0.1:9399 | signed in as bob@example.com | 5 movies"))
    }

    @Test func theDetailPaneSitsBesideTheListOnWideScreensAndReplacesItOnNarrowOnes() {
        // given
        let details = MovieDetails(
            id: "id-alien", title: "Alien", releaseYear: 1979, genre: "Sci-Fi", rating: 5,
            director: .init(id: "d", name: "Ridley Scott"),
            cast: [.init(id: "a", name: "Sigourney Weaver", role: "main")],
            reviews: [.init(rating: 4, text: "Tense", reviewDate: "2024-05-01", username: "alice")],
            stats: .init(reviewCount: 3, averageRating: 4.333, favoriteCount: 2))
        let wide = send(Fixtures.state(rows: 24, columns: 120), .key(.enter), .detailLoaded(details)).0
        let narrow = send(Fixtures.state(rows: 24, columns: 60), .key(.enter), .detailLoaded(details)).0

        // when
        let wideText = Screen.render(wide).lines.map(\.text).joined(separator: "\n")
        let narrowLines = Screen.render(narrow).lines.map(\.text)

        // then
        #expect(wideText.contains("  Alien"))
        #expect(wideText.contains("| Alien (1979)"))
        #expect(wideText.contains("Director: Ridley Scott"))
        #expect(wideText.contains("Average rating: 4.3/5 (3 reviews)   Favorites: 2"))
        #expect(wideText.contains("Sigourney Weaver (main)"))
        #expect(wideText.contains("2024-05-01  4/5  alice: Tense"))
        #expect(narrowLines[2].hasPrefix(" Alien (1979)"))
        #expect(!narrowLines.contains { $0.contains("Casablanca") })
    }

    @Test func aResizeReLaysOutTheFrame() {
        // given
        let state = Fixtures.state(Fixtures.many(50), rows: 40, columns: 120)
        let selectedLast = press(state, .end).0

        // when
        let resized = send(selectedLast, .resized(ScreenSize(rows: 12, columns: 50))).0
        let frame = Screen.render(resized)

        // then
        #expect(frame.lines.count == 12)
        #expect(widths(frame).allSatisfy { $0 == 50 })
        #expect(resized.listHeight == 8)
        #expect(resized.scrollOffset == 42)
        #expect(frame.lines[9].spans.first?.style == .selected)
    }

    @Test func promptsShowOnTheLineAboveTheStatusBar() {
        // given
        let searching = type(press(Fixtures.state(), .character("/")).0, "am")
        let signingIn = type(press(Fixtures.state(), .character("L")).0, "ada@")

        // then
        #expect(Screen.render(searching).lines[22].text.hasPrefix("/am_"))
        #expect(Screen.render(signingIn).lines[22].text.hasPrefix("Sign in: Tab next field, Enter submits"))
    }

    @Test func theHelpLineOffersSignInOrSignOutAndTheSignInScreenMasksThePassword() throws {
        // given
        let signedOut = Fixtures.state(columns: 100)
        let signedIn = send(signedOut, .signedIn(Fixtures.bob, favorites: [])).0
        let form = press(type(press(type(press(signedOut, .character("L")).0, "ada@example.com"), .tab).0, "pw"), .tab)
            .0
        let creating = press(form, .right).0

        // when
        let overlay = try #require(Screen.render(form).overlay).lines.map(\.text)
        let creatingOverlay = try #require(Screen.render(creating).overlay).lines.map(\.text)

        // then
        #expect(Screen.render(signedOut).lines[22].text.contains("L sign in"))
        #expect(Screen.render(signedIn).lines[22].text.contains("O sign out"))
        #expect(overlay[0].hasPrefix(" Sign in "))
        #expect(overlay[1].hasPrefix(" Email:     ada@example.com "))
        #expect(overlay[2].hasPrefix(" Password:  ** "))
        #expect(overlay[3].hasPrefix(" Action:    [Sign in]  Create account  <"))
        #expect(creatingOverlay[0].hasPrefix(" Create an account"))
        #expect(creatingOverlay[3].hasPrefix(" Action:     Sign in  [Create account]  <"))
        #expect(!overlay.joined().contains("pw"))
    }

    @Test func overlaysFitTheScreen() {
        // given
        let signedIn = send(Fixtures.state(rows: 10, columns: 40), .signedIn(Fixtures.bob, favorites: [])).0
        let states = [
            type(press(Fixtures.state(rows: 10, columns: 40), .character("L")).0, String(repeating: "千", count: 60)),
            press(signedIn, .character("?")).0,
            press(signedIn, .character("F")).0,
            type(press(signedIn, .character("r"), .character("4"), .tab).0, String(repeating: "千", count: 40)),
        ]

        for state in states {
            // when
            let overlay = Screen.render(state).overlay

            // then
            let box = try! #require(overlay)
            #expect(box.lines.count <= 10)
            #expect(box.left + box.width <= 40)
            #expect(box.lines.allSatisfy { DisplayWidth.of($0.text) == box.width })
        }
    }

    @Test func theStatusBarShowsFeedErrorsInTheErrorStyle() {
        // given
        let state = send(Fixtures.state(), .feedFailed("emulator unreachable")).0

        // when
        let status = Screen.render(state).lines[23]

        // then
        #expect(status.spans.last?.style == .error)
        #expect(status.text.contains("update failed: emulator unreachable"))
    }
}

@Suite struct TextCellsTests {
    @Test func clipsWideCharactersWithoutSplittingThem() {
        #expect(TextCells.clip("千と千尋の神隠し", to: 7) == "千と千…")
        #expect(TextCells.clip("千と千尋の神隠し", to: 16) == "千と千尋の神隠し")
        #expect(TextCells.fit("千と", to: 5) == "千と ")
        #expect(TextCells.fit("Amélie", to: 8, alignRight: true) == "  Amélie")
        #expect(TextCells.clip("line\nbreak", to: 20) == "line break")
        #expect(TextCells.clip("anything", to: 0) == "")
    }
}

@Suite struct LaunchCommandTests {
    @Test func parsesOptionsAndFallsBackToTheEnvironment() throws {
        #expect(try LaunchCommand.parse([], environment: [:]) == .run(LaunchOptions(emulator: .standard)))
        #expect(
            try LaunchCommand.parse([], environment: ["FIREBASE_DATA_CONNECT_EMULATOR_HOST": "localhost:9000"])
                == .run(LaunchOptions(emulator: EmulatorAddress(host: "localhost", port: 9000))))
        #expect(
            try LaunchCommand.parse(["--emulator", "127.0.0.1:1234"], environment: ["MOVIES_CONFIG_DIR": "/tmp/a"])
                == .run(
                    LaunchOptions(
                        emulator: EmulatorAddress(host: "127.0.0.1", port: 1234),
                        signInDirectory: "/tmp/a/firebase-auth")))
        #expect(throws: LaunchError("unknown argument \"--uid\"")) {
            try LaunchCommand.parse(["--uid", "alice"], environment: [:])
        }
        #expect(try LaunchCommand.parse(["--help"], environment: [:]) == .help)
    }

    @Test func rejectsBadArguments() {
        #expect(throws: LaunchError("unknown argument \"--sort\"")) {
            try LaunchCommand.parse(["--sort"], environment: [:])
        }
        #expect(throws: LaunchError("--emulator needs HOST:PORT")) {
            try LaunchCommand.parse(["--emulator"], environment: [:])
        }
        #expect(throws: LaunchError("--emulator must be HOST:PORT, got \"nope\"")) {
            try LaunchCommand.parse(["--emulator", "nope"], environment: [:])
        }
    }

    @Test func helpListsEveryKey() {
        for binding in KeyBindings.all { #expect(LaunchOptions.helpText.contains(binding.action)) }
    }
}
