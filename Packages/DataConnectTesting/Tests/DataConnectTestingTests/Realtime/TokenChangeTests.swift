import DataConnectTesting
import Foundation
import Testing

@testable import FirebaseDataConnect

/// A refreshed ID token reaches live subscriptions: the server checks each against the new claims, on the WebSocket
/// stream and in process alike.
@Suite struct TokenChangeTests {
    static let schema = "type Note @table { label: String! }"
    static let queries = """
        query librarianShelves @auth(expr: "auth.token.librarian == true") { notes(orderBy: {label: ASC}) { label } }
        query myShelves @auth(level: USER) { notes(orderBy: {label: ASC}) { label } }
        """
    static let mutations = """
        mutation addShelf($label: String!) @auth(level: PUBLIC) { note_insert(data: {label: $label}) }
        """

    struct Shelves: Decodable, Sendable {
        struct Shelf: Decodable, Sendable { var label: String }
        var notes: [Shelf]
    }

    struct Label: OperationVariable { var label: String }

    @Test(arguments: [TestEmulator.Mode.inProcess, .live])
    func aTokenThatLostTheClaimEndsTheSubscriptionItGated(mode: TestEmulator.Mode) async throws {
        // given: a librarian subscribed to a query only librarians may read, and to one any user may read
        let directory = try TemporaryBackend.write(
            service: "shelves", schema: Self.schema, queries: Self.queries, mutations: Self.mutations)
        defer { try? FileManager.default.removeItem(at: directory) }
        let emulator = try TestEmulator(backend: directory.path, mode: mode)
        let dataConnect = emulator.dataConnect(connector: "shelves")
        let auth = EmulatorAuth(projectID: "demo")
        auth.signIn(uid: "uid-lee", claims: ["librarian": true])
        dataConnect.setAuthTokenProvider(auth)
        let gated = Recorder(
            try await dataConnect.query(
                name: "librarianShelves", variables: NoVariables(), resultsDataType: Shelves.self
            )
            .subscribe())
        let open = Recorder(
            try await dataConnect.query(name: "myShelves", variables: NoVariables(), resultsDataType: Shelves.self)
                .subscribe())
        _ = await gated.wait(for: 1)
        _ = await open.wait(for: 1)

        // when: an admin takes the claim away and the client's token is refreshed (same user)
        auth.signIn(uid: "uid-lee", claims: [:])
        let ended = await gated.wait(for: 2)

        // then: the gated subscription ends with the code a new request gets; the other one goes on
        let error = try #require(
            ended.last.flatMap { result -> DataConnectServerError? in
                if case .failure(let error) = result { return error.dataConnectError as? DataConnectServerError }
                return nil
            })
        #expect(error.code == .permissionDenied, "\(error)")
        _ = try await dataConnect.mutation(
            name: "addShelf", variables: Label(label: "Fiction"), resultsDataType: AnyDecodable.self
        ).execute()
        let seen = await open.wait(for: 2)
        #expect((try? seen.last?.get())?.data?.notes.map(\.label) == ["Fiction"])
        #expect(gated.all.count == 2, "nothing after the end")
    }
}

/// Any JSON answer, ignored.
struct AnyDecodable: Decodable, Sendable {
    init(from decoder: any Decoder) throws {}
}
