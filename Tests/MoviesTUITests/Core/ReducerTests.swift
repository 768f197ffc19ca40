import MoviesModels
import MoviesTUICore
import Testing

@Suite struct NavigationTests {
    @Test func theFirstListSelectsTheFirstMovieInTitleOrder() {
        // when
        let state = Fixtures.state()

        // then
        #expect(state.visibleMovies.map(\.title) == ["Alien", "Amélie", "Casablanca", "Heat", "千と千尋の神隠し"])
        #expect(state.selectedID == "id-alien")
        #expect(state.selectedIndex == 0)
    }

    @Test func movingStopsAtBothEnds() {
        // given
        let state = Fixtures.state()

        // when
        let up = press(state, .up).0
        let down = press(state, .down, .character("j"), .down, .down, .down, .down, .down).0

        // then
        #expect(up.selectedIndex == 0)
        #expect(down.selectedIndex == 4)
        #expect(down.selectedID == "id-spirited")
    }

    @Test func homeEndAndPagesMoveAndScrollWithinBounds() {
        // given: 100 movies, 20 list rows (24 rows - 4)
        let state = Fixtures.state(Fixtures.many(100), rows: 24)
        #expect(state.listHeight == 20)

        // when
        let paged = press(state, .pageDown).0
        let end = press(state, .end).0
        let home = press(end, .character("g")).0
        let pastEnd = press(end, .pageDown, .down).0

        // then
        #expect(paged.selectedIndex == 20)
        #expect(paged.scrollOffset == 1)
        #expect(end.selectedIndex == 99)
        #expect(end.scrollOffset == 80)
        #expect(home.selectedIndex == 0)
        #expect(home.scrollOffset == 0)
        #expect(pastEnd.selectedIndex == 99)
    }

    @Test func scrollingKeepsTheSelectionOnScreen() {
        // given
        var state = Fixtures.state(Fixtures.many(50), rows: 10)  // 6 list rows

        // when: down 8 times, then up 5 times
        for _ in 0..<8 { state = press(state, .down).0 }
        let afterDown = state
        for _ in 0..<5 { state = press(state, .up).0 }

        // then
        #expect(afterDown.selectedIndex == 8)
        #expect(afterDown.scrollOffset == 3)
        #expect(state.selectedIndex == 3)
        #expect(state.scrollOffset == 3)
    }

    @Test func anEmptyListSelectsNothing() {
        // when
        let state = press(Fixtures.state([]), .down, .end, .enter)

        // then
        #expect(state.0.selectedID == nil)
        #expect(state.0.detail == nil)
        #expect(state.1.isEmpty)
    }
}

@Suite struct FilterSortSearchTests {
    @Test func fCyclesThroughAllGenresAndBack() {
        // given
        let state = Fixtures.state()
        #expect(state.genreChoices == [nil, "Animation", "Comedy", "Crime", "Romance", "Sci-Fi"])

        // when
        let once = press(state, .character("f")).0
        let all = press(
            state, .character("f"), .character("f"), .character("f"), .character("f"), .character("f"),
            .character("f")
        ).0

        // then
        #expect(once.genre == "Animation")
        #expect(once.visibleMovies.map(\.id) == ["id-spirited"])
        #expect(once.selectedID == "id-spirited")
        #expect(all.genre == nil)
        #expect(all.visibleMovies.count == 5)
    }

    @Test func theGenrePickerPicksAndCancels() {
        // given
        let state = Fixtures.state()

        // when
        let picked = press(state, .character("F"), .down, .down, .enter).0
        let cancelled = press(state, .character("F"), .down, .escape).0

        // then
        #expect(picked.genre == "Comedy")
        #expect(picked.mode == .browsing)
        #expect(picked.visibleMovies.map(\.title) == ["Amélie"])
        #expect(cancelled.genre == nil)
        #expect(cancelled.mode == .browsing)
    }

    @Test func sCyclesTheSortKeyAndSTogglesTheDirection() {
        // given
        let state = Fixtures.state()

        // when
        let byYear = press(state, .character("s")).0
        let byRatingDescending = press(state, .character("s"), .character("s"), .character("S")).0
        let backToTitle = press(byRatingDescending, .character("s")).0

        // then
        #expect(byYear.sort == MovieSort(key: .year))
        #expect(byYear.visibleMovies.map(\.title) == ["Casablanca", "Alien", "Heat", "Amélie", "千と千尋の神隠し"])
        #expect(byRatingDescending.sort == MovieSort(key: .rating, descending: true))
        #expect(byRatingDescending.visibleMovies.map(\.title) == ["Alien", "Casablanca", "千と千尋の神隠し", "Amélie", "Heat"])
        #expect(backToTitle.sort == MovieSort(key: .title, descending: true))
        #expect(backToTitle.visibleMovies.first?.title == "千と千尋の神隠し")
    }

    @Test func searchFiltersIncrementallyIgnoringCaseAndAccents() {
        // given
        let state = press(Fixtures.state(), .character("/")).0
        #expect(state.mode == .searching)

        // when
        let a = type(state, "a")
        let ame = type(state, "AME")
        let kanji = type(state, "千尋")
        let backspaced = press(ame, .backspace, .backspace).0

        // then
        #expect(a.visibleMovies.map(\.title) == ["Alien", "Amélie", "Casablanca", "Heat"])
        #expect(ame.visibleMovies.map(\.title) == ["Amélie"])
        #expect(kanji.visibleMovies.map(\.title) == ["千と千尋の神隠し"])
        #expect(backspaced.search == "A")
    }

    @Test func enterKeepsTheSearchAndEscapeClearsIt() {
        // given
        let searching = type(press(Fixtures.state(), .character("/")).0, "heat")

        // when
        let kept = press(searching, .enter).0
        let cleared = press(searching, .escape).0
        let clearedFromList = press(kept, .escape).0

        // then
        #expect(kept.mode == .browsing)
        #expect(kept.search == "heat")
        #expect(kept.selectedID == "id-heat")
        #expect(cleared.search == "")
        #expect(cleared.visibleMovies.count == 5)
        #expect(clearedFromList.search == "")
    }

    @Test func keysTypedInTheSearchAreNotCommands() {
        // when: q and ? are text while searching
        let state = type(press(Fixtures.state(), .character("/")).0, "q?")

        // then
        #expect(!state.isQuitting)
        #expect(state.mode == .searching)
        #expect(state.search == "q?")
    }
}

@Suite struct DetailTests {
    @Test func enterOpensTheDetailAndLoadsIt() {
        // given
        let state = press(Fixtures.state(), .down).0

        // when
        let (opened, effects) = press(state, .enter)

        // then
        #expect(opened.detail == DetailPane(movieID: "id-amelie", content: .loading))
        #expect(effects == [.loadDetail(movieID: "id-amelie")])
    }

    @Test func loadedDetailsShowOnlyForTheMovieStillOpen() {
        // given
        let opened = press(Fixtures.state(), .enter).0
        let details = MovieDetails(id: "id-alien", title: "Alien", director: .init(id: "d", name: "Ridley Scott"))
        let stale = MovieDetails(id: "id-heat", title: "Heat")

        // when
        let loaded = send(opened, .detailLoaded(stale), .detailLoaded(details)).0

        // then
        #expect(loaded.detail?.content == .loaded(details))
    }

    @Test func theDetailFollowsTheSelection() {
        // given
        let opened = press(Fixtures.state(), .enter).0

        // when
        let (moved, effects) = press(opened, .down)

        // then
        #expect(moved.detail == DetailPane(movieID: "id-amelie"))
        #expect(effects == [.loadDetail(movieID: "id-amelie")])
    }

    @Test func escapeAndLeftCloseTheDetail() {
        // given
        let opened = press(Fixtures.state(), .enter).0

        // when / then
        #expect(press(opened, .escape).0.detail == nil)
        #expect(press(opened, .left).0.detail == nil)
    }

    @Test func aFailedLoadIsShownInThePane() {
        // given
        let opened = press(Fixtures.state(), .enter).0

        // when
        let failed = send(opened, .detailFailed(movieID: "id-alien", message: "emulator unreachable")).0

        // then
        #expect(failed.detail?.content == .failed("emulator unreachable"))
    }
}

@Suite struct ReviewFormTests {
    let signedIn = send(Fixtures.state(), .signedIn(Fixtures.bob, favorites: [])).0

    @Test func reviewingNeedsASignedInUser() {
        // when
        let state = press(Fixtures.state(), .character("r")).0

        // then
        #expect(state.mode == .browsing)
        #expect(state.message == StatusMessage("Sign in to review: press L.", isError: true))
    }

    @Test func aValidFormIsSubmittedOnce() {
        // given
        let form = press(signedIn, .character("r")).0
        #expect(form.mode == .reviewing(ReviewForm(movieID: "id-alien", movieTitle: "Alien")))

        // when
        let filled = type(press(form, .character("4"), .tab).0, "Tense 千")
        let (submitted, effects) = press(filled, .enter)
        let (again, moreEffects) = press(submitted, .enter)

        // then
        #expect(effects == [.submitReview(movieID: "id-alien", rating: 4, text: "Tense 千")])
        guard case .reviewing(let state) = again.mode else {
            Issue.record("the form stays open while saving")
            return
        }
        #expect(state.isSubmitting)
        #expect(moreEffects.isEmpty)
    }

    @Test func aMissingRatingOrTextIsRejected() {
        // given
        let form = press(signedIn, .character("r")).0

        // when
        let noRating = press(form, .enter)
        let noText = press(form, .character("5"), .enter)
        let blankText = press(type(press(form, .character("5"), .tab).0, "   "), .enter)

        // then
        #expect(noRating.1.isEmpty)
        #expect(
            noRating.0.mode
                == .reviewing(
                    ReviewForm(movieID: "id-alien", movieTitle: "Alien", error: "Choose a rating from 1 to 5.")))
        #expect(noText.1.isEmpty)
        #expect(
            noText.0.mode
                == .reviewing(
                    ReviewForm(movieID: "id-alien", movieTitle: "Alien", rating: 5, error: "Write a few words.")))
        #expect(blankText.1.isEmpty)
    }

    @Test func ratingsOutsideOneToFiveAreRefusedAndArrowsStayInRange() {
        // given
        let form = press(signedIn, .character("r")).0

        // when
        let nine = press(form, .character("9")).0
        let up = press(form, .right, .right, .right, .right, .right, .right, .right).0
        let down = press(form, .left, .left).0

        // then
        #expect(
            nine.mode
                == .reviewing(ReviewForm(movieID: "id-alien", movieTitle: "Alien", error: "The rating is 1 to 5.")))
        #expect(up.mode == .reviewing(ReviewForm(movieID: "id-alien", movieTitle: "Alien", rating: 5)))
        #expect(down.mode == .reviewing(ReviewForm(movieID: "id-alien", movieTitle: "Alien", rating: 1)))
    }

    @Test func validationLimitsTheTextLength() {
        // given
        let long = String(repeating: "x", count: ReviewForm.maximumTextLength + 1)

        // then
        #expect(ReviewForm(movieID: "m", movieTitle: "M", rating: 3, text: long).validationError != nil)
        #expect(ReviewForm(movieID: "m", movieTitle: "M", rating: 3, text: "ok").validationError == nil)
    }

    @Test func savingClosesTheFormAndReloadsAnOpenDetail() {
        // given
        let submitted = press(type(press(signedIn, .enter, .character("r"), .character("3"), .tab).0, "ok"), .enter).0

        // when
        let (saved, effects) = send(submitted, .reviewSaved(movieID: "id-alien"))

        // then
        #expect(saved.mode == .browsing)
        #expect(saved.message == StatusMessage("Review saved."))
        #expect(effects == [.loadDetail(movieID: "id-alien")])
    }

    @Test func aFailedSaveKeepsTheFormWithTheError() {
        // given
        let submitted = press(type(press(signedIn, .character("r"), .character("3"), .tab).0, "ok"), .enter).0

        // when
        let failed = send(submitted, .reviewFailed("permission denied")).0

        // then
        #expect(
            failed.mode
                == .reviewing(
                    ReviewForm(
                        movieID: "id-alien", movieTitle: "Alien", rating: 3, text: "ok", focus: .text,
                        error: "permission denied")))
        #expect(failed.message?.isError == true)
    }

    @Test func escapeCancelsTheForm() {
        // when
        let (state, effects) = press(signedIn, .character("r"), .character("2"), .escape)

        // then
        #expect(state.mode == .browsing)
        #expect(effects.isEmpty)
    }
}

@Suite struct SignInTests {
    /// The sign-in screen with `email` and `password` typed.
    private func filled(_ email: String, _ password: String) -> AppState {
        type(press(type(press(Fixtures.state(), .character("L")).0, email), .tab).0, password)
    }

    @Test func lOpensTheSignInScreenAndEnterSignsIn() {
        // given
        let opened = press(Fixtures.state(), .character("L")).0
        #expect(opened.mode == .signingIn(SignInForm()))

        // when
        let (pending, effects) = press(filled("ada@example.com", "secret-1"), .enter)
        let signedIn = send(
            pending, .signedIn(Account(uid: "uid-ada", email: "ada@example.com"), favorites: ["id-heat"])
        ).0

        // then
        #expect(effects == [.signIn(email: "ada@example.com", password: "secret-1")])
        #expect(
            pending.mode
                == .signingIn(
                    SignInForm(email: "ada@example.com", password: "secret-1", focus: .password, isSubmitting: true)))
        #expect(pending.pendingSignIn == "ada@example.com")
        #expect(signedIn.mode == .browsing)
        #expect(signedIn.user == Account(uid: "uid-ada", email: "ada@example.com"))
        #expect(signedIn.favorites == ["id-heat"])
        #expect(signedIn.pendingSignIn == nil)
        #expect(signedIn.message == StatusMessage("Signed in as ada@example.com."))
    }

    @Test func tabMovesThroughTheFieldsAndTheChoiceTogglesCreateAccount() {
        // given
        let form = filled("new@example.com", "secret-1")

        // when: Tab to the choice, Right toggles, Enter submits
        let choice = press(form, .tab).0
        let toggled = press(choice, .right).0
        let (_, effects) = press(toggled, .enter)
        let back = press(toggled, .character(" "), .backTab, .backTab).0

        // then
        guard case .signingIn(let toggledForm) = toggled.mode, case .signingIn(let backForm) = back.mode else {
            Issue.record("the sign-in screen stays open")
            return
        }
        #expect(toggledForm.focus == .choice)
        #expect(toggledForm.choice == .createAccount)
        #expect(effects == [.createAccount(email: "new@example.com", password: "secret-1")])
        #expect(backForm.choice == .signIn)
        #expect(backForm.focus == .email)
    }

    @Test func typingGoesToTheFocusedFieldAndBackspaceErases() {
        // when
        let state = press(filled("ad", "pw"), .backspace, .up).0
        let erased = press(type(state, "x"), .backspace, .backspace).0

        // then
        guard case .signingIn(let form) = erased.mode else {
            Issue.record("the sign-in screen stays open")
            return
        }
        #expect(form.email == "a")
        #expect(form.password == "p")
        #expect(form.focus == .email)
    }

    @Test func anIncompleteFormIsNotSubmitted() {
        // when
        let (noEmail, noEmailEffects) = press(Fixtures.state(), .character("L"), .enter)
        let (noPassword, noPasswordEffects) = press(filled("ada@example.com", ""), .enter)
        let (badEmail, badEmailEffects) = press(filled("ada", "secret-1"), .enter)

        // then
        #expect(noEmailEffects.isEmpty && noPasswordEffects.isEmpty && badEmailEffects.isEmpty)
        #expect(noEmail.mode == .signingIn(SignInForm(error: "Type an email such as ada@example.com.")))
        if case .signingIn(let form) = noPassword.mode { #expect(form.error == "Type the password.") }
        if case .signingIn(let form) = badEmail.mode { #expect(form.error == "Type an email such as ada@example.com.") }
        #expect(noEmail.pendingSignIn == nil)
    }

    @Test func aRefusalShowsInTheFormWhichStaysOpenForAnotherTry() {
        // given
        let pending = press(filled("ada@example.com", "wrong"), .enter).0

        // when
        let failed = send(pending, .signInFailed("Wrong password.")).0
        let ignoredWhileSubmitting = press(pending, .character("x")).0

        // then
        #expect(failed.user == nil)
        #expect(failed.pendingSignIn == nil)
        #expect(
            failed.mode
                == .signingIn(
                    SignInForm(email: "ada@example.com", password: "wrong", focus: .password, error: "Wrong password."))
        )
        #expect(failed.message == StatusMessage("Sign-in failed: Wrong password.", isError: true))
        #expect(ignoredWhileSubmitting == pending)
    }

    @Test func escapeClosesTheScreen() {
        // when
        let (closed, effects) = press(filled("ada@example.com", "secret-1"), .escape)

        // then
        #expect(closed.mode == .browsing)
        #expect(effects.isEmpty)
    }

    @Test func aKeptUserSignsInWithoutTheScreen() {
        // given: the shell found a user Firebase Auth kept from an earlier run
        var starting = Fixtures.state()
        starting.pendingSignIn = "bob@example.com"

        // when
        let signedIn = send(starting, .signedIn(Fixtures.bob, favorites: [])).0

        // then
        #expect(signedIn.user == Fixtures.bob)
        #expect(signedIn.mode == .browsing)
    }

    @Test func oSignsOutAndForgetsFavorites() {
        // given
        let signedIn = send(Fixtures.state(), .signedIn(Fixtures.bob, favorites: ["id-alien"])).0

        // when
        let (signedOut, effects) = press(signedIn, .character("O"))

        // then
        #expect(effects == [.signOut])
        #expect(signedOut.user == nil)
        #expect(signedOut.favorites.isEmpty)
        #expect(signedOut.message == StatusMessage("Signed out bob@example.com."))
    }

    @Test func starTogglesTheSelectedFavorite() {
        // given
        let signedIn = send(Fixtures.state(), .signedIn(Fixtures.bob, favorites: ["id-alien"])).0

        // when
        let (_, removeEffects) = press(signedIn, .character("*"))
        let (_, addEffects) = press(signedIn, .down, .character("*"))
        let added = send(signedIn, .favoriteChanged(movieID: "id-heat", isFavorite: true)).0
        let (_, signedOutEffects) = press(Fixtures.state(), .character("*"))

        // then
        #expect(removeEffects == [.setFavorite(movieID: "id-alien", isFavorite: false)])
        #expect(addEffects == [.setFavorite(movieID: "id-amelie", isFavorite: true)])
        #expect(added.favorites == ["id-alien", "id-heat"])
        #expect(signedOutEffects.isEmpty)
    }
}

@Suite struct DataUpdateTests {
    @Test func anUpdateKeepsTheSelectionOnTheSameMovie() {
        // given: Casablanca selected (third by title)
        let state = press(Fixtures.state(), .down, .down).0
        #expect(state.selectedID == "id-casablanca")

        // when: two movies sorting before it arrive
        let added = [
            MovieRow(id: "id-a", title: "A Bug's Life", genre: "Animation", releaseYear: 1998, rating: 3),
            MovieRow(id: "id-b", title: "Brazil", genre: "Sci-Fi", releaseYear: 1985, rating: 4),
        ]
        let updated = send(state, .moviesLoaded(Fixtures.movies + added)).0

        // then
        #expect(updated.selectedID == "id-casablanca")
        #expect(updated.selectedIndex == 4)
    }

    @Test func whenTheSelectedMovieGoesTheSelectionStaysOnItsRow() {
        // given
        let state = press(Fixtures.state(), .down, .down).0

        // when
        let updated = send(state, .moviesLoaded(Fixtures.movies.filter { $0.id != "id-casablanca" })).0

        // then
        #expect(updated.selectedIndex == 2)
        #expect(updated.selectedID == "id-heat")
    }

    @Test func anOpenDetailOfADeletedMovieCloses() {
        // given
        let opened = press(Fixtures.state(), .enter).0

        // when
        let (updated, effects) = send(opened, .moviesLoaded(Fixtures.movies.filter { $0.id != "id-alien" }))

        // then
        #expect(updated.detail == nil)
        #expect(updated.message == StatusMessage("The movie shown was deleted."))
        #expect(effects.isEmpty)
    }

    @Test func aFeedErrorShowsUntilTheNextList() {
        // given
        let failed = send(Fixtures.state(), .feedFailed("emulator unreachable")).0

        // when
        let recovered = send(failed, .moviesLoaded(Fixtures.movies)).0

        // then
        #expect(failed.feedError == "emulator unreachable")
        #expect(recovered.feedError == nil)
    }
}

@Suite struct OverlayAndQuitTests {
    @Test func questionMarkOpensHelpAndAnyKeyClosesIt() {
        // given
        let help = press(Fixtures.state(), .character("?")).0

        // when
        let closed = press(help, .character("q")).0

        // then
        #expect(help.mode == .help)
        #expect(Screen.render(help).overlay?.lines.first?.text.contains("Keys") == true)
        #expect(closed.mode == .browsing)
        #expect(!closed.isQuitting)
    }

    @Test func qAndInterruptsQuit() {
        #expect(press(Fixtures.state(), .character("q")).0.isQuitting)
        #expect(send(Fixtures.state(), .interrupted).0.isQuitting)
        #expect(send(press(Fixtures.state(), .character("/")).0, .interrupted).0.isQuitting)
    }

    @Test func rRequestsARefresh() {
        #expect(press(Fixtures.state(), .character("R")).1 == [.refresh])
    }
}
