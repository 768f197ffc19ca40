import Foundation
import MoviesModels

/// Renders movies, favorites, users and changes as the text `movies` prints.
///
/// ```swift
/// let text = MovieFormatter.list(rows, style: .plain)
/// // ID                                    TITLE      YEAR  GENRE   RATING
/// // 17dbe1ae-39cd-5b7c-b0d9-127c66401864  Alien      1979  Sci-Fi       5
/// ```
public enum MovieFormatter {
    /// A table of movies: id, title, year, genre, rating and, when known, aspect ratio; or a note when empty.
    ///
    /// - Parameters:
    ///   - rows: The movies.
    ///   - style: Colors or plain.
    /// - Returns: The table text.
    public static func list(_ rows: [MovieRow], style: TerminalStyle) -> String {
        guard !rows.isEmpty else { return "No movies.\n" }
        let showAspect = rows.contains { $0.aspectratio != nil }
        var columns = [
            Table.Column("ID", emphasis: .dim), Table.Column("TITLE"), Table.Column("YEAR", alignRight: true),
            Table.Column("GENRE"), Table.Column("RATING", alignRight: true),
        ]
        if showAspect { columns.append(Table.Column("ASPECT")) }
        let cells = rows.map { row in
            var cells = [row.id, row.title, text(row.releaseYear), row.genre ?? "", text(row.rating)]
            if showAspect { cells.append(row.aspectratio ?? "") }
            return cells
        }
        return Table(columns: columns, rows: cells).render(style: style)
    }

    /// A table of favorites, newest first: id, title, year, genre and when it was added; or a note when empty.
    ///
    /// - Parameters:
    ///   - favorites: The favorites.
    ///   - style: Colors or plain.
    /// - Returns: The table text.
    public static func favorites(_ favorites: [FavoriteRow], style: TerminalStyle) -> String {
        guard !favorites.isEmpty else { return "No favorites yet; add one with `movies favorites add ID`.\n" }
        let columns = [
            Table.Column("ID", emphasis: .dim), Table.Column("TITLE"), Table.Column("YEAR", alignRight: true),
            Table.Column("GENRE"), Table.Column("ADDED"),
        ]
        let rows = favorites.map { favorite in
            [
                favorite.movie.id, favorite.movie.title, text(favorite.movie.releaseYear), favorite.movie.genre ?? "",
                String(favorite.addedAt.prefix(10)),
            ]
        }
        return Table(columns: columns, rows: rows).render(style: style)
    }

    /// A movie's details: a title line, labelled facts, the cast and the latest reviews.
    ///
    /// - Parameters:
    ///   - movie: The movie.
    ///   - style: Colors or plain.
    /// - Returns: The text.
    public static func details(_ movie: MovieDetails, style: TerminalStyle) -> String {
        let clean = DisplayWidth.sanitized
        var heading = clean(movie.title)
        if let year = movie.releaseYear { heading += " (\(year))" }
        var facts: [(String, String)] = [("ID", style.dim(movie.id))]
        facts.append(("Genre", movie.genre.map(clean) ?? "-"))
        facts.append(("Rating", movie.rating.map { "\($0)/5" } ?? "-"))
        facts.append(("Aspect", movie.aspectratio))
        facts.append(("Director", movie.director.map { clean($0.name) } ?? "unknown"))
        if !movie.tags.isEmpty { facts.append(("Tags", clean(movie.tags.joined(separator: ", ")))) }
        if movie.isClassic { facts.append(("Classic", "yes")) }
        let average = movie.stats.averageRating.map { String(format: "%.1f", $0) }
        let reviewSummary =
            "\(movie.stats.reviewCount) review\(movie.stats.reviewCount == 1 ? "" : "s")"
            + (average.map { ", average \($0)/5" } ?? "")
        facts.append(("Reviews", reviewSummary))
        facts.append(("Favorites", "\(movie.stats.favoriteCount)"))
        let labelWidth = facts.map { DisplayWidth.of($0.0) }.max() ?? 0

        var output = style.bold(heading) + "\n"
        if let description = movie.description { output += clean(description) + "\n" }
        output += "\n"
        for (label, value) in facts {
            output += DisplayWidth.pad(label + ":", to: labelWidth + 1) + "  " + value + "\n"
        }
        if !movie.cast.isEmpty {
            output += "\n" + style.bold("Cast") + "\n"
            let nameWidth = movie.cast.map { DisplayWidth.of(clean($0.name)) }.max() ?? 0
            for member in movie.cast {
                output += "  " + DisplayWidth.pad(clean(member.name), to: nameWidth) + "  " + member.role + "\n"
            }
        }
        output += "\n" + style.bold("Latest reviews") + "\n"
        if movie.reviews.isEmpty {
            output += "  none yet\n"
        } else {
            for review in movie.reviews {
                let rating = review.rating.map { "\($0)/5" } ?? "-"
                var line = "  \(review.reviewDate)  \(rating)  \(clean(review.username))"
                if let text = review.text, !text.isEmpty { line += ": \(clean(text))" }
                output += line + "\n"
            }
        }
        return output
    }

    /// Who is signed in, e.g. `Signed in as ada (uid Zq3…, ada@example.com)`, then the account's details.
    ///
    /// ```text
    /// Signed in as ada (uid Zq3…, ada@example.com)
    ///   email verified:  no
    ///   provider:        password
    ///   claims:          critic=true
    /// ```
    ///
    /// - Parameter user: The signed-in user.
    /// - Returns: The lines, each with a newline.
    public static func whoami(_ user: SignedInUser) -> String {
        signedIn(user)
            + "  email verified:  \(user.isEmailVerified ? "yes" : "no")\n"
            + "  provider:        \(DisplayWidth.sanitized(user.signInProvider))\n"
            + "  claims:          \(claims(user.claims))\n"
    }

    /// The first line of ``whoami(_:)``: `Signed in as <name> (uid <uid>, <email>)`; the name is the display name,
    /// else the email, else the uid.
    ///
    /// - Parameter user: The signed-in user.
    /// - Returns: One line with a newline.
    public static func signedIn(_ user: SignedInUser) -> String {
        var details = ["uid \(user.uid)"]
        if let email = user.email { details.append(email) }
        let name = user.displayName ?? user.email ?? user.uid
        return
            "Signed in as \(DisplayWidth.sanitized(name)) (\(DisplayWidth.sanitized(details.joined(separator: ", "))))\n"
    }

    /// Custom claims as `name=value` pairs sorted by name, values in JSON; `none` when there are none.
    static func claims(_ claims: [String: ClaimValue]) -> String {
        guard !claims.isEmpty else { return "none" }
        return claims.keys.sorted().map { name in
            let value = claims[name].map { JSONOutput.line($0).trimmingCharacters(in: .newlines) } ?? "null"
            return DisplayWidth.sanitized("\(name)=\(value)")
        }.joined(separator: " ")
    }

    /// One line per change, e.g. `+ <id>  Alien (1979, Sci-Fi, rating 5)` or
    /// `~ <id>  Alien: rating 4 -> 5`.
    ///
    /// - Parameters:
    ///   - change: The change.
    ///   - style: Colors or plain.
    /// - Returns: The line with a newline.
    public static func change(_ change: MovieChange, style: TerminalStyle) -> String {
        switch change {
        case .added(let row):
            return "+ \(style.dim(row.id))  \(summary(row))\n"
        case .removed(let row):
            return "- \(style.dim(row.id))  \(summary(row))\n"
        case .changed(let old, let new):
            var differences: [String] = []
            func note(_ name: String, _ before: String, _ after: String) {
                if before != after { differences.append("\(name) \(before) -> \(after)") }
            }
            note("title", quoted(old.title), quoted(new.title))
            note("year", text(old.releaseYear), text(new.releaseYear))
            note("genre", old.genre ?? "-", new.genre ?? "-")
            note("rating", text(old.rating), text(new.rating))
            note("aspect", old.aspectratio ?? "-", new.aspectratio ?? "-")
            note("description", quoted(old.description ?? ""), quoted(new.description ?? ""))
            return "~ \(style.dim(new.id))  \(DisplayWidth.sanitized(new.title)): "
                + differences.joined(separator: ", ") + "\n"
        }
    }

    /// `Title (year, genre, rating N)` with the parts that are known.
    private static func summary(_ row: MovieRow) -> String {
        let parts = [row.releaseYear.map(String.init), row.genre, row.rating.map { "rating \($0)" }].compactMap { $0 }
        let title = DisplayWidth.sanitized(row.title)
        return parts.isEmpty ? title : "\(title) (\(DisplayWidth.sanitized(parts.joined(separator: ", "))))"
    }

    private static func quoted(_ text: String) -> String {
        "\"\(DisplayWidth.sanitized(text))\""
    }

    private static func text(_ number: Int?) -> String {
        number.map(String.init) ?? "-"
    }
}
