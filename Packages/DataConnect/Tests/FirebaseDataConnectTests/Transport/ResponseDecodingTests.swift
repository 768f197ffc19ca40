import DataConnectWire
import Foundation
import Testing

@testable import FirebaseDataConnect

@Suite struct ResponseDecodingTests {
    private func decode(_ status: Int, _ body: String) throws(TransportError) -> GraphQLResponse {
        try URLSessionTransport.decode(URLSessionTransport.HTTPReply(status: status, body: Data(body.utf8)))
    }

    private func failure(_ status: Int, _ body: String) -> TransportError? {
        do {
            _ = try decode(status, body)
            return nil
        } catch {
            return error
        }
    }

    @Test func okBodyKeepsDataErrorsAndExtensions() throws {
        // given
        let body = """
            {"data": {"first": {"id": "m1"}, "second": null},
             "errors": [{"message": "duplicate key", "path": ["second"], "extensions": {"code": "ALREADY_EXISTS"}}],
             "extensions": {"dataConnect": [{"path": ["first"], "entityId": "e1", "action": "GET"}]}}
            """

        // when
        let response = try decode(200, body)

        // then
        #expect(response.data?["first"]?["id"] == "m1")
        #expect(response.data?["second"] == .null)
        #expect(response.errors.map(\.message) == ["duplicate key"])
        #expect(response.errors.first?.effectiveCode == .alreadyExists)
        #expect(response.extensions.dataConnect.first?.entityId == "e1")
        #expect(response.extensions.dataConnect.first?.action == .get)
    }

    @Test func missingExtensionsCountAsEmpty() throws {
        // given / when
        let response = try decode(200, #"{"data": {"movies": []}}"#)

        // then
        #expect(response.errors.isEmpty)
        #expect(response.extensions.dataConnect.isEmpty)
    }

    @Test(arguments: ["not json", "[1, 2]", #"{"data": 3, "errors": "x"}"#])
    func unreadableOkBodyIsMalformed(body: String) {
        // given / when
        let error = failure(200, body)

        // then
        guard case .malformedResponse? = error else {
            Issue.record("expected malformedResponse, got \(String(describing: error))")
            return
        }
    }

    @Test(arguments: [
        (400, "INVALID_ARGUMENT", StatusCode.invalidArgument),
        (401, "UNAUTHENTICATED", .unauthenticated),
        (403, "PERMISSION_DENIED", .permissionDenied),
        (404, "NOT_FOUND", .notFound),
        (500, "INTERNAL", .internal),
    ])
    func productionErrorBodyMapsToServerError(httpStatus: Int, statusName: String, expected: StatusCode) {
        // given
        let body = #"{"error": {"code": \#(httpStatus), "message": "boom", "status": "\#(statusName)", "details": []}}"#

        // when
        let error = failure(httpStatus, body)

        // then
        #expect(error == .server(RequestError(status: expected, message: "boom"), httpStatus: httpStatus))
    }

    @Test(arguments: [
        (400, 3, StatusCode.invalidArgument),
        (401, 16, .unauthenticated),
        (403, 7, .permissionDenied),
        (404, 5, .notFound),
        (500, 13, .internal),
    ])
    func upstreamEmulatorErrorBodyMapsToServerError(httpStatus: Int, grpcCode: Int, expected: StatusCode) {
        // given
        let body = #"{"code": \#(grpcCode), "message": "boom", "details": [{"@type": "x"}]}"#

        // when
        let error = failure(httpStatus, body)

        // then
        #expect(
            error
                == .server(
                    RequestError(status: expected, message: "boom", details: [["@type": "x"]]), httpStatus: httpStatus))
        #expect(error?.status == expected)
    }

    @Test func nonJSONErrorBodyFallsBackToTheHTTPStatus() {
        // given / when
        let error = failure(503, "<html>upstream unavailable</html>")

        // then
        #expect(
            error
                == .server(
                    RequestError(status: .unavailable, message: "<html>upstream unavailable</html>"), httpStatus: 503))
    }
}
