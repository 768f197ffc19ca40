import DataConnectWire
import EmulatorTesting
import SQLiteKit
import Testing

@testable import DataConnectEngine

/// `Date` inputs by Google's rule: a date may carry a `Timestamp`'s time part, which is checked and dropped,
/// keeping the date written before the `T` (not the date of the instant in UTC); outputs are `YYYY-MM-DD`.
///
/// Every input position goes through the same rule: literals and variables, list columns, filters (`eq`, `in`,
/// list `includes`), `Date_Relative.on`, `Date_ListUpdate` values and `@default(value:)`. The suite runs on
/// SQLite and on PostgreSQL's `date` columns.
@Suite(.onBothDatabases) struct DateInputTests {
    static let schema = """
        type Trip @table {
          name: String!
          day: Date
          days: [Date]
          plannedOn: Date @default(value: "2024-05-01T23:30:00-05:00")
          holidays: [Date] @default(value: ["2024-12-25T23:00:00-05:00", "2025-01-01"])
        }
        """

    static let operations = """
        mutation AddTrip($id: UUID!, $day: Date, $days: [Date!]) @auth(level: PUBLIC) {
          trip_insert(data: {id: $id, name: "variable", day: $day, days: $days})
        }
        mutation AppendDays($id: UUID!, $more: [Date!]!) @auth(level: PUBLIC) {
          trip_update(id: $id, data: {days_update: [{append: $more}]})
        }
        query Trip($id: UUID!) @auth(level: PUBLIC) { trip(id: $id) { name day days plannedOn holidays } }
        query TripsOn($day: Date!) @auth(level: PUBLIC) {
          trips(where: {day: {eq: $day}}, orderBy: [{name: ASC}]) { name }
        }
        query TripsIn($days: [Date!]!) @auth(level: PUBLIC) {
          trips(where: {day: {in: $days}}, orderBy: [{name: ASC}]) { name }
        }
        query TripsIncluding($day: Date!) @auth(level: PUBLIC) {
          trips(where: {days: {includes: $day}}, orderBy: [{name: ASC}]) { name }
        }
        """

    /// Texts that are `2024-05-01`: the date alone, or with a time part in UTC, ahead of it or behind it (whose
    /// instant falls on April 30 or May 2 in UTC), with a fraction, in lower case.
    static let mayFirst = [
        "2024-05-01", "2024-05-01T00:00:00Z", "2024-05-01T23:30:00-05:00", "2024-05-01T00:30:00+01:00",
        "2024-05-01T12:00:00.123456Z", "2024-05-01T23:59:59.123456-05:00", "2024-05-01t10:00:00z",
    ]

    /// Texts that are neither a date nor a date with a valid time part.
    static let notDates = [
        "2024-02-30", "2024-02-30T10:00:00Z", "2024-05-01T25:00:00Z", "2024-05-01T10:00:00", "2024-05-01T",
        "2024-05-01T10:00:00+0100", "2024-05-01T10:00:00.Z", "yesterday",
    ]

    static let id = "f0000000000000000000000000000001"

    /// A backend with three trips, on April 30 (`before`), May 1 (`match`) and May 2 (`after`), each listing
    /// its own day.
    static func backendWithThreeDays() throws -> TestBackend {
        let backend = try TestBackend(Self.operations, schema: Self.schema, seeded: false)
        let rows = [("before", "2024-04-30"), ("match", "2024-05-01"), ("after", "2024-05-02")].map { name, day in
            #"{name: "\#(name)", day: "\#(day)", days: ["\#(day)"]}"#
        }
        let seed = backend.admin("mutation { trip_insertMany(data: [\(rows.joined(separator: ", "))]) }")
        #expect(seed.errors.isEmpty && seed.status == .ok, "\(seed.body)")
        return backend
    }

    static func names(_ result: EngineResult) -> [String] {
        (result.data?["trips"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
    }

    // MARK: Accepted

    @Test(arguments: mayFirst)
    func storesAVariableAsTheDateWrittenBeforeTheT(_ input: String) throws {
        // given
        let backend = try TestBackend(Self.operations, schema: Self.schema, seeded: false)

        // when
        let insert = backend.mutation(
            "AddTrip", ["id": .string(Self.id), "day": .string(input), "days": [.string(input)]])
        let read = backend.query("Trip", ["id": .string(Self.id)])

        // then
        #expect(insert.errors.isEmpty && insert.status == .ok, "\(insert.body)")
        #expect(try backend.rows("SELECT CAST(day AS TEXT) FROM trip") == [[.text("2024-05-01")]])
        #expect(read.data?["trip"]?["day"] == "2024-05-01")
        #expect(read.data?["trip"]?["days"] == ["2024-05-01"])
    }

    @Test(arguments: mayFirst)
    func storesALiteralAsTheDateWrittenBeforeTheT(_ input: String) throws {
        // given
        let backend = try TestBackend(Self.operations, schema: Self.schema, seeded: false)

        // when
        let insert = backend.admin(
            #"mutation { trip_insert(data: {id: "\#(Self.id)", name: "literal", day: "\#(input)", days: ["\#(input)"]}) }"#
        )
        let read = backend.query("Trip", ["id": .string(Self.id)])

        // then
        #expect(insert.errors.isEmpty && insert.status == .ok, "\(insert.body)")
        #expect(try backend.rows("SELECT CAST(day AS TEXT) FROM trip") == [[.text("2024-05-01")]])
        #expect(read.data?["trip"]?["day"] == "2024-05-01")
        #expect(read.data?["trip"]?["days"] == ["2024-05-01"])
    }

    @Test(arguments: mayFirst)
    func filtersOnTheDateWrittenBeforeTheT(_ input: String) throws {
        // given
        let backend = try Self.backendWithThreeDays()

        // when
        let equal = backend.query("TripsOn", ["day": .string(input)])
        let within = backend.query("TripsIn", ["days": [.string(input), "2023-01-01T00:00:00Z"]])
        let including = backend.query("TripsIncluding", ["day": .string(input)])
        let literal = backend.admin(#"{ trips(where: {day: {eq: "\#(input)"}}) { name } }"#)
        let relative = backend.admin(#"{ trips(where: {day: {le_date: {on: "\#(input)"}}}) { name } }"#)

        // then
        #expect(Self.names(equal) == ["match"], "\(equal.body)")
        #expect(Self.names(within) == ["match"], "\(within.body)")
        #expect(Self.names(including) == ["match"], "\(including.body)")
        #expect(Self.names(literal) == ["match"], "\(literal.body)")
        #expect(Set(Self.names(relative)) == ["before", "match"], "\(relative.body)")
    }

    @Test(arguments: mayFirst)
    func startsARelativeDateOnTheDateWrittenBeforeTheT(_ input: String) throws {
        // given
        let backend = try TestBackend(Self.operations, schema: Self.schema, seeded: false)

        // when
        let insert = backend.admin(
            #"mutation { trip_insert(data: {id: "\#(Self.id)", name: "relative", day_date: {on: "\#(input)", add: {days: 1}}}) }"#
        )
        let read = backend.query("Trip", ["id": .string(Self.id)])

        // then
        #expect(insert.errors.isEmpty && insert.status == .ok, "\(insert.body)")
        #expect(read.data?["trip"]?["day"] == "2024-05-02")
    }

    @Test(arguments: mayFirst)
    func updatesAListWithTheDateWrittenBeforeTheT(_ input: String) throws {
        // given
        let backend = try TestBackend(Self.operations, schema: Self.schema, seeded: false)
        _ = backend.mutation("AddTrip", ["id": .string(Self.id), "days": ["2024-04-30"]])

        // when
        let appended = backend.mutation("AppendDays", ["id": .string(Self.id), "more": [.string(input)]])
        let added = backend.admin(
            #"mutation { trip_update(id: "\#(Self.id)", data: {days_update: [{add: ["\#(input)", "2024-05-02"]}]}) }"#)
        let read = backend.query("Trip", ["id": .string(Self.id)])

        // then: `add` skips the date `append` already wrote
        #expect(appended.errors.isEmpty && appended.status == .ok, "\(appended.body)")
        #expect(added.errors.isEmpty && added.status == .ok, "\(added.body)")
        #expect(read.data?["trip"]?["days"] == ["2024-04-30", "2024-05-01", "2024-05-02"])
    }

    @Test func storesADefaultValueWrittenWithATimePartAsItsDate() throws {
        // given
        let backend = try TestBackend(Self.operations, schema: Self.schema, seeded: false)

        // when
        let insert = backend.mutation("AddTrip", ["id": .string(Self.id)])
        let read = backend.query("Trip", ["id": .string(Self.id)])

        // then: the defaults' dates as written, not December 26 in UTC
        #expect(insert.errors.isEmpty && insert.status == .ok, "\(insert.body)")
        #expect(try backend.rows("SELECT CAST(planned_on AS TEXT) FROM trip") == [[.text("2024-05-01")]])
        #expect(read.data?["trip"]?["plannedOn"] == "2024-05-01")
        #expect(read.data?["trip"]?["holidays"] == ["2024-12-25", "2025-01-01"])
    }

    @Test func storesTheDateOfATimestampExpression() throws {
        // given
        let backend = try TestBackend(Self.operations, schema: Self.schema, seeded: false)

        // when: CEL writes the request time in UTC, so its date is the UTC date
        let insert = backend.admin(
            #"mutation { trip_insert(data: {id: "\#(Self.id)", name: "expr", day_expr: "request.time"}) }"#)
        let read = backend.query("Trip", ["id": .string(Self.id)])

        // then
        #expect(insert.errors.isEmpty && insert.status == .ok, "\(insert.body)")
        let day = try #require(read.data?["trip"]?["day"]?.stringValue)
        #expect(day.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil, "\(read.body)")
    }

    // MARK: Refused

    @Test(arguments: notDates)
    func refusesAVariableThatIsNotADate(_ input: String) throws {
        // given
        let backend = try Self.backendWithThreeDays()

        // when
        let insert = backend.mutation("AddTrip", ["id": .string(Self.id), "day": .string(input)])
        let inList = backend.mutation("AddTrip", ["id": .string(Self.id), "days": ["2024-05-01", .string(input)]])
        let filter = backend.query("TripsOn", ["day": .string(input)])
        let appended = backend.mutation("AppendDays", ["id": .string(Self.id), "more": [.string(input)]])

        // then: each request is refused as a whole, naming the variable, and nothing is written
        for (result, variable) in [(insert, "$day"), (inList, "$days"), (filter, "$day"), (appended, "$more")] {
            #expect(result.status == .invalidArgument, "\(result.body)")
            #expect(result.requestErrorMessage?.contains(variable) == true, "\(result.body)")
        }
        #expect(try backend.rows("SELECT count(*) FROM trip") == [[.integer(3)]])
    }

    @Test(arguments: notDates)
    func refusesALiteralThatIsNotADate(_ input: String) throws {
        // given
        let backend = try Self.backendWithThreeDays()

        // when
        let insert = backend.admin(#"mutation { trip_insert(data: {name: "literal", day: "\#(input)"}) }"#)
        let filter = backend.admin(#"{ trips(where: {day: {eq: "\#(input)"}}) { name } }"#)
        let relative = backend.admin(#"mutation { trip_insert(data: {name: "x", day_date: {on: "\#(input)"}}) }"#)

        // then
        for result in [insert, filter, relative] {
            #expect(result.status == .invalidArgument, "\(result.body)")
            #expect(
                result.requestErrorMessage?.contains(#"expected value of type "Date", found "\#(input)""#) == true,
                "\(result.body)")
        }
        #expect(try backend.rows("SELECT count(*) FROM trip") == [[.integer(3)]])
    }
}
