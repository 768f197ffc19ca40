import Testing

/// The database a test runs on: SQLite in memory, or a fresh schema in the test process's PostgreSQL cluster.
///
/// A suite says which databases its tests run on with a trait, and its fixtures read the one of the running test
/// from ``current``; nothing in the environment decides it:
///
/// ```swift
/// import DataConnectTesting
/// import Testing
///
/// @Suite(.onBothDatabases) struct MovieTests {
///     let emulator: TestEmulator
///
///     init() throws {
///         emulator = try TestEmulator(backend: "Backend/movies", database: try TestDatabase.required())
///     }
///
///     @Test func listsMovies() throws {
///         // runs twice: on SQLite, then on PostgreSQL
///     }
/// }
/// ```
public enum TestDatabase: String, Sendable, CaseIterable {
    /// SQLite in memory.
    case sqlite
    /// A fresh schema in the process's PostgreSQL cluster (``TestPostgreSQLSchema``).
    case postgreSQL = "postgresql"

    /// The database the running test was given by its ``TestDatabaseTrait`` (`.onBothDatabases` or
    /// `.on(_:)`); `nil` in a test without one.
    ///
    /// Fixtures should call ``required(fileID:filePath:line:column:)`` instead, which says what to do when it is `nil`.
    @TaskLocal public static var current: TestDatabase?

    /// The database the running test runs on, as its trait set it.
    ///
    /// The caller's file and line go into the error; no `import Testing` is needed to call it.
    ///
    /// - Returns: ``current``.
    /// - Throws: ``TestDatabaseError`` when the test is not marked with a ``TestDatabaseTrait``: a test must say
    ///   whether it runs on both databases or on one, so that no new suite silently runs on SQLite only.
    public static func required(
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) throws(TestDatabaseError) -> TestDatabase {
        try required(sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// The database the running test runs on, as its trait set it, for a fixture that passes its caller's
    /// location on.
    ///
    /// - Parameter sourceLocation: Where the database was asked for, for the error.
    /// - Returns: ``current``.
    /// - Throws: ``TestDatabaseError`` when the test is not marked with a ``TestDatabaseTrait``.
    public static func required(sourceLocation: SourceLocation) throws(TestDatabaseError) -> TestDatabase {
        guard let current else {
            throw TestDatabaseError(test: Test.current?.name, sourceLocation: sourceLocation)
        }
        return current
    }

    /// The database's name in test output: `SQLite` or `PostgreSQL`.
    public var displayName: String {
        switch self {
        case .sqlite: return "SQLite"
        case .postgreSQL: return "PostgreSQL"
        }
    }
}

/// A fixture asked for the database of a test that does not say which database it runs on.
public struct TestDatabaseError: Error, CustomStringConvertible, Sendable {
    /// The test's name, when known.
    public let test: String?
    /// Where the database was asked for.
    public let sourceLocation: SourceLocation

    /// What happened and what to do.
    public var description: String {
        "\(test.map { "test \($0)" } ?? "this test") asked for its database at \(sourceLocation) but does not say "
            + "which database it runs on: mark its suite `@Suite(.onBothDatabases)`, or `.on(.sqlite)` / "
            + "`.on(.postgreSQL)` with a comment saying why it is about one database"
    }
}

/// Runs a test once per database, with ``TestDatabase/current`` set: `.onBothDatabases` (SQLite, then
/// PostgreSQL) or `.on(_:)` (one database).
///
/// On a suite it applies to every test in it, nested suites included; a trait on a test, or on an inner suite,
/// replaces the outer one. Each issue recorded while a database runs says which (`on PostgreSQL`), and an error
/// thrown on one database is recorded and the next still runs.
///
/// ```swift
/// @Suite(.onBothDatabases) struct FilterTests {
///     @Test func matchesPatterns() throws { ... }           // SQLite, then PostgreSQL
///
///     // The check is about SQLite's file format.
///     @Test(.on(.sqlite)) func refusesADamagedFile() throws { ... }
/// }
/// ```
public struct TestDatabaseTrait: SuiteTrait, TestTrait, TestScoping {
    /// The databases each test runs on, in order.
    public let databases: [TestDatabase]

    /// Applied to the tests of nested suites too.
    public var isRecursive: Bool { true }

    /// `on SQLite`, `on both databases`.
    public var comments: [Comment] {
        let names =
            databases == TestDatabase.allCases
            ? "both databases" : databases.map(\.displayName).joined(separator: " and ")
        return [Comment(rawValue: "on " + names)]
    }

    /// Scopes test cases only: a suite's own scope would run its whole content once per database.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs `function` once per database of the innermost ``TestDatabaseTrait`` of `test`.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // The outermost trait of the test runs it; the inner ones (a test's own trait under its suite's) only
        // choose the databases.
        guard TestDatabase.current == nil else { return try await function() }
        let innermost = test.traits.last { $0 is TestDatabaseTrait } as? TestDatabaseTrait ?? self
        for database in innermost.databases {
            let naming = IssueHandlingTrait.compactMapIssues { issue in
                var named = issue
                named.comments.append(Comment(rawValue: "on \(database.displayName)"))
                return named
            }
            try await naming.provideScope(for: test, testCase: testCase) {
                try await TestDatabase.$current.withValue(database) {
                    do {
                        try await function()
                    } catch is ExpectationFailedError {
                        // A failed #require has recorded its issue already.
                    } catch let error where !(error is CancellationError) {
                        Issue.record(error, sourceLocation: test.sourceLocation)
                    }
                }
            }
        }
    }
}

extension Trait where Self == TestDatabaseTrait {
    /// Runs each test on SQLite, then on PostgreSQL, with ``TestDatabase/current`` set.
    public static var onBothDatabases: Self { TestDatabaseTrait(databases: TestDatabase.allCases) }

    /// Runs each test on one database, with ``TestDatabase/current`` set: for tests about that engine (say why in a
    /// comment beside the trait).
    ///
    /// - Parameter database: The database.
    public static func on(_ database: TestDatabase) -> Self { TestDatabaseTrait(databases: [database]) }
}
