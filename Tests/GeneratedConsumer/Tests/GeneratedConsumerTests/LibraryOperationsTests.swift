import DataConnectTesting
import FirebaseDataConnect
import Foundation
import LibraryKiosk
import LibraryLending
import Testing

/// The shared seeded library emulator and the auth provider both library connectors use in these tests.
enum LibraryFixture {
    /// Started once per database, on first use, for the whole suite.
    private static let started = SharedEmulators { database in
        try TestEmulator(backend: RepositoryPaths.library, seedFile: RepositoryPaths.librarySeed, database: database)
    }
    /// The signed-in user of both connectors, if any.
    static let auth = EmulatorAuth()

    /// The running emulator, with both shared connectors pointed at it, signed out.
    static func connect() throws -> TestEmulator {
        let emulator = try started.get()
        DataConnect.lendingConnector.useEmulator(host: emulator.host, port: emulator.port)
        DataConnect.kioskConnector.useEmulator(host: emulator.host, port: emulator.port)
        DataConnect.lendingConnector.setAuthTokenProvider(auth)
        DataConnect.kioskConnector.setAuthTokenProvider(auth)
        auth.signOut()
        return emulator
    }
}

/// Who calls an operation.
enum LibraryCaller: String, CaseIterable, Sendable {
    case signedOut, anonymous, signedIn, emailVerified
}

/// A text no other test uses, e.g. an ISBN or a tag.
private func unique(_ prefix: String) -> String { "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())" }

/// A calendar day.
private func day(_ text: String) throws -> LocalDate { try LocalDate(localDateString: text) }

/// Every operation of `DataConnect.lendingConnector` and `DataConnect.kioskConnector` against a live emulator.
@Suite(.onBothDatabases, .serialized) struct LibraryOperationsTests {
    let lending = DataConnect.lendingConnector
    let kiosk = DataConnect.kioskConnector
    let emulator: TestEmulator
    let auth = LibraryFixture.auth

    init() throws {
        emulator = try LibraryFixture.connect()
    }

    /// Signs in as a new user and returns its uid.
    @discardableResult
    private func signIn(_ caller: LibraryCaller = .emailVerified, librarian: Bool? = nil) -> String {
        let uid = unique("uid")
        let email = "\(uid)@example.com"
        switch (caller, librarian) {
        case (.signedOut, _): auth.signOut()
        case (.anonymous, _): auth.signIn(uid: uid, anonymous: true)
        case (.signedIn, _): auth.signIn(uid: uid, email: email, emailVerified: false)
        case (.emailVerified, nil): auth.signIn(uid: uid, email: email, emailVerified: true)
        case (.emailVerified, true?):
            auth.signIn(uid: uid, email: email, emailVerified: true, claims: ["librarian": true])
        case (.emailVerified, false?):
            auth.signIn(uid: uid, email: email, emailVerified: true, claims: ["librarian": false])
        }
        return uid
    }

    /// Signs in as a new verified member with a library card; returns the uid.
    private func newMember(_ name: String = "Reader") async throws -> String {
        let uid = signIn()
        _ = try await lending.joinLibraryMutation.execute(name: name) { $0.email = "\(uid)@example.com" }
        return uid
    }

    /// Adds a book through `addBook` (as a verified user) and returns its ISBN.
    private func addBook(
        _ title: String = "A Book", copies: Int? = nil,
        _ more: (@MainActor (inout AddBookMutation.Variables) -> Void)? = nil
    ) async throws -> String {
        let isbn = unique("isbn")
        _ = try await lending.addBookMutation.execute(isbn: isbn, title: title) {
            if let copies { $0.copies = copies }
            more?(&$0)
        }
        return isbn
    }

    /// Writes a loan directly (admin, no `@auth`): setup for the operations that act on existing loans.
    @discardableResult
    private func adminLoan(isbn: String, member: String, dueOn: String, status: String = "ACTIVE") throws -> UUID {
        let id = UUID()
        let result = emulator.executeAdmin(
            """
            mutation { loan_insert(data: {id: "\(id.uuidString.lowercased())", bookIsbn: "\(isbn)", \
            memberId: "\(member)", dueOn: "\(dueOn)", status: \(status)}) }
            """)
        try #require(result["errors"]?.arrayValue?.isEmpty ?? true, "\(result)")
        return id
    }

    // MARK: - Lending: members and books

    @Test func joinLibraryCreatesThenChangesTheCard() async throws {
        // given
        let uid = signIn(.signedIn)
        let before = try await lending.myCardQuery.execute()

        // when
        let joined = try await lending.joinLibraryMutation.execute(name: "Grace") { $0.email = "\(uid)@example.com" }
        let card = try await lending.myCardQuery.execute()
        _ = try await lending.joinLibraryMutation.execute(name: "Grace Hopper") { $0.email = nil }
        let renamed = try await lending.myCardQuery.execute()

        // then
        #expect(before.data.member == nil)
        #expect(joined.data.member_upsert.id == uid)
        #expect(card.data.member?.id == uid)
        #expect(card.data.member?.name == "Grace")
        #expect(card.data.member?.email == "\(uid)@example.com")
        #expect(card.data.member?.loans.isEmpty == true)
        #expect(renamed.data.member?.name == "Grace Hopper")
        #expect(renamed.data.member?.email == nil, "an explicit null clears the email")
    }

    @Test func memberOperationsAreRefusedSignedOut() async throws {
        // given
        auth.signOut()

        // when
        let card = await #expect(throws: DataConnectServerError.self) { try await lending.myCardQuery.execute() }
        let join = await #expect(throws: DataConnectServerError.self) {
            try await lending.joinLibraryMutation.execute(name: "Nobody")
        }

        // then
        #expect(card?.code == .unauthenticated)
        #expect(card?.httpStatus == 401)
        #expect(join?.code == .unauthenticated)
    }

    @Test func addBookRoundTripsEveryOptionalVariable() async throws {
        // given
        signIn()
        let extra = try AnyValue(codableValue: ["prize": "Hugo"])

        // when
        let isbn = try await addBook("Dune", copies: 4) {
            $0.published = try? day("1965-08-01")
            $0.pages = 412
            $0.tags = ["sci-fi", "desert"]
            $0.extra = extra
        }
        let plainIsbn = try await addBook("Plain")
        let book = try #require(try await lending.getBookQuery.execute(isbn: isbn).data.book)
        let plain = try #require(try await lending.getBookQuery.execute(isbn: plainIsbn).data.book)

        // then
        #expect(book.title == "Dune")
        #expect(book.published == (try day("1965-08-01")))
        #expect(book.pages == 412)
        #expect(book.copiesAvailable == 4)
        #expect(book.timesBorrowed == 0)
        #expect(book.tags == ["sci-fi", "desert"])
        #expect(book.extra == extra)
        #expect(book.byline.isEmpty && book.activeLoans.isEmpty)
        #expect(book.loanCount.first?._count ?? 0 == 0)
        #expect(plain.copiesAvailable == 1, "one copy when copies is not given")
        #expect(plain.published == nil && plain.pages == nil && plain.tags == nil && plain.extra == nil)
        #expect(try await lending.getBookQuery.execute(isbn: unique("none")).data.book == nil)
    }

    @Test func getBookReadsTheSeedsInt64AndAnyValues() async throws {
        // when
        let book = try #require(try await lending.getBookQuery.execute(isbn: "978-0-14-143951-8").data.book)

        // then
        #expect(book.title == "Pride and Prejudice")
        #expect(book.timesBorrowed == 9_007_199_254_740_993, "beyond 2^53")
        #expect(book.byline.map(\.author.name) == ["Jane Austen"])
        #expect(try #require(book.extra).jsonValue == ["editions": 3, "translations": ["fr", "de"], "prize": nil])
        #expect(book.activeLoans.map(\.member.name) == ["Ben Okri"])
    }

    @Test func staffOperationsNeedAVerifiedEmail() async throws {
        // given
        signIn(.signedIn)

        // when
        let error = await #expect(throws: DataConnectServerError.self) {
            try await lending.addBookMutation.execute(isbn: unique("isbn"), title: "Refused")
        }

        // then
        #expect(error?.code == .unauthenticated)
    }

    @Test func addAuthorToBookCreditsAuthorsInBylineOrder() async throws {
        // given
        signIn()
        let isbn = try await addBook("Good Omens II")

        // when
        let second = try await lending.addAuthorToBookMutation.execute(isbn: isbn, name: "Second Author") {
            $0.born = 1950
            $0.position = 2
        }
        let first = try await lending.addAuthorToBookMutation.execute(isbn: isbn, name: "First Author")
        let book = try #require(try await lending.getBookQuery.execute(isbn: isbn).data.book)
        let author = try await lending.getAuthorQuery.execute(id: second.data.author_insert.id)

        // then
        #expect(second.data.bookAuthor_insert.bookIsbn == isbn)
        #expect(second.data.bookAuthor_insert.authorId == second.data.author_insert.id)
        #expect(book.byline.map(\.position) == [1, 2], "position defaults to 1")
        #expect(book.byline.map(\.author.id) == [first.data.author_insert.id, second.data.author_insert.id])
        #expect(book.byline.last?.author.born == 1950)
        #expect(author.data.author?.name == "Second Author")
        #expect(author.data.author?.born == 1950)
        #expect(author.data.author?.books.map(\.isbn) == [isbn])
        #expect(try await lending.getAuthorQuery.execute(id: UUID()).data.author == nil)
    }

    @Test func tagBookAddsOnlyMissingTags() async throws {
        // given
        signIn()
        let isbn = try await addBook { $0.tags = ["classic"] }

        // when
        let tagged = try await lending.tagBookMutation.execute(isbn: isbn, tags: ["classic", "gothic"])
        let missing = try await lending.tagBookMutation.execute(isbn: unique("none"), tags: ["x"])

        // then
        #expect(tagged.data.book_update?.isbn == isbn)
        #expect(try await lending.getBookQuery.execute(isbn: isbn).data.book?.tags == ["classic", "gothic"])
        #expect(missing.data.book_update == nil)
    }

    @Test func removeBookDeletesTheBookWithItsCredits() async throws {
        // given
        signIn()
        let isbn = try await addBook()
        let author = try await lending.addAuthorToBookMutation.execute(isbn: isbn, name: "Ephemeral").data
            .author_insert.id

        // when
        let removed = try await lending.removeBookMutation.execute(isbn: isbn)
        let again = try await lending.removeBookMutation.execute(isbn: isbn)

        // then
        #expect(removed.data.book_delete?.isbn == isbn)
        #expect(again.data.book_delete == nil)
        #expect(try await lending.getBookQuery.execute(isbn: isbn).data.book == nil)
        #expect(try await lending.getAuthorQuery.execute(id: author).data.author?.books.isEmpty == true)
    }

    // MARK: - Lending: lists

    @Test func listBooksFiltersByTagAndPublishedAfter() async throws {
        // given: three books with a tag of their own
        signIn()
        let tag = unique("tag")
        let old = try await addBook("Alpha") {
            $0.tags = [tag]; $0.published = try? day("1900-01-01")
        }
        let mid = try await addBook("Beta") {
            $0.tags = [tag]; $0.published = try? day("1950-01-01")
        }
        let new = try await addBook("Gamma") {
            $0.tags = [tag, "new"]; $0.published = try? day("2000-01-01")
        }
        _ = try await lending.addAuthorToBookMutation.execute(isbn: new, name: "Gamma Writer")
        auth.signOut()

        // when
        let tagged = try await lending.listBooksQuery.execute { $0.tag = tag }.data.books
        let after = try await lending.listBooksQuery.execute {
            $0.tag = tag
            $0.publishedAfter = try? day("1950-01-01")
        }.data.books
        let limited = try await lending.listBooksQuery.execute {
            $0.tag = tag; $0.limit = 2
        }.data.books
        let everything = try await lending.listBooksQuery.execute().data.books

        // then
        #expect(tagged.map(\.isbn) == [old, mid, new], "by title")
        #expect(tagged.last?.authors.map(\.name) == ["Gamma Writer"])
        #expect(tagged.last?.tags == [tag, "new"])
        #expect(after.map(\.isbn) == [new])
        #expect(limited.map(\.isbn) == [old, mid])
        #expect(everything.count <= 50, "limit defaults to 50")
        #expect(everything.contains { $0.title == "Emma" && $0.copiesAvailable == 1 })
    }

    @Test func searchBooksMatchesTitleOrTagWithAMinimumOfPages() async throws {
        // given
        signIn()
        let word = unique("word")
        let inTitle = try await addBook("The \(word) Book") {
            $0.pages = 100; $0.published = try? day("1990-01-01")
        }
        let asTag = try await addBook("Tagged") {
            $0.tags = [word]
            $0.pages = 300
            $0.published = try? day("1980-01-01")
        }

        // when
        let any = try await lending.searchBooksQuery.execute(text: word).data.books
        let long = try await lending.searchBooksQuery.execute(text: word) { $0.minPages = 200 }.data.books

        // then
        #expect(any.map(\.isbn) == [asTag, inTitle], "by publication day")
        #expect(any.map(\.pages) == [300, 100])
        #expect(long.map(\.isbn) == [asTag])
    }

    @Test func catalogueStatsAggregatesBooksAndLoans() async throws {
        // given
        let before = try #require(try await lending.catalogueStatsQuery.execute().data)
        let member = try await newMember()
        let isbn = try await addBook { $0.pages = 1000 }
        try adminLoan(isbn: isbn, member: member, dueOn: "2030-01-01", status: "LOST")

        // when
        let after = try #require(try await lending.catalogueStatsQuery.execute().data)

        // then
        #expect(after.books.first?._count == (before.books.first?._count ?? 0) + 1)
        #expect(after.books.first?.pages_sum == (before.books.first?.pages_sum ?? 0) + 1000)
        #expect(after.books.first?.pages_max ?? 0 >= 1000)
        #expect(after.books.first?.timesBorrowed_max == 9_007_199_254_740_993)
        #expect(after.books.first?.published_min == (try day("1813-01-28")))
        let lost = { (stats: CatalogueStatsQuery.Data) in
            stats.loansByStatus.first { $0.status == .LOST }?._count ?? 0
        }
        #expect(lost(after) == lost(before) + 1)
        #expect(Set(after.loansByStatus.map(\.status)) == [.ACTIVE, .RETURNED, .LOST])
    }

    // MARK: - Lending: loans

    @Test func borrowBookLendsACopyToTheSignedInMember() async throws {
        // given
        _ = try await newMember("Borrower")
        let isbn = try await addBook("Borrowed", copies: 1)
        let due = try day("2031-05-01")

        // when
        let borrowed = try await lending.borrowBookMutation.execute(isbn: isbn, dueOn: due)
        let book = try #require(try await lending.getBookQuery.execute(isbn: isbn).data.book)
        let loans = try await lending.myLoansQuery.execute().data.loans

        // then
        #expect(borrowed.data.book_update?.isbn == isbn)
        #expect(loans.map(\.id) == [borrowed.data.loan_insert.id])
        #expect(loans.first?.dueOn == due && loans.first?.status == .ACTIVE)
        #expect(book.copiesAvailable == 0)
        #expect(book.timesBorrowed == 1)
        #expect(book.activeLoans.map(\.member.name) == ["Borrower"])
        #expect(try await lending.myCardQuery.execute().data.member?.loans.first?.book.isbn == isbn)
    }

    @Test func borrowBookFailsItsChecksWithoutACopy() async throws {
        // given
        _ = try await newMember()
        let isbn = try await addBook("Gone", copies: 0)
        let due = try day("2031-05-01")

        // when
        let noCopy = await #expect(throws: DataConnectOperationError.self) {
            try await lending.borrowBookMutation.execute(isbn: isbn, dueOn: due)
        }
        let noBook = await #expect(throws: DataConnectOperationError.self) {
            try await lending.borrowBookMutation.execute(isbn: unique("none"), dueOn: due)
        }

        // then
        #expect(noCopy?.response?.errors.first?.message == "no copy left on the shelf")
        #expect(noBook?.response?.errors.first?.message == "no such book")
        #expect(try await lending.myLoansQuery.execute().data.loans.isEmpty)
    }

    @Test func returnBookClosesTheLoanAndShelvesTheCopy() async throws {
        // given: an active loan of the signed-in member
        let member = try await newMember()
        let isbn = try await addBook(copies: 0)
        let loan = try adminLoan(isbn: isbn, member: member, dueOn: "2031-01-01")

        // when
        let returned = try await lending.returnBookMutation.execute(loanId: loan, isbn: isbn)
        let active = try await lending.myLoansQuery.execute().data.loans
        let closed = try await lending.myLoansQuery.execute { $0.status = .RETURNED }.data.loans
        let card = try #require(try await lending.myCardQuery.execute().data.member)
        let again = await #expect(throws: DataConnectOperationError.self) {
            try await lending.returnBookMutation.execute(loanId: loan, isbn: isbn)
        }

        // then
        #expect(returned.data.loan_update?.id == loan)
        #expect(returned.data.book_update?.isbn == isbn)
        #expect(active.isEmpty)
        #expect(closed.map(\.id) == [loan])
        #expect(card.loans.first?.status == .RETURNED)
        #expect(card.loans.first?.returnedAt != nil)
        #expect(try await lending.getBookQuery.execute(isbn: isbn).data.book?.copiesAvailable == 1)
        #expect(again?.response?.errors.first?.message == "no active loan of yours")
    }

    @Test func markLostWritesOffActiveLoansDueBeforeADay() async throws {
        // given
        let member = try await newMember()
        let isbn = try await addBook()
        let ancient = try adminLoan(isbn: isbn, member: member, dueOn: "1901-01-01")
        let future = try adminLoan(isbn: isbn, member: member, dueOn: "2098-01-01")

        // when
        let marked = try await lending.markLostMutation.execute(dueBefore: try day("1902-01-01"))
        let lost = try await lending.myLoansQuery.execute { $0.status = .LOST }.data.loans
        let active = try await lending.myLoansQuery.execute().data.loans

        // then
        #expect(marked.data.loan_updateMany >= 1)
        #expect(lost.map(\.id) == [ancient])
        #expect(active.map(\.id) == [future], "status defaults to ACTIVE")
        #expect(active.first?.book.isbn == isbn)
    }

    @Test func overdueLoansListsActiveLoansPastTheirDay() async throws {
        // given
        let member = try await newMember("Late Reader")
        let isbn = try await addBook()
        let late = try adminLoan(isbn: isbn, member: member, dueOn: "2001-02-03")
        let onTime = try adminLoan(isbn: isbn, member: member, dueOn: "2099-01-01")

        // when
        let overdue = try await lending.overdueLoansQuery.execute().data.loans
        signIn(.signedIn)
        let refused = await #expect(throws: DataConnectServerError.self) {
            try await lending.overdueLoansQuery.execute()
        }

        // then
        let mine = try #require(overdue.first { $0.id == late })
        #expect(mine.member.name == "Late Reader")
        #expect(mine.member.email == "\(member)@example.com")
        #expect(mine.book.isbn == isbn)
        #expect(mine.dueOn == (try day("2001-02-03")))
        #expect(!overdue.contains { $0.id == onTime })
        #expect(overdue.map(\.dueOn) == overdue.map(\.dueOn).sorted())
        #expect(refused?.code == .unauthenticated)
    }

    @Test func purgeReturnedLoansNeedsTheLibrarianClaim() async throws {
        // given: a returned loan
        let member = try await newMember()
        let isbn = try await addBook()
        try adminLoan(isbn: isbn, member: member, dueOn: "2020-01-01", status: "RETURNED")

        // when
        signIn(.emailVerified, librarian: false)
        let denied = await #expect(throws: DataConnectServerError.self) {
            try await lending.purgeReturnedLoansMutation.execute()
        }
        signIn(.emailVerified, librarian: true)
        let purged = try await lending.purgeReturnedLoansMutation.execute()

        // then
        #expect(denied?.code == .permissionDenied)
        #expect(purged.data.loan_deleteMany >= 1)
        #expect(try await lending.getBookQuery.execute(isbn: isbn).data.book?.loanCount.first?._count ?? 0 == 0)
    }

    @Test func lendingRefsExecuteWithEveryFetchPolicy() async throws {
        // given
        let ref = lending.getBookQuery.ref(isbn: "978-0-14-143955-6")

        // when
        let cached = try await ref.execute(fetchPolicy: .cacheOnly)
        let fetched = try await ref.execute(fetchPolicy: .serverOnly)

        // then
        #expect(cached.data == nil && cached.source == .cache)
        #expect(fetched.source == .server)
        #expect(fetched.data.book?.title == "Emma")
        #expect(ref.data?.book?.title == "Emma")
    }

    // MARK: - Kiosk

    @Test func suggestBookAddsATitleWithNoCopyOnTheShelf() async throws {
        // given
        signIn(.anonymous)
        let isbn = unique("isbn")

        // when
        let suggested = try await kiosk.suggestBookMutation.execute(isbn: isbn, title: "Aaa Suggested")
        _ = try await kiosk.suggestBookMutation.execute(isbn: isbn, title: "Aaa Suggested, 2nd ed.")
        let titles = try await kiosk.listTitlesQuery.execute().data.books
        let book = try await lending.getBookQuery.execute(isbn: isbn).data.book
        auth.signOut()
        let refused = await #expect(throws: DataConnectServerError.self) {
            try await kiosk.suggestBookMutation.execute(isbn: unique("isbn"), title: "Signed out")
        }

        // then
        #expect(suggested.data.book_upsert.isbn == isbn)
        #expect(titles.filter { $0.isbn == isbn }.map(\.title) == ["Aaa Suggested, 2nd ed."])
        #expect(titles.map(\.title) == titles.map(\.title).sorted())
        #expect(book?.copiesAvailable == 0)
        #expect(refused?.code == .unauthenticated)
    }

    /// Runs `operation` and checks it either succeeds with `expected` or is refused with `refusal`.
    private func expectOutcome<Value: Equatable>(
        _ name: String, refusal: DataConnectServerError.Code?, expected: Value,
        _ operation: () async throws -> Value
    ) async {
        if let refusal {
            let error = await #expect(throws: DataConnectServerError.self, "\(name)") { try await operation() }
            #expect(error?.code == refusal, "\(name)")
            #expect(error?.httpStatus == (refusal == .permissionDenied ? 403 : 401), "\(name)")
        } else {
            do {
                let value = try await operation()
                #expect(value == expected, "\(name)")
            } catch {
                Issue.record(error, "\(name) was refused")
            }
        }
    }

    /// The refusal the `@auth` level gives the caller, or nil when allowed.
    private func refusal(_ level: String, for caller: LibraryCaller) -> DataConnectServerError.Code? {
        switch (level, caller) {
        case ("PUBLIC", _): nil
        case ("NO_ACCESS", _): .permissionDenied
        case ("USER_ANON", .signedOut): .unauthenticated
        case ("USER_ANON", _): nil
        case ("USER", .signedOut), ("USER", .anonymous): .unauthenticated
        case ("USER", _): nil
        case ("USER_EMAIL_VERIFIED", .emailVerified): nil
        default: .unauthenticated
        }
    }

    @Test(arguments: LibraryCaller.allCases)
    func kioskCountQueriesFollowTheirAuthLevel(caller: LibraryCaller) async throws {
        // given: the number of books, from a public list
        auth.signOut()
        let total = try await kiosk.listTitlesQuery.execute().data.books.count
        signIn(caller)

        // when / then
        await expectOutcome("countPublic", refusal: refusal("PUBLIC", for: caller), expected: total) {
            try await kiosk.countPublicQuery.execute().data.books.first?._count ?? -1
        }
        await expectOutcome("countAnon", refusal: refusal("USER_ANON", for: caller), expected: total) {
            try await kiosk.countAnonQuery.execute().data.books.first?._count ?? -1
        }
        await expectOutcome("countUser", refusal: refusal("USER", for: caller), expected: total) {
            try await kiosk.countUserQuery.execute().data.books.first?._count ?? -1
        }
        await expectOutcome("countVerified", refusal: refusal("USER_EMAIL_VERIFIED", for: caller), expected: total) {
            try await kiosk.countVerifiedQuery.execute().data.books.first?._count ?? -1
        }
        await expectOutcome("countClosed", refusal: refusal("NO_ACCESS", for: caller), expected: total) {
            try await kiosk.countClosedQuery.execute().data.books.first?._count ?? -1
        }
    }

    @Test(arguments: LibraryCaller.allCases)
    func kioskTouchMutationsFollowTheirAuthLevel(caller: LibraryCaller) async throws {
        // given
        signIn(caller)

        // when / then: allowed mutations match no row
        await expectOutcome("touchPublic", refusal: refusal("PUBLIC", for: caller), expected: 0) {
            try await kiosk.touchPublicMutation.execute().data.book_updateMany
        }
        await expectOutcome("touchAnon", refusal: refusal("USER_ANON", for: caller), expected: 0) {
            try await kiosk.touchAnonMutation.execute().data.book_updateMany
        }
        await expectOutcome("touchUser", refusal: refusal("USER", for: caller), expected: 0) {
            try await kiosk.touchUserMutation.execute().data.book_updateMany
        }
        await expectOutcome("touchVerified", refusal: refusal("USER_EMAIL_VERIFIED", for: caller), expected: 0) {
            try await kiosk.touchVerifiedMutation.execute().data.book_updateMany
        }
        await expectOutcome("touchClosed", refusal: refusal("NO_ACCESS", for: caller), expected: 0) {
            try await kiosk.touchClosedMutation.execute().data.book_updateMany
        }
    }

    @Test func countUnmarkedIsRefusedEvenToAVerifiedUser() async throws {
        // given: an operation without @auth
        signIn(.emailVerified)

        // when
        let error = await #expect(throws: DataConnectServerError.self) {
            try await kiosk.countUnmarkedQuery.execute()
        }

        // then
        #expect(error?.code == .permissionDenied)
        #expect(error?.httpStatus == 403)
        #expect(error?.message?.contains("countUnmarked") == true)
    }
}
