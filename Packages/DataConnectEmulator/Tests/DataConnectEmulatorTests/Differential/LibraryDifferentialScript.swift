import DataConnectEngine
import DataConnectWire

/// The calls of `Tests/Backends/library`: every operation of the `lending` and `kiosk` connectors, on rows of
/// `seed_data.gql`, each `@auth` level called by a caller it admits and, for some, by one it refuses.
extension DifferentialScript {
    static let library = DifferentialScript(
        queries: [
            DifferentialCall("kiosk", "listTitles"),
            DifferentialCall("kiosk", "countPublic"),
            DifferentialCall("kiosk", "countAnon", as: LibrarySeed.anonymous),
            DifferentialCall("kiosk", "countAnon"),
            DifferentialCall("kiosk", "countUser", as: LibrarySeed.ben),
            DifferentialCall("kiosk", "countUser", as: LibrarySeed.anonymous),
            DifferentialCall("kiosk", "countVerified", as: LibrarySeed.ada),
            DifferentialCall("kiosk", "countVerified", as: LibrarySeed.ben),
            DifferentialCall("kiosk", "countClosed", as: LibrarySeed.ada),
            DifferentialCall("kiosk", "countUnmarked", as: LibrarySeed.ada),
            DifferentialCall("lending", "listBooks"),
            DifferentialCall("lending", "listBooks", ["tag": "classic"]),
            DifferentialCall("lending", "listBooks", ["publishedAfter": "1900-01-01", "limit": 2]),
            DifferentialCall("lending", "getBook", ["isbn": .string(LibrarySeed.pride)]),
            DifferentialCall("lending", "getBook", ["isbn": .string(LibrarySeed.goodOmens)]),
            DifferentialCall("lending", "getBook", ["isbn": .string(LibrarySeed.nineteenEightyFour)]),
            DifferentialCall("lending", "getBook", ["isbn": "no-such-isbn"]),
            DifferentialCall("lending", "searchBooks", ["text": "classic"]),
            DifferentialCall("lending", "searchBooks", ["text": "o", "minPages": 400]),
            DifferentialCall("lending", "catalogueStats"),
            DifferentialCall("lending", "getAuthor", ["id": .string(LibrarySeed.austen)]),
            DifferentialCall("lending", "getAuthor", ["id": .string(LibrarySeed.gaiman)]),
            DifferentialCall("lending", "myCard", as: LibrarySeed.ada),
            DifferentialCall("lending", "myCard", as: LibrarySeed.ben),
            DifferentialCall("lending", "myCard", as: LibrarySeed.dana),
            DifferentialCall("lending", "myLoans", as: LibrarySeed.ada),
            DifferentialCall("lending", "myLoans", ["status": "RETURNED"], as: LibrarySeed.ada),
            DifferentialCall("lending", "myLoans", as: LibrarySeed.dana),
            DifferentialCall("lending", "overdueLoans", as: LibrarySeed.ada),
            DifferentialCall("lending", "overdueLoans", as: LibrarySeed.ben),
            DifferentialCall("lending", "librarianLoans", as: LibrarySeed.librarian),
            DifferentialCall("lending", "librarianLoans", as: LibrarySeed.ada),
        ],
        mutations: [
            DifferentialCall(
                "kiosk", "suggestBook", ["isbn": "978-0-09-954453-0", "title": "Norwegian Wood"],
                as: LibrarySeed.anonymous),
            DifferentialCall("kiosk", "suggestBook", ["isbn": "978-0-00-000001-7", "title": "Nope"]),
            DifferentialCall("kiosk", "touchPublic"),
            DifferentialCall("kiosk", "touchAnon", as: LibrarySeed.anonymous),
            DifferentialCall("kiosk", "touchUser", as: LibrarySeed.ben),
            DifferentialCall("kiosk", "touchVerified", as: LibrarySeed.ada),
            DifferentialCall("kiosk", "touchVerified", as: LibrarySeed.ben),
            DifferentialCall("kiosk", "touchClosed", as: LibrarySeed.ada),
            DifferentialCall(
                "lending", "joinLibrary", ["name": "Dana Scully", "email": "dana@example.com"], as: LibrarySeed.dana),
            // another member's email: the unique constraint on `email` fails
            DifferentialCall(
                "lending", "joinLibrary", ["name": "Dana", "email": "ada@example.com"], as: LibrarySeed.dana),
            DifferentialCall("lending", "joinLibrary", ["name": "Benjamin Okri"], as: LibrarySeed.ben),
            DifferentialCall(
                "lending", "addBook",
                [
                    "isbn": .string(LibrarySeed.kafka), "title": "Kafka on the Shore (revised)",
                    "published": "2002-09-12", "pages": 505, "copies": 2, "tags": ["magic realism", "classic"],
                    "extra": ["translator": "Philip Gabriel", "awards": [["name": "World Fantasy", "year": 2006]]],
                ],
                as: LibrarySeed.ada),
            DifferentialCall(
                "lending", "addBook",
                ["isbn": "978-0-7653-2635-5", "title": "The Way of Kings", "published": "2010-08-31", "pages": 1007],
                as: LibrarySeed.ada),
            // the key exists: the insert fails
            DifferentialCall(
                "lending", "addBook", ["isbn": .string(LibrarySeed.pride), "title": "Pride and Prejudice, again"],
                as: LibrarySeed.ada),
            DifferentialCall(
                "lending", "addBook", ["isbn": "978-0-00-000002-4", "title": "Unverified"], as: LibrarySeed.ben),
            DifferentialCall(
                "lending", "addAuthorToBook",
                ["isbn": .string(LibrarySeed.kafka), "name": "Haruki Murakami", "born": 1949, "position": 1],
                as: LibrarySeed.ada),
            // no such book: the foreign key fails and the transaction drops the author too
            DifferentialCall(
                "lending", "addAuthorToBook", ["isbn": "no-such-isbn", "name": "Ghost Writer"], as: LibrarySeed.ada),
            DifferentialCall(
                "lending", "tagBook", ["isbn": .string(LibrarySeed.pride), "tags": ["satire", "romance", "Satire"]],
                as: LibrarySeed.ada),
            DifferentialCall("lending", "tagBook", ["isbn": "no-such-isbn", "tags": ["x"]], as: LibrarySeed.ada),
            DifferentialCall(
                "lending", "borrowBook", ["isbn": .string(LibrarySeed.emma), "dueOn": "2099-01-01"],
                as: LibrarySeed.dana),
            DifferentialCall(
                "lending", "borrowBook", ["isbn": .string(LibrarySeed.kafka), "dueOn": "2024-01-01"],
                as: LibrarySeed.ben),
            // no copy left on the shelf, and no such book: the @checks fail
            DifferentialCall(
                "lending", "borrowBook", ["isbn": .string(LibrarySeed.emma), "dueOn": "2099-01-01"], as: LibrarySeed.ben
            ),
            DifferentialCall(
                "lending", "borrowBook", ["isbn": "no-such-isbn", "dueOn": "2099-01-01"], as: LibrarySeed.ben),
            DifferentialCall(
                "lending", "returnBook",
                ["loanId": .string(LibrarySeed.adasActiveLoan), "isbn": .string(LibrarySeed.nineteenEightyFour)],
                as: LibrarySeed.ada),
            // returned already: the @check fails
            DifferentialCall(
                "lending", "returnBook",
                ["loanId": .string(LibrarySeed.adasActiveLoan), "isbn": .string(LibrarySeed.nineteenEightyFour)],
                as: LibrarySeed.ada),
            DifferentialCall("lending", "markLost", ["dueBefore": "2024-03-10"], as: LibrarySeed.ada),
            DifferentialCall("lending", "purgeReturnedLoans", as: LibrarySeed.ada),
            DifferentialCall("lending", "purgeReturnedLoans", as: LibrarySeed.librarian),
            DifferentialCall("lending", "removeBook", ["isbn": .string(LibrarySeed.goodOmens)], as: LibrarySeed.ada),
            DifferentialCall("lending", "removeBook", ["isbn": "no-such-isbn"], as: LibrarySeed.ada),
        ])
}

/// Rows and members of `Tests/Backends/library/seed_data.gql` the library script uses.
enum LibrarySeed {
    static let pride = "978-0-14-143951-8"
    static let emma = "978-0-14-143955-6"
    static let nineteenEightyFour = "978-0-452-28423-4"
    static let goodOmens = "978-0-7432-7356-5"
    /// Added to the catalogue during the run.
    static let kafka = "978-1-4000-7998-8"
    static let austen = "a0000000-0000-4000-8000-000000000001"
    static let gaiman = "a0000000-0000-4000-8000-000000000005"
    /// Ada's active loan of Nineteen Eighty-Four.
    static let adasActiveLoan = "10000000-0000-4000-8000-000000000001"
    /// A member with a verified email (staff operations).
    static let ada = DifferentialCaller.verified("uid-ada", email: "ada@example.com")
    /// A member whose email is not verified.
    static let ben = DifferentialCaller.unverified("uid-ben")
    /// A signed-in user who joins during the run.
    static let dana = DifferentialCaller.verified("uid-dana", email: "dana@example.com")
    /// An anonymous kiosk user.
    static let anonymous = DifferentialCaller.anonymous("anon-kiosk")
    /// A verified account with the `librarian` custom claim.
    static let librarian = DifferentialCaller.verified("uid-librarian", claim: "librarian", true)
}
