import DataConnectWire
import Testing

@Suite struct RequestErrorTests {
    @Test func writesProductionShape() {
        // given a request-level failure
        let error = RequestError(status: .permissionDenied, message: "denied by @auth", details: [["reason": "x"]])

        // then it is written as {"error": {...}} with the HTTP code and the status name
        #expect(
            error.toJSON().jsonString()
                == #"{"error":{"code":403,"message":"denied by @auth","status":"PERMISSION_DENIED","#
                + #""details":[{"reason":"x"}]}}"#
        )
        #expect(error.httpStatus == 403)
        #expect(error.description == "PERMISSION_DENIED: denied by @auth")
    }

    @Test func readsProductionShape() throws {
        // given the production body
        let body = #"{"error":{"code":404,"message":"no such operation","status":"NOT_FOUND","details":[]}}"#

        // when read
        let error = try RequestError(json: JSONValue(parsing: body))

        // then the status comes from the name
        #expect(error == RequestError(status: .notFound, message: "no such operation"))
    }

    @Test func readsUpstreamEmulatorShape() throws {
        // given the upstream emulator's top-level body with a gRPC number
        let body =
            #"{"code":13,"message":"internal error: boom","#
            + #""details":[{"@type":"type.googleapis.com/google.firebase.dataconnect.http.GraphqlError","#
            + #""message":"boom"}]}"#

        // when read
        let error = try RequestError(json: JSONValue(parsing: body))

        // then the number maps to its code and details are kept
        #expect(error.status == .internal)
        #expect(error.message == "internal error: boom")
        #expect(error.details.first?["message"] == "boom")
    }

    @Test func fallsBackStepByStep() throws {
        // given bodies with less and less information
        let httpCodeOnly = try RequestError(json: JSONValue(parsing: #"{"error":{"code":401,"message":"sign in"}}"#))
        let messageOnly = try RequestError(json: JSONValue(parsing: #"{"message":"slow down"}"#), httpStatus: 429)
        let nameAtTop = try RequestError(json: JSONValue(parsing: #"{"code":"ABORTED"}"#))

        // then each falls back to the next source of a code
        #expect(httpCodeOnly.status == .unauthenticated)
        #expect(messageOnly.status == .resourceExhausted)
        #expect(messageOnly.message == "slow down")
        #expect(nameAtTop.status == .aborted)
        #expect(throws: WireFormatError.self) { try RequestError(json: ["data": nil]) }
        #expect(throws: WireFormatError.self) { try RequestError(json: "oops") }
    }

    @Test func roundTrips() throws {
        // given every status
        for status in StatusCode.allCases where status != .ok {
            let error = RequestError(status: status, message: "m")

            // when written and read back, then it is unchanged
            #expect(try RequestError(json: error.toJSON()) == error)
        }
    }
}
