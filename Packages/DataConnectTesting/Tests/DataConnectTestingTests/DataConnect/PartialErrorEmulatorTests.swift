import DataConnectTesting
import DataConnectWire
import Foundation
import Testing

@testable import FirebaseDataConnect

/// A mutation that fails partially, against the emulator serving a small backend written here, reached in-process.
///
/// The mutation has no `@transaction`, so its first root field is written and kept while the second
/// (a duplicate key) becomes `null` with an error.
@Suite struct PartialErrorEmulatorTests {
    struct AddTwoVariables: OperationVariable {
        var first: String
        var second: String
    }

    struct ShelfKey: Decodable, Sendable, Equatable {
        var code: String
    }

    struct AddTwoData: Decodable, Sendable {
        var first: ShelfKey?
        var second: ShelfKey?
    }

    static let schema = """
        # A shelf, keyed by its code.
        type Shelf @table(key: "code") {
          code: String!
          label: String!
        }
        """

    static let mutations = """
        mutation addTwoShelves($first: String!, $second: String!) @auth(level: PUBLIC) {
          first: shelf_insert(data: {code: $first, label: "first"})
          second: shelf_insert(data: {code: $second, label: "second"})
        }
        """

    let directory: URL
    let emulator: TestEmulator
    let dataConnect: DataConnect

    init() throws {
        directory = try TemporaryBackend.write(service: "shelves", schema: Self.schema, mutations: Self.mutations)
        emulator = try TestEmulator.inProcess(backend: directory.path)
        dataConnect = emulator.dataConnect(connector: "shelves")
    }

    @Test func duplicateSecondFieldKeepsFirstFieldAsPartialData() async throws {
        // given
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = emulator.executeAdmin(#"mutation { shelf_insert(data: {code: "taken", label: "seed"}) }"#)
        let ref = dataConnect.mutation(
            name: "addTwoShelves", variables: AddTwoVariables(first: "fresh", second: "taken"),
            resultsDataType: AddTwoData.self)

        // when
        let error = await #expect(throws: DataConnectOperationError.self) { try await ref.execute() }
        let stored = emulator.executeAdmin(#"query { shelf(key: {code: "fresh"}) { label } }"#)

        // then
        let response = try #require(error?.response)
        #expect(response.errors.count == 1)
        let info = try #require(response.errors.first)
        #expect(!info.message.isEmpty)
        #expect(info.path == [.field("second")])
        #expect(info.code == "ALREADY_EXISTS" || info.code == "FAILED_PRECONDITION")
        let partial = try #require(response.data(asType: AddTwoData.self))
        #expect(partial.first == ShelfKey(code: "fresh"))
        #expect(partial.second == nil)
        #expect(stored["data"]?["shelf"]?["label"] == "first")
    }
}
