import DataConnectWire
import Foundation
import Testing

@testable import FirebaseDataConnect

@Suite struct DataConnectErrorTests {
    struct MovieData: Decodable {
        struct Movie: Decodable { var id: String; var title: String }
        var first: Movie?
        var second: Movie?
    }

    static let partialResponse = GraphQLResponse(
        data: ["first": ["id": "m1", "title": "Alien"], "second": nil],
        errors: [
            GraphQLError(
                message: "duplicate key value violates unique constraint", path: ["second"], code: .alreadyExists
            ),
            GraphQLError(message: "second problem", path: ["second", 0, "title"]),
        ]
    )

    @Test func operationErrorDescribesEveryServerMessage() {
        // when
        let error = DataConnectOperationError(Self.partialResponse)

        // then
        #expect(
            error.description.contains("duplicate key value violates unique constraint [ALREADY_EXISTS] (at second)"))
        #expect(error.description.contains("second problem (at second.[0].title)"))
        #expect(error.message == "operation failed with 2 errors")
        #expect(error.response?.errors.first?.code == "ALREADY_EXISTS")
        #expect(error.response?.errors.last?.code == nil)
        #expect(error.response?.errors.last?.path == [.field("second"), .listIndex(0), .field("title")])
    }

    @Test func singleErrorMessageIsInDescription() {
        // when
        let error = DataConnectOperationError(
            GraphQLResponse(data: nil, errors: [GraphQLError(message: "denied", code: .permissionDenied)])
        )

        // then
        #expect(error.description == "DataConnectOperationError: operation failed: denied [PERMISSION_DENIED]")
        #expect(error.response?.rawJsonData == nil)
        #expect(error.response?.data(asType: MovieData.self) == nil)
    }

    @Test func decodesPartialData() throws {
        // given
        let error = DataConnectOperationError(Self.partialResponse)

        // when
        let partial = try #require(error.response?.data(asType: MovieData.self))

        // then
        #expect(partial.first?.title == "Alien")
        #expect(partial.second == nil)
        #expect(error.response?.data(asType: [Int].self) == nil)
    }

    @Test func serverErrorKeepsStatusHTTPAndDetails() throws {
        // given
        let body = try JSONValue(
            parsing: #"{"error":{"code":403,"message":"NO_ACCESS for ListUsers","status":"PERMISSION_DENIED","#
                + #""details":[{"message":"auth check failed","path":["users"]},{"@type":"other"}]}}"#
        )
        let requestError = try RequestError(json: body, httpStatus: 403)

        // when
        let error = DataConnectServerError(requestError, httpStatus: 403)

        // then
        #expect(error.code == .permissionDenied)
        #expect(error.code.description == "permissionDenied")
        #expect(error.httpStatus == 403)
        #expect(error.details == [.init(message: "auth check failed", path: [.field("users")])])
        #expect(
            error.description
                == "DataConnectServerError(permissionDenied, HTTP 403): NO_ACCESS for ListUsers; "
                + "details: auth check failed (at users)"
        )
    }

    @Test func transportFailuresAreTyped() {
        // given
        let timeout = TransportError.connection("timed out", code: -1001)
        let refused = TransportError.connection("connection refused", code: -1004)
        let server = TransportError.server(RequestError(status: .notFound, message: "no ListMovis"), httpStatus: 404)

        // when
        let errors = [timeout, refused, server].map(DataConnectServerError.init)

        // then
        #expect(errors.map(\.code) == [.deadlineExceeded, .unavailable, .notFound])
        #expect(errors[0].underlyingError is TransportError)
        #expect(errors[1].description.contains("connection refused"))
        #expect(errors[2].httpStatus == 404)
        #expect(errors[2].description.contains("no ListMovis"))
    }

    @Test func domainErrorsDescribeCodeAndMessage() {
        // given
        let error = DataConnectCodecError(code: .invalidUUID, message: "\"x\" is not a UUID")
        let wrapped = AnyDataConnectError(dataConnectError: error)

        // then
        #expect(error.description == "DataConnectCodecError(invalidUUID): \"x\" is not a UUID")
        #expect(wrapped.description == error.description)
        #expect(DataConnectCodecError.Code.allCases.count == 5)
        #expect(DataConnectServerError.Code.allCases.count == 16)
        #expect(DataConnectInitError(code: .appNotConfigured).description.contains("appNotConfigured"))
        #expect(
            DataConnectInternalError(code: .sqliteError, underlyingError: error).debugDescription
                .contains("invalidUUID")
        )
    }

    @Test func pathSegmentsRoundTripAsStringsAndIntegers() throws {
        // given
        let path: [DataConnectPathSegment] = [.field("movies"), .listIndex(2)]

        // when
        let data = try JSONEncoder().encode(path)

        // then
        #expect(String(decoding: data, as: UTF8.self) == #"["movies",2]"#)
        #expect(try JSONDecoder().decode([DataConnectPathSegment].self, from: data) == path)
    }
}
