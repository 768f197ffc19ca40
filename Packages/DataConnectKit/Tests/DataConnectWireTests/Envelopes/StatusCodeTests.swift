import DataConnectWire
import Testing

@Suite struct StatusCodeTests {
    @Test(arguments: [
        (StatusCode.ok, "OK", 200), (.cancelled, "CANCELLED", 499), (.unknown, "UNKNOWN", 500),
        (.invalidArgument, "INVALID_ARGUMENT", 400), (.deadlineExceeded, "DEADLINE_EXCEEDED", 504),
        (.notFound, "NOT_FOUND", 404), (.alreadyExists, "ALREADY_EXISTS", 409),
        (.permissionDenied, "PERMISSION_DENIED", 403), (.resourceExhausted, "RESOURCE_EXHAUSTED", 429),
        (.failedPrecondition, "FAILED_PRECONDITION", 400), (.aborted, "ABORTED", 409),
        (.outOfRange, "OUT_OF_RANGE", 400), (.unimplemented, "UNIMPLEMENTED", 501), (.internal, "INTERNAL", 500),
        (.unavailable, "UNAVAILABLE", 503), (.dataLoss, "DATA_LOSS", 500), (.unauthenticated, "UNAUTHENTICATED", 401),
    ])
    func mapsNameAndHTTPStatus(code: StatusCode, name: String, httpStatus: Int) {
        // then the name, the reverse lookup and the HTTP status all agree with the protocol table
        #expect(code.name == name)
        #expect(StatusCode(name: name) == code)
        #expect(code.httpStatus == httpStatus)
        #expect(StatusCode(rawValue: code.rawValue) == code)
    }

    @Test func numbersFollowGRPC() {
        #expect(StatusCode.allCases.map(\.rawValue) == Array(0...16))
        #expect(StatusCode(name: "NOPE") == nil)
        #expect(StatusCode(httpStatus: 403) == .permissionDenied)
        #expect(StatusCode(httpStatus: 418) == .unknown)
        #expect(StatusCode(httpStatus: 204) == .ok)
    }
}
