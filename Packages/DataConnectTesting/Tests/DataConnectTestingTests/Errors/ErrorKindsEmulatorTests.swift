import DataConnectTestSupport
import DataConnectTesting
import FirebaseDataConnect
import Foundation
import Testing

/// Each way an operation fails against a real emulator throws something a caller tells apart by type or code,
/// without reading messages: the emulator down, an auth refusal, a permission refusal, bad variables, field errors.
@Suite struct ErrorKindsEmulatorTests {
    struct CodeVariables: OperationVariable {
        var code: String
    }

    /// `code` as a number, which the operation's `String!` refuses.
    struct WrongTypeVariables: OperationVariable {
        var code: Int
    }

    struct TwoCodes: OperationVariable {
        var first: String
        var second: String
    }

    struct AnyData: Decodable, Sendable {}

    static let schema = """
        # A note, keyed by its code.
        type Note @table(key: "code") {
          code: String!
          text: String!
        }
        """

    static let queries = """
        query myNotes @auth(level: USER) {
          notes { code }
        }

        query everyNote @auth(level: NO_ACCESS) {
          notes { code }
        }

        query noteByCode($code: String!) @auth(level: PUBLIC) {
          note(key: {code: $code}) { text }
        }
        """

    static let mutations = """
        mutation addTwoNotes($first: String!, $second: String!) @auth(level: PUBLIC) {
          first: note_insert(data: {code: $first, text: "first"})
          second: note_insert(data: {code: $second, text: "second"})
        }
        """

    let directory: URL
    let emulator: TestEmulator
    let dataConnect: DataConnect

    init() throws {
        directory = try TemporaryBackend.write(
            service: "notes", schema: Self.schema, queries: Self.queries, mutations: Self.mutations)
        emulator = try TestEmulator.inProcess(backend: directory.path)
        dataConnect = emulator.dataConnect(connector: "notes")
    }

    @Test func aStoppedEmulatorIsAConnectionErrorNotAServerRefusal() async throws {
        // given: the connector pointed at a port nobody listens on
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try Loopback.freePort()
        let stopped = DataConnect.dataConnect(
            app: DataConnectFixtures.makeApp(),
            connectorConfig: ConnectorConfig(serviceId: "notes", location: "us-central1", connector: "notes"))
        stopped.useEmulator(host: "127.0.0.1", port: port)

        // when
        let error = await #expect(throws: DataConnectConnectionError.self) {
            try await stopped.query(
                name: "noteByCode", variables: CodeVariables(code: "a"), resultsDataType: AnyData.self
            )
            .execute()
        }

        // then
        #expect(error?.code == .unavailable)
    }

    @Test func aSignedOutCallToAUserOperationIsUnauthenticated() async throws {
        // given
        defer { try? FileManager.default.removeItem(at: directory) }
        let ref = dataConnect.query(name: "myNotes", variables: NoVariables(), resultsDataType: AnyData.self)

        // when
        let error = await #expect(throws: DataConnectServerError.self) { try await ref.execute() }

        // then
        #expect(error?.code == .unauthenticated)
        #expect(error?.httpStatus == 401)
    }

    @Test func aNoAccessOperationIsPermissionDeniedEvenSignedIn() async throws {
        // given
        defer { try? FileManager.default.removeItem(at: directory) }
        let auth = EmulatorAuth()
        auth.signIn(uid: "uid-alice", email: "alice@example.com", emailVerified: true)
        dataConnect.setAuthTokenProvider(auth)
        let ref = dataConnect.query(name: "everyNote", variables: NoVariables(), resultsDataType: AnyData.self)

        // when
        let error = await #expect(throws: DataConnectServerError.self) { try await ref.execute() }

        // then
        #expect(error?.code == .permissionDenied)
        #expect(error?.httpStatus == 403)
    }

    @Test func aVariableOfTheWrongTypeIsInvalidArgument() async throws {
        // given
        defer { try? FileManager.default.removeItem(at: directory) }
        let ref = dataConnect.query(
            name: "noteByCode", variables: WrongTypeVariables(code: 7), resultsDataType: AnyData.self)

        // when
        let error = await #expect(throws: DataConnectServerError.self) { try await ref.execute() }

        // then
        #expect(error?.code == .invalidArgument)
        #expect(error?.httpStatus == 400)
    }

    @Test func aFieldErrorIsAnOperationErrorWithThePartialResponse() async throws {
        // given: a code already taken, so the second insert fails and the first is kept
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = emulator.executeAdmin(#"mutation { note_insert(data: {code: "taken", text: "seed"}) }"#)
        let ref = dataConnect.mutation(
            name: "addTwoNotes", variables: TwoCodes(first: "fresh", second: "taken"), resultsDataType: AnyData.self)

        // when
        let error = await #expect(throws: DataConnectOperationError.self) { try await ref.execute() }

        // then
        #expect(error?.response?.errors.map(\.path) == [[.field("second")]])
        #expect(error?.response?.rawJsonData != nil, "the partial data is kept")
    }
}
