import DataConnectTesting
import FirebaseDataConnect
import Foundation
import LedgerBooks
import Testing

/// A row of `PostingTotals`, decoded from its `Any` value.
private struct PostingTotal: Decodable, Equatable {
    var account: Int
    var postings: Int
}

/// The row of `LargestPosting`, decoded from its `Any` value.
private struct LargestPosting: Decodable, Equatable {
    var memo: String?
    var amount: Double
}

/// Every operation of `DataConnect.booksConnector` (`Tests/Backends/ledger`) against a live emulator: numbers the
/// database assigns, SQL defaults, the `Balance` view and its reference, and native SQL.
///
/// The ledger has no seed and counts from 1, so each test gets an empty emulator of its own; the suite is serialized
/// because the shared connector points at one emulator at a time.
@Suite(.onBothDatabases, .serialized) struct LedgerOperationsTests {
    let books = DataConnect.booksConnector
    let emulator: TestEmulator

    init() throws {
        emulator = try TestEmulator(backend: RepositoryPaths.ledger, database: TestDatabase.required())
        books.useEmulator(host: emulator.host, port: emulator.port)
    }

    /// Today's date in UTC, the day `CURRENT_DATE` gives the emulator's databases.
    private static func todayUTC() throws -> LocalDate {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let parts = calendar.dateComponents([.year, .month, .day], from: Date())
        let text = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        return try LocalDate(localDateString: text)
    }

    /// Opens accounts for `owners`, numbered 1, 2, ... by the database, and posts `postings` on them.
    private func ledger(owners: [String], postings: [(account: Int, amount: Double, memo: String?)]) async throws {
        for owner in owners { _ = try await books.openAccountMutation.execute(owner: owner) }
        for posting in postings {
            _ = try await books.postMutation.execute(account: posting.account, amount: posting.amount) {
                $0.memo = posting.memo
            }
        }
    }

    // MARK: - Numbering and defaults

    @Test func openAccountReturnsTheNumberTheDatabaseGives() async throws {
        // when: three accounts without numbers, one with, then one more without
        var numbers: [Int] = []
        for owner in ["ada", "ben", "cy"] {
            numbers.append(try await books.openAccountMutation.execute(owner: owner).data.account_insert.number)
        }
        let given = try await books.openAccountNumberedMutation.execute(number: 10, owner: "dee")
        let accounts = try await books.accountsQuery.execute().data.accounts

        // then: numbered 1, 2, 3 in order; the given number is kept; the SQL defaults ran
        #expect(numbers == [1, 2, 3])
        #expect(given.data.account_insert == AccountKey(number: 10))
        #expect(accounts.map(\.number) == [1, 2, 3, 10])
        #expect(accounts.map(\.owner) == ["ada", "ben", "cy", "dee"])
        #expect(accounts.map(\.accountKey) == [1, 2, 3, 10].map(AccountKey.init(number:)))
        #expect(accounts.allSatisfy { $0.code == "ACC" }, "upper('acc')")
        let today = try Self.todayUTC()
        #expect(accounts.allSatisfy { $0.openedOn == today }, "CURRENT_DATE")
    }

    @Test func openAccountNumberedRefusesANumberInUse() async throws {
        // given
        _ = try await books.openAccountNumberedMutation.execute(number: 7, owner: "first")

        // when
        let error = await #expect(throws: DataConnectOperationError.self) {
            try await books.openAccountNumberedMutation.execute(number: 7, owner: "second")
        }
        let accounts = try await books.accountsQuery.execute().data.accounts

        // then
        let message = error?.response?.errors.first?.message ?? ""
        #expect(message.contains("duplicate key"), "\(message)")
        #expect(accounts.map(\.owner) == ["first"])
    }

    @Test func postNumbersPostingsWithAnInt64Sequence() async throws {
        // given
        _ = try await books.openAccountMutation.execute(owner: "ada")
        _ = try await books.openAccountNumberedMutation.execute(number: 10, owner: "dee")

        // when
        let first = try await books.postMutation.execute(account: 1, amount: 5.5) { $0.memo = "coffee" }
        let second = try await books.postMutation.execute(account: 10, amount: 2)
        let postings = try await books.postingsQuery.execute().data.postings

        // then
        #expect(first.data.posting_insert != second.data.posting_insert, "postings are keyed by a UUID")
        #expect(postings.map(\.sequence) == [Int64(1), 2])
        #expect(postings.map(\.amount) == [5.5, 2])
        #expect(postings.map(\.account.number) == [1, 10])
    }

    // MARK: - The Balance view

    @Test func balancesListsTheViewFilteredOrderedAndThroughItsReference() async throws {
        // given: ada with two postings, ben with one, cy with none
        try await ledger(
            owners: ["ada", "ben", "cy"], postings: [(1, 10, "rent"), (1, 2.5, nil), (2, 4, "fee")])

        // when
        let atLeastOne = try await books.balancesQuery.execute { $0.minimum = 1 }.data.balances
        let all = try await books.balancesQuery.execute().data.balances

        // then
        #expect(atLeastOne.map(\.owner) == ["ada", "ben"], "by total, descending")
        #expect(atLeastOne.map(\.postings) == [2, 1])
        #expect(atLeastOne.map(\.total) == [12.5, 4])
        #expect(atLeastOne.map(\.account?.number) == [1, 2])
        #expect(atLeastOne.map(\.account?.owner) == ["ada", "ben"])
        #expect(atLeastOne.map(\.account?.accountKey) == [AccountKey(number: 1), AccountKey(number: 2)])
        #expect(all.map(\.owner) == ["ada", "ben", "cy"], "no minimum, no filter")
        #expect(all.last?.postings == 0 && all.last?.total == 0)
    }

    @Test func balanceTotalsAggregatesTheView() async throws {
        // given
        let empty = try await books.balanceTotalsQuery.execute().data.balances
        try await ledger(
            owners: ["ada", "ben", "cy"], postings: [(1, 10, "rent"), (1, 2.5, nil), (2, 4, "fee")])

        // when
        let totals = try await books.balanceTotalsQuery.execute().data.balances

        // then
        #expect(empty.map(\._count) == [0])
        #expect(empty.first?.total_sum == nil)
        #expect(totals.map(\._count) == [3])
        #expect(totals.first?.total_sum == 16.5)
    }

    @Test func accountWithBalanceReachesTheViewFromTheAccount() async throws {
        // given
        try await ledger(owners: ["ada", "ben"], postings: [(1, 10, "rent"), (1, 2.5, nil)])

        // when
        let ada = try await books.accountWithBalanceQuery.execute(number: 1).data.account
        let ben = try await books.accountWithBalanceQuery.execute(number: 2).data.account
        let nobody = try await books.accountWithBalanceQuery.execute(number: 99).data.account

        // then
        #expect(ada?.owner == "ada")
        #expect(ada?.balance_on_account?.total == 12.5)
        #expect(ada?.balance_on_account?.postings == 2)
        #expect(ben?.owner == "ben")
        #expect(ben?.balance_on_account?.total == 0)
        #expect(ben?.balance_on_account?.postings == 0)
        #expect(nobody == nil)
    }

    // MARK: - Native SQL

    @Test func postingTotalsSelectsRowsWithABoundParameter() async throws {
        // given
        let empty = try await books.postingTotalsQuery.execute(minimum: 0).data._select
        try await ledger(
            owners: ["ada", "ben", "cy"], postings: [(1, 10, "rent"), (1, 2.5, nil), (2, 4, "fee")])

        // when
        let all = try await books.postingTotalsQuery.execute(minimum: 0).data._select
        let large = try await books.postingTotalsQuery.execute(minimum: 3).data._select
        let none = try await books.postingTotalsQuery.execute(minimum: 100).data._select

        // then
        #expect(empty == [])
        let rows = try #require(all).map { try $0?.decodeValue(PostingTotal.self) }
        #expect(rows == [PostingTotal(account: 1, postings: 2), PostingTotal(account: 2, postings: 1)])
        let largeRows = try #require(large).map { try $0?.decodeValue(PostingTotal.self) }
        #expect(largeRows == [PostingTotal(account: 1, postings: 1), PostingTotal(account: 2, postings: 1)])
        #expect(none == [])
    }

    @Test func largestPostingSelectsTheFirstRowOrNull() async throws {
        // given
        let empty = try await books.largestPostingQuery.execute().data._selectFirst
        try await ledger(owners: ["ada", "ben"], postings: [(1, 2.5, nil), (2, 10, "rent"), (1, 10, "later")])

        // when
        let largest = try await books.largestPostingQuery.execute().data._selectFirst

        // then
        #expect(empty == nil)
        #expect(try largest?.decodeValue(LargestPosting.self) == LargestPosting(memo: "rent", amount: 10))
    }

    @Test func clearMemosCountsTheRowsItChanges() async throws {
        // given
        try await ledger(owners: ["ada", "ben"], postings: [(1, 10, "rent"), (1, 2.5, "snack"), (2, 12, "fee")])

        // when
        let cleared = try await books.clearMemosMutation.execute(account: 2)
        let again = try await books.clearMemosMutation.execute(account: 2)
        let other = try await books.clearMemosMutation.execute(account: 1)
        let largest = try await books.largestPostingQuery.execute().data._selectFirst

        // then
        #expect(cleared.data._execute == 1)
        #expect(again.data._execute == 0, "only postings that still have a memo")
        #expect(other.data._execute == 2)
        #expect(try largest?.decodeValue(LargestPosting.self) == LargestPosting(memo: nil, amount: 12))
    }
}
