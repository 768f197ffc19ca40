import MoviesModels

/// The layout: turns an ``AppState`` into the ``Frame`` the shell draws.
///
/// Rows, top to bottom: the title bar, the column headings, the body (the list, and the detail pane beside it
/// on screens at least ``Geometry/splitMinimumColumns`` wide, instead of it on narrower ones), a prompt or hint
/// line, and the status bar. Every line is exactly as wide as the screen, measured by display width.
public enum Screen {
    /// Where things go on a screen of a given size.
    public struct Geometry: Equatable, Sendable {
        /// The narrowest screen that shows the list and the detail pane side by side.
        public static let splitMinimumColumns = 90

        /// The rows the list (or detail pane) takes.
        public var bodyHeight: Int
        /// The list's width; 0 when the detail pane takes the whole body.
        public var listWidth: Int
        /// The detail pane's width; 0 when it is closed.
        public var detailWidth: Int

        /// The geometry for `state`'s size and whether its detail pane is open.
        public init(_ state: AppState) {
            let columns = max(1, state.size.columns)
            bodyHeight = max(0, state.size.rows - 4)
            if state.detail == nil {
                listWidth = columns
                detailWidth = 0
            } else if columns >= Self.splitMinimumColumns {
                listWidth = columns / 2
                detailWidth = columns - listWidth - 1
            } else {
                listWidth = 0
                detailWidth = columns
            }
        }

        /// How many list rows fit; paging moves by this much.
        public var listHeight: Int { bodyHeight }
    }

    /// The frame for `state`.
    ///
    /// - Parameter state: The state to show.
    /// - Returns: `state.size.rows` lines, each `state.size.columns` wide, and the overlay of the current mode.
    public static func render(_ state: AppState) -> Frame {
        let columns = max(1, state.size.columns)
        let rows = max(1, state.size.rows)
        let geometry = Geometry(state)
        var lines: [Line] = [titleLine(state, width: columns), headingLine(state, geometry, width: columns)]
        let list = listLines(state, geometry)
        let detail = detailLines(state, geometry)
        for row in 0..<geometry.bodyHeight {
            var spans: [Span] = []
            if geometry.listWidth > 0 { spans += list[row].spans }
            if geometry.detailWidth > 0 {
                if geometry.listWidth > 0 { spans.append(Span("|", .dim)) }
                spans += detail[row].spans
            }
            lines.append(Line(spans))
        }
        lines.append(promptLine(state, width: columns))
        lines.append(statusLine(state, width: columns))
        if lines.count > rows { lines = Array(lines.suffix(rows)) }
        return Frame(lines: lines, overlay: overlay(state))
    }

    // MARK: Bars

    static func titleLine(_ state: AppState, width: Int) -> Line {
        var text = " movies-tui   Genre: \(state.genre ?? "All")   Sort: \(state.sort.label)"
        if !state.search.isEmpty { text += "   Search: \(state.search)" }
        return Line(TextCells.fit(text, to: width), .title)
    }

    static func headingLine(_ state: AppState, _ geometry: Geometry, width: Int) -> Line {
        var spans: [Span] = []
        if geometry.listWidth > 0 { spans.append(Span(rowText(nil, width: geometry.listWidth), .heading)) }
        if geometry.detailWidth > 0 {
            if geometry.listWidth > 0 { spans.append(Span("|", .dim)) }
            spans.append(Span(TextCells.fit(" DETAILS", to: geometry.detailWidth), .heading))
        }
        return Line(spans)
    }

    static func promptLine(_ state: AppState, width: Int) -> Line {
        switch state.mode {
        case .searching:
            return Line(TextCells.fit("/" + state.search + "_", to: width))
        case .signingIn:
            return Line(TextCells.fit("Sign in: Tab next field, Enter submits, Esc cancels", to: width))
        default:
            let account = state.user == nil ? "L sign in" : "O sign out"
            let hint =
                state.search.isEmpty
                ? "? help  / search  f F genre  s S sort  Enter details  r review  * favorite  \(account)  q quit"
                : "Search \"\(state.search)\": Esc clears   ? help"
            return Line(TextCells.fit(hint, to: width), .dim)
        }
    }

    static func statusLine(_ state: AppState, width: Int) -> Line {
        let user =
            state.user.map { "signed in as \($0.label)" }
            ?? (state.pendingSignIn.map { "signing in as \($0)" } ?? "signed out")
        let visible = state.visibleMovies.count
        let counts =
            state.hasLoaded
            ? (visible == state.movies.count ? "\(visible) movies" : "\(visible) of \(state.movies.count) movies")
            : "loading"
        let left = " \(state.emulator) | \(user) | \(counts) | "
        let message: StatusMessage? =
            state.feedError.map { StatusMessage("update failed: \($0)", isError: true) } ?? state.message
        let leftText = TextCells.clip(left, to: width)
        let rest = width - DisplayWidth.of(leftText)
        var spans = [Span(leftText, .status)]
        if rest > 0 {
            spans.append(
                Span(TextCells.fit(message?.text ?? "", to: rest), message?.isError == true ? .error : .status))
        }
        return Line(spans)
    }

    // MARK: List

    /// One list row (or the headings when `movie` is nil), exactly `width` columns wide.
    static func rowText(_ movie: MovieRow?, favorite: Bool = false, width: Int) -> String {
        let year = movie.map { $0.releaseYear.map(String.init) ?? "" } ?? "YEAR"
        let genre = movie.map { $0.genre ?? "" } ?? "GENRE"
        let rating = movie.map { $0.rating.map { "\($0)/5" } ?? "-" } ?? "RATING"
        let title = movie?.title ?? "TITLE"
        let marker = movie == nil ? " " : (favorite ? "*" : " ")
        if width >= 40 {
            let titleWidth = width - 25
            return marker + " " + TextCells.fit(title, to: titleWidth) + " " + TextCells.fit(year, to: 4) + " "
                + TextCells.fit(genre, to: 10) + " " + TextCells.fit(rating, to: 6, alignRight: true)
        }
        let titleWidth = max(0, width - 7)
        return TextCells.fit(marker + " " + TextCells.fit(title, to: max(0, titleWidth - 2)) + " " + year, to: width)
    }

    static func listLines(_ state: AppState, _ geometry: Geometry) -> [Line] {
        let width = geometry.listWidth
        let visible = state.visibleMovies
        var lines: [Line] = []
        for row in 0..<geometry.bodyHeight {
            let index = state.scrollOffset + row
            if index < visible.count {
                let movie = visible[index]
                let style: Style = index == state.selectedIndex ? .selected : .normal
                lines.append(Line(rowText(movie, favorite: state.favorites.contains(movie.id), width: width), style))
            } else if row == 0 && visible.isEmpty {
                let text = state.hasLoaded ? "  No movies match." : "  Loading movies..."
                lines.append(Line(TextCells.fit(text, to: width), .dim))
            } else {
                lines.append(Line(String(repeating: " ", count: width)))
            }
        }
        return lines
    }

    // MARK: Detail

    static func detailLines(_ state: AppState, _ geometry: Geometry) -> [Line] {
        let width = geometry.detailWidth
        var content: [Line] = []
        if let detail = state.detail, width > 0 {
            content = detailContent(detail, isFavorite: state.favorites.contains(detail.movieID))
        }
        return (0..<geometry.bodyHeight).map { row in
            guard row < content.count else { return Line(String(repeating: " ", count: width)) }
            let line = content[row]
            return Line(TextCells.fit(line.text, to: width), line.spans.first?.style ?? .normal)
        }
    }

    /// The detail pane's lines, unclipped.
    static func detailContent(_ detail: DetailPane, isFavorite: Bool) -> [Line] {
        switch detail.content {
        case .loading:
            return [Line(" Loading...", .dim)]
        case .failed(let message):
            return [Line(" Could not load the movie: \(message)", .error)]
        case .loaded(let movie):
            var lines: [Line] = []
            let year = movie.releaseYear.map { " (\($0))" } ?? ""
            lines.append(Line(" \(movie.title)\(year)", .heading))
            var facts = " Genre: \(movie.genre ?? "-")   Rating: \(movie.rating.map { "\($0)/5" } ?? "-")"
            if isFavorite { facts += "   * favorite" }
            lines.append(Line(facts))
            lines.append(Line(" Director: \(movie.director?.name ?? "unknown")"))
            let average = movie.stats.averageRating.map { formatAverage($0) + "/5" } ?? "-"
            let reviewWord = movie.stats.reviewCount == 1 ? "review" : "reviews"
            lines.append(
                Line(
                    " Average rating: \(average) (\(movie.stats.reviewCount) \(reviewWord))   Favorites: \(movie.stats.favoriteCount)"
                ))
            if let description = movie.description, !description.isEmpty { lines.append(Line(" \(description)", .dim)) }
            lines.append(Line(""))
            lines.append(Line(" Cast", .heading))
            if movie.cast.isEmpty { lines.append(Line("   none listed", .dim)) }
            for member in movie.cast.prefix(8) { lines.append(Line("   \(member.name) (\(member.role))")) }
            lines.append(Line(""))
            lines.append(Line(" Latest reviews", .heading))
            if movie.reviews.isEmpty { lines.append(Line("   none yet", .dim)) }
            for review in movie.reviews.prefix(10) {
                let rating = review.rating.map { "\($0)/5" } ?? "-"
                lines.append(Line("   \(review.reviewDate)  \(rating)  \(review.username): \(review.text ?? "")"))
            }
            return lines
        }
    }

    /// `4.33` as `4.3`, without Foundation formatting.
    static func formatAverage(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    // MARK: Overlays

    static func overlay(_ state: AppState) -> Overlay? {
        switch state.mode {
        case .help:
            var lines = [Line(" Keys", .heading)]
            let keyWidth = KeyBindings.all.map { DisplayWidth.of($0.keys) }.max() ?? 0
            lines += KeyBindings.all.map {
                Line(" " + DisplayWidth.pad($0.keys, to: keyWidth) + "  " + $0.action, .overlay)
            }
            lines.append(Line("", .overlay))
            lines.append(Line(" Press any key to close.", .overlay))
            return box(lines, width: 72, in: state.size)
        case .pickingGenre(let index):
            let choices = state.genreChoices
            var lines = [Line(" Genre (Enter picks, Esc cancels)", .heading)]
            let room = max(1, state.size.rows - 3)
            let first = max(0, min(index - room / 2, choices.count - room))
            for offset in first..<min(choices.count, first + room) {
                let name = choices[offset] ?? "All genres"
                lines.append(Line("  " + name, offset == index ? .overlaySelected : .overlay))
            }
            return box(lines, width: 36, in: state.size)
        case .reviewing(let form):
            return box(reviewLines(form, width: min(60, state.size.columns)), width: 60, in: state.size)
        case .signingIn(let form):
            return box(signInLines(form, width: min(60, state.size.columns)), width: 60, in: state.size)
        default:
            return nil
        }
    }

    static func reviewLines(_ form: ReviewForm, width: Int) -> [Line] {
        let rating = form.rating.map(String.init) ?? " "
        let textPrefix = " Text:   "
        // Show the end of a long text, so what is typed stays visible.
        var shown = DisplayWidth.sanitized(form.text)
        let room = max(1, width - DisplayWidth.of(textPrefix) - 1)
        while DisplayWidth.of(shown) > room - 1, !shown.isEmpty { shown.removeFirst() }
        let cursor = form.focus == .text ? "_" : ""
        var lines = [
            Line(" Review: \(form.movieTitle)", .heading),
            Line(
                " Rating: [\(rating)]  (1-5, Left/Right)" + (form.focus == .rating ? "  <" : ""),
                form.focus == .rating ? .overlaySelected : .overlay),
            Line(textPrefix + shown + cursor, form.focus == .text ? .overlaySelected : .overlay),
        ]
        if form.isSubmitting {
            lines.append(Line(" Saving...", .overlay))
        } else if let error = form.error {
            lines.append(Line(" " + error, .error))
        } else {
            lines.append(Line("", .overlay))
        }
        lines.append(Line(" Enter saves  Tab switches field  Esc cancels", .overlay))
        return lines
    }

    static func signInLines(_ form: SignInForm, width: Int) -> [Line] {
        func field(_ label: String, _ value: String, _ field: SignInForm.Field) -> Line {
            let prefix = " \(label)"
            // Show the end of a long value, so what is typed stays visible.
            var shown = DisplayWidth.sanitized(value)
            let room = max(1, width - DisplayWidth.of(prefix) - 1)
            while DisplayWidth.of(shown) > room - 1, !shown.isEmpty { shown.removeFirst() }
            let focused = form.focus == field
            return Line(prefix + shown + (focused ? "_" : ""), focused ? .overlaySelected : .overlay)
        }
        let choices =
            form.choice == .signIn ? "[Sign in]  Create account" : " Sign in  [Create account]"
        var lines = [
            Line(form.choice == .signIn ? " Sign in" : " Create an account", .heading),
            field("Email:     ", form.email, .email),
            field("Password:  ", String(repeating: "*", count: form.password.count), .password),
            Line(
                " Action:    " + choices + (form.focus == .choice ? "  <" : ""),
                form.focus == .choice ? .overlaySelected : .overlay),
        ]
        if form.isSubmitting {
            lines.append(Line(form.choice == .signIn ? " Signing in..." : " Creating the account...", .overlay))
        } else if let error = form.error {
            lines.append(Line(" " + error, .error))
        } else {
            lines.append(Line("", .overlay))
        }
        lines.append(Line(" Enter submits  Tab next field  Left/Right switch action  Esc", .overlay))
        return lines
    }

    /// `lines` in a box at most `width` wide, centered, cut to the screen's rows.
    static func box(_ lines: [Line], width: Int, in size: ScreenSize) -> Overlay {
        let boxWidth = max(1, min(width, size.columns))
        let shown = Array(lines.prefix(max(1, size.rows)))
        let fitted = shown.map { line in
            Line(TextCells.fit(line.text, to: boxWidth), line.spans.first?.style ?? .overlay)
        }
        return Overlay(
            top: max(0, (size.rows - fitted.count) / 2), left: max(0, (size.columns - boxWidth) / 2), width: boxWidth,
            lines: fitted)
    }
}
