import Foundation

/// The app's only logic: the state after `action`, and the effects the shell must run.
///
/// Pure: no I/O, no clock, no ncurses. The shell feeds it keys, resizes and effect results, draws
/// ``Screen/render(_:)`` of the new state, and runs the effects.
///
/// ```swift
/// let (next, effects) = reduce(state, .key(.enter))   // opens the detail pane: [.loadDetail(movieID: ...)]
/// ```
///
/// - Parameters:
///   - state: The state before.
///   - action: What happened.
/// - Returns: The state after, and the effects to run, in order.
public func reduce(_ state: AppState, _ action: Action) -> (AppState, [Effect]) {
    var reducer = Reduction(state: state)
    reducer.apply(action)
    reducer.normalizeSelection()
    return (reducer.state, reducer.effects)
}

/// One call of ``reduce(_:_:)``: the state being changed and the effects collected.
private struct Reduction {
    var state: AppState
    var effects: [Effect] = []

    mutating func apply(_ action: Action) {
        switch action {
        case .key(let key):
            handle(key)
        case .resized(let size):
            state.size = ScreenSize(rows: max(1, size.rows), columns: max(1, size.columns))
        case .interrupted:
            state.isQuitting = true
        case .moviesLoaded(let movies):
            state.movies = movies
            state.hasLoaded = true
            state.feedError = nil
            if let detail = state.detail, !movies.contains(where: { $0.id == detail.movieID }) {
                state.detail = nil
                state.message = StatusMessage("The movie shown was deleted.")
            }
        case .feedFailed(let message):
            state.feedError = message
        case .detailLoaded(let details):
            guard state.detail?.movieID == details.id else { return }
            state.detail?.content = .loaded(details)
        case .detailFailed(let movieID, let message):
            guard state.detail?.movieID == movieID else { return }
            state.detail?.content = .failed(message)
        case .reviewSaved(let movieID):
            if case .reviewing(let form) = state.mode, form.movieID == movieID { state.mode = .browsing }
            state.message = StatusMessage("Review saved.")
            if state.detail?.movieID == movieID { effects.append(.loadDetail(movieID: movieID)) }
        case .reviewFailed(let message):
            if case .reviewing(var form) = state.mode {
                form.isSubmitting = false
                form.error = message
                state.mode = .reviewing(form)
            }
            state.message = StatusMessage("Review not saved: \(message)", isError: true)
        case .favoriteChanged(let movieID, let isFavorite):
            if isFavorite { state.favorites.insert(movieID) } else { state.favorites.remove(movieID) }
            let title = state.movies.first { $0.id == movieID }?.title ?? movieID
            state.message = StatusMessage(
                isFavorite ? "Added \(title) to favorites." : "Removed \(title) from favorites.")
            if state.detail?.movieID == movieID { effects.append(.loadDetail(movieID: movieID)) }
        case .favoriteFailed(let message):
            state.message = StatusMessage("Favorite not changed: \(message)", isError: true)
        case .signedIn(let account, let favorites):
            // Applied whatever the screen shows: Firebase Auth has signed the user in.
            if case .signingIn = state.mode { state.mode = .browsing }
            state.pendingSignIn = nil
            state.user = account
            state.favorites = favorites
            state.message = StatusMessage("Signed in as \(account.label).")
        case .signInFailed(let message):
            state.pendingSignIn = nil
            if case .signingIn(var form) = state.mode {
                form.isSubmitting = false
                form.error = message
                state.mode = .signingIn(form)
            }
            state.message = StatusMessage("Sign-in failed: \(message)", isError: true)
        }
    }

    // MARK: Keys

    mutating func handle(_ key: Key) {
        switch state.mode {
        case .browsing: browse(key)
        case .searching: editSearch(key)
        case .pickingGenre(let index): pickGenre(key, index: index)
        case .signingIn(let form): editSignIn(key, form: form)
        case .reviewing(let form): editReview(key, form: form)
        case .help: state.mode = .browsing
        }
    }

    mutating func browse(_ key: Key) {
        switch key {
        case .up, .character("k"): move(by: -1)
        case .down, .character("j"): move(by: 1)
        case .pageUp: move(by: -max(1, state.listHeight))
        case .pageDown: move(by: max(1, state.listHeight))
        case .home, .character("g"): move(to: 0)
        case .end, .character("G"): move(to: state.visibleMovies.count - 1)
        case .enter, .right, .character("l"): openDetail()
        case .escape, .left, .character("h"):
            if state.detail != nil {
                state.detail = nil
            } else if !state.search.isEmpty {
                state.search = ""
            }
        case .character("/"): state.mode = .searching
        case .character("f"): cycleGenre()
        case .character("F"):
            state.mode = .pickingGenre(state.genreChoices.firstIndex(of: state.genre) ?? 0)
        case .character("s"): state.sort.key = state.sort.key.next
        case .character("S"): state.sort.descending.toggle()
        case .character("r"): openReviewForm()
        case .character("*"): toggleFavorite()
        case .character("L"): state.mode = .signingIn(SignInForm())
        case .character("O"): signOut()
        case .character("R"):
            effects.append(.refresh)
            state.message = StatusMessage("Refreshing.")
        case .character("?"): state.mode = .help
        case .character("q"): state.isQuitting = true
        default: break
        }
    }

    mutating func editSearch(_ key: Key) {
        switch key {
        case .character(let character): state.search.append(character)
        case .backspace: if !state.search.isEmpty { state.search.removeLast() }
        case .enter: state.mode = .browsing
        case .escape:
            state.search = ""
            state.mode = .browsing
        case .up: move(by: -1)
        case .down: move(by: 1)
        default: break
        }
    }

    mutating func pickGenre(_ key: Key, index: Int) {
        let choices = state.genreChoices
        switch key {
        case .up, .character("k"): state.mode = .pickingGenre(max(0, index - 1))
        case .down, .character("j"): state.mode = .pickingGenre(min(choices.count - 1, index + 1))
        case .enter:
            state.genre = choices.indices.contains(index) ? choices[index] : nil
            state.mode = .browsing
        case .escape, .character("q"): state.mode = .browsing
        default: break
        }
    }

    mutating func editSignIn(_ key: Key, form: SignInForm) {
        var form = form
        if key == .escape {
            state.mode = .browsing
            return
        }
        guard !form.isSubmitting else { return }
        let fields = SignInForm.Field.allCases
        let index = fields.firstIndex(of: form.focus) ?? 0
        switch (key, form.focus) {
        case (.tab, _), (.down, _):
            form.focus = fields[(index + 1) % fields.count]
        case (.backTab, _), (.up, _):
            form.focus = fields[(index + fields.count - 1) % fields.count]
        case (.left, .choice), (.right, .choice), (.character(" "), .choice):
            form.choice = form.choice.toggled
            form.error = nil
        case (.character(let character), .email):
            if form.email.count < SignInForm.maximumLength { form.email.append(character) }
        case (.character(let character), .password):
            if form.password.count < SignInForm.maximumLength { form.password.append(character) }
        case (.backspace, .email): if !form.email.isEmpty { form.email.removeLast() }
        case (.backspace, .password): if !form.password.isEmpty { form.password.removeLast() }
        case (.enter, _):
            if let problem = form.validationError {
                form.error = problem
            } else {
                form.error = nil
                form.isSubmitting = true
                let email = form.email.trimmingCharacters(in: .whitespaces)
                state.pendingSignIn = email
                state.message = StatusMessage(
                    form.choice == .signIn ? "Signing in as \(email)..." : "Creating the account \(email)...")
                effects.append(form.effect)
            }
        default: break
        }
        state.mode = .signingIn(form)
    }

    mutating func editReview(_ key: Key, form: ReviewForm) {
        var form = form
        if key == .escape {
            state.mode = .browsing
            return
        }
        guard !form.isSubmitting else { return }
        switch (key, form.focus) {
        case (.tab, _), (.backTab, _), (.down, .rating), (.up, .text):
            form.focus = form.focus == .rating ? .text : .rating
        case (.character(let digit), .rating) where digit.isNumber:
            if let value = digit.wholeNumberValue, (1...5).contains(value) {
                form.rating = value
                form.error = nil
            } else {
                form.error = "The rating is 1 to 5."
            }
        case (.left, .rating), (.character("-"), .rating): form.rating = max(1, (form.rating ?? 2) - 1)
        case (.right, .rating), (.character("+"), .rating): form.rating = min(5, (form.rating ?? 0) + 1)
        case (.character(let character), .text):
            if form.text.count < ReviewForm.maximumTextLength { form.text.append(character) }
        case (.backspace, .text): if !form.text.isEmpty { form.text.removeLast() }
        case (.enter, _):
            if let problem = form.validationError {
                form.error = problem
            } else if let rating = form.rating {
                form.error = nil
                form.isSubmitting = true
                effects.append(.submitReview(movieID: form.movieID, rating: rating, text: form.text))
            }
        default: break
        }
        state.mode = .reviewing(form)
    }

    // MARK: Commands

    mutating func move(by offset: Int) {
        move(to: state.selectedIndex + offset)
    }

    mutating func move(to index: Int) {
        let visible = state.visibleMovies
        guard !visible.isEmpty else { return }
        let clamped = min(max(0, index), visible.count - 1)
        state.selectedIndex = clamped
        state.selectedID = visible[clamped].id
    }

    mutating func openDetail() {
        guard let id = state.selectedID, state.visibleMovies.contains(where: { $0.id == id }) else { return }
        state.detail = DetailPane(movieID: id)
        effects.append(.loadDetail(movieID: id))
    }

    mutating func cycleGenre() {
        let choices = state.genreChoices
        let index = choices.firstIndex(of: state.genre) ?? 0
        state.genre = choices[(index + 1) % choices.count]
    }

    mutating func openReviewForm() {
        guard let movie = state.selectedMovie else { return }
        guard state.user != nil else {
            state.message = StatusMessage("Sign in to review: press L.", isError: true)
            return
        }
        state.mode = .reviewing(ReviewForm(movieID: movie.id, movieTitle: movie.title))
    }

    mutating func toggleFavorite() {
        guard let movie = state.selectedMovie else { return }
        guard state.user != nil else {
            state.message = StatusMessage("Sign in to keep favorites: press L.", isError: true)
            return
        }
        effects.append(.setFavorite(movieID: movie.id, isFavorite: !state.favorites.contains(movie.id)))
    }

    mutating func signOut() {
        guard let user = state.user else {
            state.message = StatusMessage("Not signed in.")
            return
        }
        state.user = nil
        state.favorites = []
        state.message = StatusMessage("Signed out \(user.label).")
        effects.append(.signOut)
    }

    // MARK: Selection

    /// Keeps the selection on the same movie id when it is still shown, else on the same row (clamped); keeps it
    /// on screen; and makes an open detail pane follow it.
    mutating func normalizeSelection() {
        let visible = state.visibleMovies
        if visible.isEmpty {
            state.selectedIndex = 0
            state.selectedID = nil
            state.scrollOffset = 0
        } else {
            if let id = state.selectedID, let index = visible.firstIndex(where: { $0.id == id }) {
                state.selectedIndex = index
            } else {
                state.selectedIndex = min(max(0, state.selectedIndex), visible.count - 1)
                state.selectedID = visible[state.selectedIndex].id
            }
            let height = max(1, state.listHeight)
            if state.selectedIndex < state.scrollOffset { state.scrollOffset = state.selectedIndex }
            if state.selectedIndex >= state.scrollOffset + height {
                state.scrollOffset = state.selectedIndex - height + 1
            }
            state.scrollOffset = min(max(0, state.scrollOffset), max(0, visible.count - height))
        }
        if let detail = state.detail, detail.movieID != state.selectedID {
            if let id = state.selectedID {
                state.detail = DetailPane(movieID: id)
                effects.append(.loadDetail(movieID: id))
            } else {
                state.detail = nil
            }
        }
    }
}
