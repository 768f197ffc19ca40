import DataConnectWire
import FirebaseCore
import Testing

@testable import FirebaseDataConnect

/// What a caller catches for each way an operation can fail: each is told apart by its type or code alone.
@Suite struct ErrorKindsTests {
    static let refused = TransportError.connection("Could not connect to the server.", code: -1004)
    static let timedOut = TransportError.connection("The request timed out.", code: -1001)

    private func query(_ transport: RecordingTransport) -> QueryRefObservation<MovieList, GenreVariables> {
        DataConnectFixtures.dataConnect(transport).query(
            name: "listMoviesByGenre", variables: GenreVariables(genre: "Sci-Fi"), resultsDataType: MovieList.self)
    }

    private func mutation(_ transport: RecordingTransport) -> MutationRef<MovieList, GenreVariables> {
        DataConnectFixtures.dataConnect(transport).mutation(
            name: "createMovie", variables: GenreVariables(genre: "Sci-Fi"), resultsDataType: MovieList.self)
    }

    @Test func aConnectionFailureIsAConnectionErrorAndNotAServerRefusal() async throws {
        // given
        let transport = RecordingTransport(replies: [.failure(Self.refused)])

        // when
        let thrown = await #expect(throws: DataConnectConnectionError.self) {
            try await query(transport).execute()
        }

        // then
        let error = try #require(thrown)
        #expect(error.code == .unavailable)
        #expect(error.underlyingError as? TransportError == Self.refused)
        #expect(error.description.contains("Could not connect to the server."))
    }

    @Test func aTimeOutIsAConnectionErrorWithDeadlineExceeded() async throws {
        // given
        let transport = RecordingTransport(replies: [.failure(Self.timedOut)])

        // when
        let thrown = await #expect(throws: DataConnectConnectionError.self) {
            try await mutation(transport).execute()
        }

        // then
        #expect(thrown?.code == .deadlineExceeded)
        #expect(thrown?.code.description == "deadlineExceeded")
    }

    @Test(arguments: [
        (StatusCode.unauthenticated, 401, DataConnectServerError.Code.unauthenticated),
        (.permissionDenied, 403, .permissionDenied),
        (.invalidArgument, 400, .invalidArgument),
    ])
    func aRefusalIsAServerErrorWithTheServersCode(
        status: StatusCode, httpStatus: Int, expected: DataConnectServerError.Code
    ) async throws {
        // given
        let transport = RecordingTransport(replies: [
            .failure(.server(RequestError(status: status, message: "refused"), httpStatus: httpStatus))
        ])

        // when
        let thrown = await #expect(throws: DataConnectServerError.self) { try await query(transport).execute() }

        // then
        #expect(thrown?.code == expected)
        #expect(thrown?.httpStatus == httpStatus)
    }

    @Test func fieldErrorsAreAnOperationErrorWithTheResponse() async throws {
        // given
        let transport = RecordingTransport(replies: [
            .success(
                GraphQLResponse(
                    data: ["movies": nil],
                    errors: [GraphQLError(message: "boom", path: ["movies"], code: .failedPrecondition)]))
        ])

        // when
        let thrown = await #expect(throws: DataConnectOperationError.self) { try await mutation(transport).execute() }

        // then
        #expect(thrown?.response?.errors.map(\.code) == ["FAILED_PRECONDITION"])
    }

    @Test func theMappingOfEachTransportFailure() {
        // given
        let failures: [TransportError] = [
            Self.refused, Self.timedOut,
            .server(RequestError(status: .unavailable, message: "stopping"), httpStatus: 503),
            .authentication("no token"), .malformedResponse("not JSON"),
        ]

        // when
        let errors = failures.map(\.dataConnectError)

        // then: only the failures without a response are connection errors
        #expect((errors[0] as? DataConnectConnectionError)?.code == .unavailable)
        #expect((errors[1] as? DataConnectConnectionError)?.code == .deadlineExceeded)
        #expect((errors[2] as? DataConnectServerError)?.code == .unavailable)
        #expect((errors[2] as? DataConnectServerError)?.httpStatus == 503)
        #expect((errors[3] as? DataConnectServerError)?.code == .unauthenticated)
        #expect((errors[4] as? DataConnectServerError)?.code == .internal)
    }
}

/// An error thrown to the caller is the caller's to report: the SDK logs it for debugging only.
@Suite struct FailureLoggingTests {
    /// An instance whose log lines, at every level, go to `lines`.
    private func dataConnect(
        _ transport: RecordingTransport, lines: LockedList<String>, level: FirebaseLoggerLevel = .debug
    ) -> DataConnect {
        DataConnect(
            app: DataConnectFixtures.makeApp(), connectorConfig: DataConnectFixtures.config, transport: transport,
            environment: [:], logger: DataConnectLogger(level: { level }, write: { lines.append($0) }))
    }

    @Test func aFailedMutationAndQueryAreLoggedAtDebugLevelOnly() async throws {
        // given
        let lines = LockedList<String>()
        let transport = RecordingTransport(replies: [
            .failure(.server(RequestError(status: .permissionDenied, message: "no"), httpStatus: 403)),
            .failure(ErrorKindsTests.refused),
        ])
        let dataConnect = dataConnect(transport, lines: lines)

        // when
        await #expect(throws: DataConnectServerError.self) {
            try await dataConnect.mutation(
                name: "updateRecipe", variables: NoVariables(), resultsDataType: MovieList.self
            ).execute()
        }
        await #expect(throws: DataConnectConnectionError.self) {
            try await dataConnect.query(name: "listMovies", variables: NoVariables(), resultsDataType: MovieList.self)
                .execute()
        }

        // then
        let failures = lines.all.filter { $0.contains("failed") }
        #expect(failures.count == 2, "\(lines.all)")
        #expect(failures.allSatisfy { $0.hasPrefix("[FirebaseDataConnect] debug: ") }, "\(failures)")
        #expect(failures.first?.contains("updateRecipe failed") == true)
    }

    @Test func atTheDefaultLevelAFailureTheCallerCatchesPrintsNothing() async throws {
        // given
        let lines = LockedList<String>()
        let transport = RecordingTransport(replies: [.failure(ErrorKindsTests.refused)])
        let dataConnect = dataConnect(transport, lines: lines, level: .notice)

        // when
        await #expect(throws: DataConnectConnectionError.self) {
            try await dataConnect.mutation(
                name: "updateRecipe", variables: NoVariables(), resultsDataType: MovieList.self
            ).execute()
        }

        // then
        #expect(lines.all.isEmpty, "\(lines.all)")
    }
}
