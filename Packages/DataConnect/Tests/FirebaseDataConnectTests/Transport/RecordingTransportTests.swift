import DataConnectWire
import Testing

@testable import FirebaseDataConnect

@Suite struct RecordingTransportTests {
    @Test func repliesFromTheQueueInOrderAndRecordsRequests() async throws {
        // given
        let transport = RecordingTransport()
        transport.enqueue(GraphQLResponse(data: ["n": 1]))
        transport.enqueue(failure: .server(RequestError(status: .unauthenticated, message: "no"), httpStatus: 401))

        // when
        let response = try await transport.execute(TransportFixtures.query("a"))
        let error = await #expect(throws: TransportError.self) {
            try await transport.execute(TransportFixtures.mutation("b"))
        }

        // then
        #expect(response.data == ["n": 1])
        #expect(error?.status == .unauthenticated)
        #expect(transport.requests.map(\.operationName) == ["a", "b"])
        #expect(transport.requests.map(\.kind) == [.query, .mutation])
    }

    @Test func handlerAnswersWhenTheQueueIsEmpty() async throws {
        // given
        let transport = RecordingTransport { request in
            GraphQLResponse(data: ["echo": .string(request.operationName)])
        }

        // when
        let response = try await transport.execute(TransportFixtures.query("hello"))

        // then
        #expect(response.data == ["echo": "hello"])
    }

    @Test func withoutReplyOrHandlerItThrows() async {
        // given
        let transport = RecordingTransport()

        // when / then
        await #expect(throws: TransportError.invalidRequest("RecordingTransport has no reply for x")) {
            try await transport.execute(TransportFixtures.query("x"))
        }
    }
}
