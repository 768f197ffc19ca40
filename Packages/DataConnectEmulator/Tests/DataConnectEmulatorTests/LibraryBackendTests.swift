import DataConnectEngine
import DataConnectWire
import EmulatorTesting
import Testing

/// Every operation of `Tests/Backends/library`, a lending library written for these tests, end to end over HTTP.
///
/// It differs from the movies sample everywhere the emulator could have special-cased it: the service and
/// connector ids differ (`library` serves `lending` and `kiosk`), books are keyed by an ISBN string
/// (`@table(key: "isbn")`), members by the auth uid, and it has an enum ordered unlike the alphabet, an Int64
/// counter beyond 2^53, a list column, an `Any` column, Date and Timestamp columns and a CEL `@auth(expr:)`.
@Suite(.onBothDatabases) struct LibraryBackendTests {
    let emulator: TestEmulator
    let client: EmulatorClient

    init() throws {
        emulator = try Backend.library.start()
        client = EmulatorClient(emulator, connector: "lending")
    }

    static let pride = "978-0-14-143951-8"
    static let emma = "978-0-14-143955-6"
    static let nineteenEightyFour = "978-0-452-28423-4"
    static let leftHand = "978-0-06-231609-7"
    static let goodOmens = "978-0-7432-7356-5"
    static let janeAusten = "a0000000-0000-4000-8000-000000000001"
    static let ada = TestEmulator.token(uid: "uid-ada", email: "ada@example.com")
    static let ben = TestEmulator.token(uid: "uid-ben", email: "ben@example.com")
    static let staff = TestEmulator.token(uid: "uid-staff", email: "desk@library.example", emailVerified: true)

    /// The lending operations the tests call; the kiosk's are covered by ``AuthOutcomeTests`` and below.
    static let coveredLending: Set<String> = [
        "listBooks", "getBook", "searchBooks", "catalogueStats", "getAuthor", "myCard", "myLoans", "overdueLoans",
        "librarianLoans", "joinLibrary", "addBook", "addAuthorToBook", "tagBook", "borrowBook", "returnBook",
        "markLost", "removeBook",
        "purgeReturnedLoans",
    ]

    @Test func everyDeclaredOperationIsCovered() throws {
        // given
        let lending = try declaredOperations(inConnectorFolder: Backend.library.directory + "/lending")
        let kiosk = try declaredOperations(inConnectorFolder: Backend.library.directory + "/kiosk")
        let kioskCovered = Set(
            AuthOutcomeTests.Level.allCases.map(\.query) + AuthOutcomeTests.Level.allCases.compactMap(\.mutation)
        )
        .union(["listTitles", "suggestBook"])

        // then
        #expect(lending == Self.coveredLending)
        #expect(kiosk == kioskCovered)
    }

    @Test func infoListsBothConnectorsOfTheService() async throws {
        // when
        let result = try await client.send(emulator.url + "/emulator/info", method: "GET")

        // then
        #expect(result.json["services"]?[0]?["serviceId"] == "library")
        #expect(Set(strings(result.json["services"]?[0]?["connectors"])) == ["lending", "kiosk"])
    }

    // MARK: Queries

    @Test func listBooksOrdersByTitleWithAuthorsFromTheJoinTable() async throws {
        // when
        let result = try await client.query("listBooks")

        // then
        let books = expectData(result)["books"]
        #expect(
            strings(column(books, "title")) == [
                "Emma", "Good Omens", "Nineteen Eighty-Four", "Pride and Prejudice", "The Left Hand of Darkness",
                "Untitled Draft",
            ])
        let goodOmens = try #require(books?[1])
        #expect(Set(strings(column(goodOmens["authors"], "name"))) == ["Terry Pratchett", "Neil Gaiman"])
        #expect(goodOmens["tags"] == ["fantasy", "comedy"])
        #expect(books?[5]?["tags"] == .null)
        #expect(books?[5]?["published"] == .null)
        #expect(books?[5]?["authors"] == [])
        #expect(books?[5]?["copiesAvailable"] == 1, "the column default")
        #expect(
            strings(result.property(at: ["books"])?["entityIds"]).first == .some("Book/\(Self.emma)"),
            "string keys appear verbatim")
        #expect(
            strings(result.property(at: ["books", 0, "authors"])?["entityIds"]) == [
                "Author/a0000000000040008000000000000001"
            ])
    }

    @Test func listBooksFiltersOnAListElementAndADate() async throws {
        // when
        let classicsAfter1814 = try await client.query("listBooks", ["tag": "classic", "publishedAfter": "1814-01-01"])
        let limited = try await client.query("listBooks", ["limit": 2])

        // then
        #expect(strings(column(expectData(classicsAfter1814)["books"], "title")) == ["Emma", "Nineteen Eighty-Four"])
        #expect(strings(column(expectData(limited)["books"], "title")) == ["Emma", "Good Omens"])
    }

    @Test func getBookReadsEveryKindOfColumn() async throws {
        // when
        let result = try await client.query("getBook", ["isbn": .string(Self.pride)])

        // then
        let book = try #require(expectData(result)["book"])
        #expect(book["isbn"] == .string(Self.pride))
        #expect(book["published"] == "1813-01-28")
        #expect(book["pages"] == 432)
        #expect(book["copiesAvailable"] == 2)
        #expect(book["timesBorrowed"] == "9007199254740993", "Int64 beyond 2^53, exact, as a string")
        #expect(book["tags"] == ["classic", "romance"])
        #expect(
            book["extra"] == ["editions": 3, "translations": ["fr", "de"], "prize": nil],
            "an object literal in the seed")
        #expect(
            book["byline"] == [
                [
                    "position": 1,
                    "author": ["id": "a0000000000040008000000000000001", "name": "Jane Austen", "born": 1775],
                ]
            ])
        #expect(book["loanCount"] == [["_count": 1]])
        #expect(book["activeLoans"] == [["dueOn": "2099-12-31", "member": ["name": "Ben Okri"]]])
        #expect(
            result.property(at: ["book"]) == [
                "path": ["book"], "entityId": .string("Book/\(Self.pride)"), "action": "GET",
            ])
        #expect(
            strings(result.property(at: ["book", "byline"])?["entityIds"]) == [
                "BookAuthor/\(Self.pride)/a0000000000040008000000000000001"
            ])
        #expect(result.property(at: ["book", "activeLoans", 0, "member"])?["entityId"] == "Member/uid-ben")
    }

    @Test func getBookReadsAnyColumnsHoldingScalars() async throws {
        // when
        let nineteenEightyFour = try await client.query("getBook", ["isbn": .string(Self.nineteenEightyFour)])
        let emma = try await client.query("getBook", ["isbn": .string(Self.emma)])

        // then
        #expect(expectData(nineteenEightyFour)["book"]?["extra"] == "banned somewhere, once")
        #expect(expectData(emma)["book"]?["extra"] == .null)
    }

    @Test func anyObjectLiteralsInTheOperationTextKeepTheirMembers() async throws {
        // when
        let written = try await client.admin(
            #"mutation { book_insert(data: {isbn: "x-1", title: "T", extra: {a: 1, b: [1, "two", {c: null}], d: {e: "f"}}}) }"#
        )
        let read = try await client.query("getBook", ["isbn": "x-1"])

        // then
        expectData(written)
        #expect(expectData(read)["book"]?["extra"] == ["a": 1, "b": [1, "two", ["c": nil]], "d": ["e": "f"]])
    }

    @Test func getBookOrdersTheBylineByPositionAndAnswersNullForAnUnknownIsbn() async throws {
        // when
        let goodOmens = try await client.query("getBook", ["isbn": .string(Self.goodOmens)])
        let unknown = try await client.query("getBook", ["isbn": "978-0-00-000000-9"])

        // then
        let byline = expectData(goodOmens)["book"]?["byline"]
        #expect(column(byline, "position") == [1, 2])
        #expect(strings(column(column(byline, "author"), "name")) == ["Terry Pratchett", "Neil Gaiman"])
        #expect(expectData(unknown) == ["book": nil])
    }

    @Test func searchBooksMatchesTitlesOrTagsAndDropsAnAbsentBound() async throws {
        // when
        let classicsOver400 = try await client.query("searchBooks", ["text": "classic", "minPages": 400])
        let byTitle = try await client.query("searchBooks", ["text": "Dark"])

        // then
        #expect(strings(column(expectData(classicsOver400)["books"], "title")) == ["Pride and Prejudice", "Emma"])
        #expect(
            expectData(byTitle)["books"] == [
                ["isbn": .string(Self.leftHand), "title": "The Left Hand of Darkness", "pages": 304]
            ])
    }

    @Test func catalogueStatsAggregatesAndOrdersEnumsByDeclaration() async throws {
        // when
        let result = try await client.query("catalogueStats")

        // then
        let data = expectData(result)
        #expect(
            data["books"] == [
                [
                    "_count": 6, "pages_sum": 1950, "pages_max": 474, "timesBorrowed_max": "9007199254740993",
                    "published_min": "1813-01-28",
                ]
            ])
        #expect(
            data["loansByStatus"] == [
                ["status": "ACTIVE", "_count": 3], ["status": "RETURNED", "_count": 1],
                ["status": "LOST", "_count": 1],
            ], "declaration order, not alphabetical")
    }

    @Test func getAuthorListsTheirBooksThroughTheJoinTable() async throws {
        // when
        let result = try await client.query("getAuthor", ["id": .string(Self.janeAusten)])

        // then
        let author = expectData(result)["author"]
        #expect(author?["id"] == "a0000000000040008000000000000001")
        #expect(author?["born"] == 1775)
        #expect(Set(strings(column(author?["books"], "title"))) == ["Pride and Prejudice", "Emma"])
    }

    @Test func myCardReadsTheCallersMemberRowByAuthUid() async throws {
        // when
        let ada = try await client.query("myCard", token: Self.ada)
        let stranger = try await client.query("myCard", token: TestEmulator.token(uid: "uid-nobody"))

        // then
        let member = try #require(expectData(ada)["member"])
        #expect(member["id"] == "uid-ada")
        #expect(member["email"] == "ada@example.com")
        #expect(member["joinedAt"] == "2023-09-01T08:00:00Z")
        #expect(
            member["loans"] == [
                [
                    "id": "10000000000040008000000000000001", "status": "ACTIVE", "borrowedAt": "2024-03-01T10:00:00Z",
                    "dueOn": "2024-03-22", "returnedAt": nil,
                    "book": ["isbn": .string(Self.nineteenEightyFour), "title": "Nineteen Eighty-Four"],
                ],
                [
                    "id": "10000000000040008000000000000002", "status": "RETURNED",
                    "borrowedAt": "2024-01-05T09:30:00Z", "dueOn": "2024-01-26", "returnedAt": "2024-01-20T16:00:00Z",
                    "book": ["isbn": .string(Self.emma), "title": "Emma"],
                ],
            ])
        #expect(ada.property(at: ["member"])?["entityId"] == "Member/uid-ada")
        #expect(expectData(stranger) == ["member": nil])
    }

    @Test func timestampsKeepMillisecondFractions() async throws {
        // when
        let cleo = try await client.admin(
            "query { member(id: \"uid-cleo\") { joinedAt loans_on_member { borrowedAt } } }")

        // then
        #expect(
            expectData(cleo) == [
                "member": [
                    "joinedAt": "2024-01-02T12:00:00.250Z",
                    "loans_on_member": [["borrowedAt": "2023-11-11T11:11:11.500Z"]],
                ]
            ])
    }

    @Test func myLoansDefaultsToActiveLoans() async throws {
        // when
        let bens = try await client.query("myLoans", token: Self.ben)
        let adasReturned = try await client.query("myLoans", ["status": "RETURNED"], token: Self.ada)

        // then
        #expect(column(expectData(bens)["loans"], "dueOn") == ["2024-03-02", "2099-12-31"])
        #expect(strings(column(expectData(bens)["loans"], "status")) == ["ACTIVE", "ACTIVE"])
        #expect(expectData(adasReturned)["loans"]?[0]?["book"]?["title"] == "Emma")
        #expect(expectData(adasReturned)["loans"]?.arrayValue?.count == 1)
    }

    @Test func overdueLoansComparesWithToday() async throws {
        // when
        let result = try await client.query("overdueLoans", token: Self.staff)

        // then
        let loans = expectData(result)["loans"]
        #expect(column(loans, "dueOn") == ["2024-03-02", "2024-03-22"])
        #expect(strings(column(column(loans, "member"), "name")) == ["Ben Okri", "Ada Lovelace"])
    }

    @Test func librarianLoansNeedTheLibrarianClaim() async throws {
        // given: a verified member without the claim, and an account an admin gave it
        var claims: JSONObject = [
            "sub": "uid-desk", "user_id": "uid-desk", "email_verified": true,
            "firebase": ["sign_in_provider": "password"],
        ]
        let withoutClaim = AuthContext.unsignedToken(claims: claims)
        claims["librarian"] = true
        let librarian = AuthContext.unsignedToken(claims: claims)

        // when
        let refused = try await client.query("librarianLoans", token: withoutClaim)
        let allowed = try await client.query("librarianLoans", token: librarian)

        // then
        #expect(refused.status == 403)
        #expect(refused.errorStatus == "PERMISSION_DENIED")
        let loans = expectData(allowed)["loans"]
        #expect(column(loans, "dueOn") == ["2024-03-02", "2024-03-22", "2099-12-31"])
    }

    // MARK: Mutations

    @Test func joinLibraryCreatesThenUpdatesTheCallersCard() async throws {
        // given
        let dana = TestEmulator.token(uid: "uid-dana")

        // when
        let joined = try await client.mutation(
            "joinLibrary", ["name": "Dana", "email": "dana@example.com"], token: dana)
        let renamed = try await client.mutation("joinLibrary", ["name": "Dana Scully"], token: dana)

        // then
        #expect(expectData(joined) == ["member_upsert": ["id": "uid-dana"]])
        #expect(
            joined.property(at: ["member_upsert"]) == [
                "path": ["member_upsert"], "entityId": "Member/uid-dana", "action": "UPSERT",
            ])
        expectData(renamed)
        let card = expectData(try await client.query("myCard", token: dana))["member"]
        #expect(card?["name"] == "Dana Scully")
        #expect(card?["email"] == "dana@example.com", "an absent variable leaves the column alone")
        #expect(card?["joinedAt"]?.stringValue?.hasSuffix("Z") == true)
        #expect(card?["loans"] == [])

        // when
        let cleared = try await client.mutation("joinLibrary", ["name": "Dana Scully", "email": nil], token: dana)

        // then
        expectData(cleared)
        #expect(
            expectData(try await client.query("myCard", token: dana))["member"]?["email"] == .null,
            "an explicit null writes NULL")
    }

    @Test func addBookWritesEveryColumnKindFromVariables() async throws {
        // when
        let added = try await client.mutation(
            "addBook",
            [
                "isbn": "978-1-4028-9462-6", "title": "The Dispossessed", "published": "1974-05-01T21:00:00-05:00",
                "pages": 387,
                "copies": 4, "tags": ["sci-fi", "utopia"],
                "extra": ["hugo": 1975, "nebula": true, "notes": [nil, "first ed."]],
            ], token: Self.staff)
        let minimal = try await client.mutation(
            "addBook", ["isbn": "978-0-00-000000-1", "title": "Pamphlet"], token: Self.staff)

        // then
        #expect(expectData(added) == ["book_insert": ["isbn": "978-1-4028-9462-6"]])
        #expect(added.property(at: ["book_insert"])?["action"] == "CREATE")
        let book = expectData(try await client.query("getBook", ["isbn": "978-1-4028-9462-6"]))["book"]
        #expect(book?["published"] == "1974-05-01", "a Date keeps the text before T")
        #expect(book?["copiesAvailable"] == 4)
        #expect(book?["timesBorrowed"] == "0")
        #expect(book?["tags"] == ["sci-fi", "utopia"])
        #expect(book?["extra"] == ["hugo": 1975, "nebula": true, "notes": [nil, "first ed."]])
        expectData(minimal)
        let pamphlet = expectData(try await client.query("getBook", ["isbn": "978-0-00-000000-1"]))["book"]
        #expect(pamphlet?["copiesAvailable"] == 1, "an absent $copies leaves the @default")
        #expect(pamphlet?["extra"] == .null)
    }

    @Test func addAuthorToBookBindsTheNewAuthorsIdThroughTheResponse() async throws {
        // when
        let result = try await client.mutation(
            "addAuthorToBook", ["isbn": "978-0-00-000000-0", "name": "A. Nonymous", "born": 1990, "position": 1],
            token: Self.staff)

        // then
        let data = expectData(result)
        let authorID = try #require(data["author_insert"]?["id"]?.stringValue)
        #expect(data["bookAuthor_insert"] == ["bookIsbn": "978-0-00-000000-0", "authorId": .string(authorID)])
        #expect(
            result.property(at: ["bookAuthor_insert"])?["entityId"]
                == .string("BookAuthor/978-0-00-000000-0/\(authorID)"))
        let book = expectData(try await client.query("getBook", ["isbn": "978-0-00-000000-0"]))["book"]
        #expect(
            book?["byline"] == [
                ["position": 1, "author": ["id": .string(authorID), "name": "A. Nonymous", "born": 1990]]
            ])
    }

    @Test func tagBookAddsOnlyMissingTags() async throws {
        // when
        let result = try await client.mutation(
            "tagBook", ["isbn": .string(Self.emma), "tags": ["classic", "regency"]], token: Self.staff)

        // then
        #expect(expectData(result) == ["book_update": ["isbn": .string(Self.emma)]])
        #expect(
            expectData(try await client.query("getBook", ["isbn": .string(Self.emma)]))["book"]?["tags"] == [
                "classic", "regency",
            ])
    }

    @Test func borrowAndReturnMoveACopyAndCountTheLoan() async throws {
        // when
        let borrowed = try await client.mutation(
            "borrowBook", ["isbn": .string(Self.leftHand), "dueOn": "2031-02-03"], token: Self.ada)

        // then
        let data = expectData(borrowed)
        #expect(data.objectKeys == ["loan_insert", "book_update"], "the redacted guard is not in the response")
        let loanID = try #require(data["loan_insert"]?["id"]?.stringValue)
        var book = expectData(try await client.query("getBook", ["isbn": .string(Self.leftHand)]))["book"]
        #expect(book?["copiesAvailable"] == 2)
        #expect(book?["timesBorrowed"] == "6")
        let loans = expectData(try await client.query("myLoans", token: Self.ada))["loans"]
        #expect(
            loans?.arrayValue?.last == [
                "id": .string(loanID), "status": "ACTIVE", "dueOn": "2031-02-03",
                "book": ["isbn": .string(Self.leftHand), "title": "The Left Hand of Darkness"],
            ])

        // when: someone else tries to return it, then Ada does
        let notTheirs = try await client.mutation(
            "returnBook", ["loanId": .string(loanID), "isbn": .string(Self.leftHand)], token: Self.ben)
        let returned = try await client.mutation(
            "returnBook", ["loanId": .string(loanID), "isbn": .string(Self.leftHand)], token: Self.ada)
        let twice = try await client.mutation(
            "returnBook", ["loanId": .string(loanID), "isbn": .string(Self.leftHand)], token: Self.ada)

        // then
        #expect(notTheirs.errors.first?["message"] == "no active loan of yours")
        #expect(notTheirs.errors.last?["message"] == "(aborted)")
        #expect(
            expectData(returned) == [
                "loan_update": ["id": .string(loanID)], "book_update": ["isbn": .string(Self.leftHand)],
            ])
        #expect(twice.errors.first?["message"] == "no active loan of yours")
        book = expectData(try await client.query("getBook", ["isbn": .string(Self.leftHand)]))["book"]
        #expect(book?["copiesAvailable"] == 3, "returned once, not twice")
        let card = expectData(try await client.query("myCard", token: Self.ada))["member"]
        let loan = try #require(card?["loans"]?.arrayValue?.first { $0["id"] == .string(loanID) })
        #expect(loan["status"] == "RETURNED")
        #expect(loan["returnedAt"]?.stringValue?.hasSuffix("Z") == true)
    }

    @Test func markLostUpdatesManyAndAnswersTheCount() async throws {
        // when
        let result = try await client.mutation("markLost", ["dueBefore": "2024-03-10"], token: Self.staff)

        // then
        #expect(expectData(result) == ["loan_updateMany": 1])
        let stats = expectData(try await client.query("catalogueStats"))
        #expect(
            stats["loansByStatus"] == [
                ["status": "ACTIVE", "_count": 2], ["status": "RETURNED", "_count": 1],
                ["status": "LOST", "_count": 2],
            ])
        #expect(
            strings(
                column(
                    expectData(try await client.query("myLoans", ["status": "LOST"], token: Self.ben))["loans"], "dueOn"
                )) == ["2024-03-02"])
    }

    @Test func removeBookCascadesToLoansAndCredits() async throws {
        // when
        let removed = try await client.mutation(
            "removeBook", ["isbn": .string(Self.nineteenEightyFour)], token: Self.staff)
        let again = try await client.mutation(
            "removeBook", ["isbn": .string(Self.nineteenEightyFour)], token: Self.staff)

        // then
        #expect(expectData(removed) == ["book_delete": ["isbn": .string(Self.nineteenEightyFour)]])
        #expect(removed.property(at: ["book_delete"])?["action"] == "DELETE")
        #expect(expectData(again) == ["book_delete": nil])
        let counts = try await client.admin("query { loans { _count } bookAuthors { _count } authors { _count } }")
        #expect(
            expectData(counts) == [
                "loans": [["_count": 3]], "bookAuthors": [["_count": 5]], "authors": [["_count": 5]],
            ])
    }

    @Test func purgeReturnedLoansNeedsTheLibrarianClaim() async throws {
        // when
        let purged = try await client.mutation(
            "purgeReturnedLoans", token: TestEmulator.unsignedToken(["sub": "uid-staff", "librarian": true]))

        // then
        #expect(expectData(purged) == ["loan_deleteMany": 1])
        #expect(expectData(try await client.query("myLoans", ["status": "RETURNED"], token: Self.ada)) == ["loans": []])
    }

    // MARK: The kiosk connector (no client cache)

    @Test func kioskQueriesCarryNoEntityIds() async throws {
        // given
        let kiosk = EmulatorClient(emulator, connector: "kiosk")

        // when
        let result = try await kiosk.query("listTitles")

        // then
        #expect(strings(column(expectData(result)["books"], "isbn")).count == 6)
        #expect(result.json["extensions"]?["dataConnect"] ?? [] == [], "\(result)")
    }

    @Test func kioskSuggestionsGoInTheCatalogueWithoutCopiesOrEntityIds() async throws {
        // given
        let kiosk = EmulatorClient(emulator, connector: "kiosk")
        let visitor = TestEmulator.token(uid: "uid-visitor", anonymous: true)

        // when
        let suggested = try await kiosk.mutation(
            "suggestBook", ["isbn": "978-0-00-000000-2", "title": "Wish List"], token: visitor)
        let touched = try await kiosk.mutation("touchPublic")

        // then
        #expect(expectData(suggested)["book_upsert"] == ["isbn": "978-0-00-000000-2"])
        #expect(suggested.dataConnect.isEmpty, "no clientCache, no entity ids: \(suggested)")
        #expect(expectData(touched) == ["book_updateMany": 0])
        #expect(touched.dataConnect.isEmpty, "\(touched)")
        let book = expectData(try await client.query("getBook", ["isbn": "978-0-00-000000-2"]))["book"]
        #expect(book?["title"] == "Wish List")
        #expect(book?["copiesAvailable"] == 0)
    }
}
