import DataConnectEmulator
import DataConnectEngine
import DataConnectWire
import EmulatorHTTP
import Testing

/// The exact answers to requests whose path, method or body is wrong, sent to the responder in-process: the
/// status and every byte of the body, so that a change in how requests are routed and decoded shows here.
///
/// When a request has several faults, the first of these answers: the route (404 for an unknown path, 400 for a
/// method other than `POST`), a web page's `Content-Type`, the service (404), the method on this kind of path
/// (404), the body (400), the caller's token (401).
@Suite(.on(.sqlite))  // request decoding over HTTP
struct RequestDecodingTests {
    /// One request and its exact answer.
    struct Exchange: Sendable, CustomTestStringConvertible {
        var name: String
        var method: HTTPMethod = .post
        var path: String
        var body: String
        var headers: [String: String] = [:]
        var status: Int
        var answer: String

        var testDescription: String { name }
    }

    static let connector = "/v1/projects/p/locations/l/services/library/connectors/lending:"
    static let service = "/v1/projects/p/locations/l/services/library:"
    static let name = #""name": "projects/p/locations/l/services/library/connectors/lending""#

    /// The emulator whose responder answers, on the lending library, built once and never started.
    static let emulator: Emulator? = try? Emulator(
        options: Emulator.Options(
            backend: Backend.library.directory, port: 0, seedFile: Backend.library.seedFile, readers: 1, threads: 1))

    /// The version of the SQLite library the emulator runs on, as `/emulator/info` reports it.
    static let sqliteVersion = emulator?.store.summary.version ?? ""
    /// `/emulator/info`'s `protocols` and `grpc` members, of an emulator no gRPC client has called.
    static let infoWires =
        #""protocols":[{"name":"http/1.1","serves":["rest","websocket","console","auth"]},{"name":"h2c","serves":["grpc"]}],"#
        + #""grpc":{"services":["google.firebase.dataconnect.v1.ConnectorService","#
        + #""google.firebase.dataconnect.v1.ConnectorStreamService","google.firebase.dataconnect.v1beta.ConnectorService","#
        + #""google.firebase.dataconnect.v1beta.ConnectorStreamService","grpc.health.v1.Health","#
        + #""grpc.reflection.v1.ServerReflection","grpc.reflection.v1alpha.ServerReflection"],"#
        + #""callsInFlight":0,"peakCallsInFlight":0,"callsStarted":0,"connections":0}"#

    static let exchanges: [Exchange] = [
        // The body is not a request.
        Exchange(
            name: "empty body", path: connector + "executeQuery", body: "", status: 400,
            answer:
                #"{"error":{"code":400,"message":"invalid JSON in the request body: unexpected end of input at line 1, column 1","status":"INVALID_ARGUMENT","details":[]}}"#
        ),
        Exchange(
            name: "malformed JSON", path: connector + "executeQuery", body: #"{"name": "x", "operationName": "#,
            status: 400,
            answer:
                #"{"error":{"code":400,"message":"invalid JSON in the request body: unexpected end of input at line 1, column 32","status":"INVALID_ARGUMENT","details":[]}}"#
        ),
        Exchange(
            name: "a JSON array", path: connector + "executeQuery", body: "[1]", status: 400,
            answer:
                #"{"error":{"code":400,"message":"the request body must be a JSON object","status":"INVALID_ARGUMENT","details":[]}}"#
        ),
        Exchange(
            name: "a JSON string", path: connector + "executeQuery", body: #""listBooks""#, status: 400,
            answer:
                #"{"error":{"code":400,"message":"the request body must be a JSON object","status":"INVALID_ARGUMENT","details":[]}}"#
        ),
        Exchange(
            name: "invalid UTF-8 escape", path: connector + "executeQuery", body: #"{"a": "\uD800"}"#, status: 400,
            answer:
                #"{"error":{"code":400,"message":"invalid JSON in the request body: lone surrogate \\uD800 in string at line 1, column 8","status":"INVALID_ARGUMENT","details":[]}}"#
        ),
        Exchange(
            name: "deep nesting", path: connector + "executeQuery", body: String(repeating: "[", count: 600),
            status: 400,
            answer:
                #"{"error":{"code":400,"message":"invalid JSON in the request body: nesting depth exceeds the limit of 512 at line 1, column 513","status":"INVALID_ARGUMENT","details":[]}}"#
        ),

        // Connector requests: required members.
        Exchange(
            name: "operationName missing", path: connector + "executeQuery", body: "{\(name), \"variables\": {}}",
            status: 400,
            answer:
                #"{"error":{"code":400,"message":"\"operationName\" is required","status":"INVALID_ARGUMENT","details":[]}}"#
        ),
        Exchange(
            name: "operationName empty", path: connector + "executeQuery",
            body: "{\(name), \"operationName\": \"\", \"variables\": {}}", status: 400,
            answer:
                #"{"error":{"code":400,"message":"\"operationName\" is required","status":"INVALID_ARGUMENT","details":[]}}"#
        ),
        Exchange(
            name: "operationName a number", path: connector + "executeQuery",
            body: "{\(name), \"operationName\": 5, \"variables\": {}}", status: 400,
            answer:
                #"{"error":{"code":400,"message":"\"operationName\" is required","status":"INVALID_ARGUMENT","details":[]}}"#
        ),
        Exchange(
            name: "operationName null", path: connector + "executeQuery",
            body: "{\(name), \"operationName\": null, \"variables\": {}}", status: 400,
            answer:
                #"{"error":{"code":400,"message":"\"operationName\" is required","status":"INVALID_ARGUMENT","details":[]}}"#
        ),
        Exchange(
            name: "name missing", path: connector + "executeQuery",
            body: #"{"operationName": "catalogueStats", "variables": {}}"#, status: 400,
            answer:
                #"{"error":{"code":400,"message":"\"name\" is required (projects/…/connectors/lending)","status":"INVALID_ARGUMENT","details":[]}}"#
        ),
        Exchange(
            name: "name a number", path: connector + "executeQuery",
            body: #"{"name": 5, "operationName": "catalogueStats", "variables": {}}"#, status: 400,
            answer:
                #"{"error":{"code":400,"message":"\"name\" is required (projects/…/connectors/lending)","status":"INVALID_ARGUMENT","details":[]}}"#
        ),
        Exchange(
            name: "name null", path: connector + "executeMutation",
            body: #"{"name": null, "operationName": "catalogueStats", "variables": {}}"#, status: 400,
            answer:
                #"{"error":{"code":400,"message":"\"name\" is required (projects/…/connectors/lending)","status":"INVALID_ARGUMENT","details":[]}}"#
        ),
        Exchange(
            name: "variables missing", path: connector + "executeQuery",
            body: "{\(name), \"operationName\": \"catalogueStats\"}", status: 400,
            answer:
                #"{"error":{"code":400,"message":"\"variables\" is required (send {} when there are none)","status":"INVALID_ARGUMENT","details":[]}}"#
        ),
        Exchange(
            name: "variables null", path: connector + "executeQuery",
            body: "{\(name), \"operationName\": \"catalogueStats\", \"variables\": null}", status: 200,
            answer:
                #"{"data":{"books":[{"_count":6,"pages_sum":1950,"pages_max":474,"timesBorrowed_max":"9007199254740993","published_min":"1813-01-28"}],"loansByStatus":[{"status":"ACTIVE","_count":3},{"status":"RETURNED","_count":1},{"status":"LOST","_count":1}]},"errors":[],"extensions":{"dataConnect":[]}}"#
        ),
        Exchange(
            name: "variables an array", path: connector + "executeQuery",
            body: "{\(name), \"operationName\": \"catalogueStats\", \"variables\": []}", status: 400,
            answer:
                #"{"error":{"code":400,"message":"\"variables\" must be a JSON object","status":"INVALID_ARGUMENT","details":[]}}"#
        ),
        Exchange(
            name: "variables a string with name missing", path: connector + "executeQuery",
            body: #"{"operationName": "catalogueStats", "variables": "x"}"#, status: 400,
            answer:
                #"{"error":{"code":400,"message":"\"variables\" must be a JSON object","status":"INVALID_ARGUMENT","details":[]}}"#
        ),
        Exchange(
            name: "a valid query", path: connector + "executeQuery",
            body: "{\(name), \"operationName\": \"catalogueStats\", \"variables\": {}}", status: 200,
            answer:
                #"{"data":{"books":[{"_count":6,"pages_sum":1950,"pages_max":474,"timesBorrowed_max":"9007199254740993","published_min":"1813-01-28"}],"loansByStatus":[{"status":"ACTIVE","_count":3},{"status":"RETURNED","_count":1},{"status":"LOST","_count":1}]},"errors":[],"extensions":{"dataConnect":[]}}"#
        ),
        Exchange(
            name: "impersonation ignored on executeQuery", path: connector + "executeQuery",
            body:
                "{\(name), \"operationName\": \"myCard\", \"variables\": {}, \"extensions\": {\"impersonate\": {\"authClaims\": {\"sub\": \"uid-ada\"}}}}",
            status: 401,
            answer:
                #"{"error":{"code":401,"message":"operation requires a signed-in user (@auth(level: USER))","status":"UNAUTHENTICATED","details":[]}}"#
        ),
        Exchange(
            name: "a query through executeMutation", path: connector + "executeMutation",
            body: "{\(name), \"operationName\": \"catalogueStats\", \"variables\": {}}", status: 400,
            answer:
                #"{"error":{"code":400,"message":"operation \"catalogueStats\" is a query; call it with :executeQuery","status":"INVALID_ARGUMENT","details":[]}}"#
        ),
        Exchange(
            name: "an unknown operation", path: connector + "executeQuery",
            body: "{\(name), \"operationName\": \"nope\", \"variables\": {}}", status: 404,
            answer:
                #"{"error":{"code":404,"message":"operation \"nope\" not found","status":"NOT_FOUND","details":[]}}"#),

        // Impersonation.
        Exchange(
            name: "impersonateQuery without name and variables", path: connector + "impersonateQuery",
            body: #"{"operationName": "catalogueStats"}"#, status: 200,
            answer:
                #"{"data":{"books":[{"_count":6,"pages_sum":1950,"pages_max":474,"timesBorrowed_max":"9007199254740993","published_min":"1813-01-28"}],"loansByStatus":[{"status":"ACTIVE","_count":3},{"status":"RETURNED","_count":1},{"status":"LOST","_count":1}]},"errors":[],"extensions":{"dataConnect":[]}}"#
        ),
        Exchange(
            name: "impersonateQuery without operationName", path: connector + "impersonateQuery",
            body: #"{"variables": {}}"#, status: 400,
            answer:
                #"{"error":{"code":400,"message":"\"operationName\" is required","status":"INVALID_ARGUMENT","details":[]}}"#
        ),
        Exchange(
            name: "impersonateQuery as a user", path: connector + "impersonateQuery",
            body: #"{"operationName": "myCard", "extensions": {"impersonate": {"authClaims": {"sub": "uid-ada"}}}}"#,
            status: 200,
            answer:
                #"{"data":{"member":{"id":"uid-ada","name":"Ada Lovelace","email":"ada@example.com","joinedAt":"2023-09-01T08:00:00Z","loans":[{"id":"10000000000040008000000000000001","status":"ACTIVE","borrowedAt":"2024-03-01T10:00:00Z","dueOn":"2024-03-22","returnedAt":null,"book":{"isbn":"978-0-452-28423-4","title":"Nineteen Eighty-Four"}},{"id":"10000000000040008000000000000002","status":"RETURNED","borrowedAt":"2024-01-05T09:30:00Z","dueOn":"2024-01-26","returnedAt":"2024-01-20T16:00:00Z","book":{"isbn":"978-0-14-143955-6","title":"Emma"}}]}},"errors":[],"extensions":{"dataConnect":[{"path":["member"],"entityId":"Member/uid-ada","action":"GET"},{"path":["member","loans"],"entityIds":["Loan/10000000000040008000000000000001","Loan/10000000000040008000000000000002"],"action":"LIST"},{"path":["member","loans",0,"book"],"entityId":"Book/978-0-452-28423-4","action":"GET"},{"path":["member","loans",1,"book"],"entityId":"Book/978-0-14-143955-6","action":"GET"}]}}"#
        ),
        Exchange(
            name: "impersonateQuery without claims", path: connector + "impersonateQuery",
            body: #"{"operationName": "myCard", "extensions": {"impersonate": {}}}"#, status: 401,
            answer:
                #"{"error":{"code":401,"message":"operation requires a signed-in user (@auth(level: USER))","status":"UNAUTHENTICATED","details":[]}}"#
        ),
        Exchange(
            name: "impersonateMutation with variables a number", path: connector + "impersonateMutation",
            body: #"{"operationName": "x", "variables": 1}"#, status: 400,
            answer:
                #"{"error":{"code":400,"message":"\"variables\" must be a JSON object","status":"INVALID_ARGUMENT","details":[]}}"#
        ),

        // Subscriptions are made on the WebSocket stream; `:subscribe` is a method like any other unknown one.
        Exchange(
            name: "subscribe on a connector", path: connector + "subscribe",
            body: "{\(name), \"operationName\": \"catalogueStats\", \"variables\": {}}", status: 404,
            answer:
                #"{"error":{"code":404,"message":"unknown method \":subscribe\"","status":"NOT_FOUND","details":[]}}"#),
        Exchange(
            name: "subscribe with a bad body", path: connector + "subscribe", body: "[", status: 404,
            answer:
                #"{"error":{"code":404,"message":"unknown method \":subscribe\"","status":"NOT_FOUND","details":[]}}"#),
        Exchange(
            name: "subscribe on the service", path: service + "subscribe",
            body: "{\(name), \"operationName\": \"catalogueStats\", \"variables\": {}}", status: 404,
            answer:
                #"{"error":{"code":404,"message":"unknown method \":subscribe\"","status":"NOT_FOUND","details":[]}}"#),

        // Admin GraphQL.
        Exchange(
            name: "executeGraphql without query", path: service + "executeGraphql", body: #"{"variables": {}}"#,
            status: 400,
            answer:
                #"{"error":{"code":400,"message":"\"query\" is required","status":"INVALID_ARGUMENT","details":[]}}"#),
        Exchange(
            name: "executeGraphql with a numeric query", path: service + "executeGraphql", body: #"{"query": 5}"#,
            status: 400,
            answer:
                #"{"error":{"code":400,"message":"\"query\" is required","status":"INVALID_ARGUMENT","details":[]}}"#),
        Exchange(
            name: "executeGraphql with a numeric operationName", path: service + "executeGraphql",
            body: #"{"query": "query { books(limit: 1, orderBy: {isbn: ASC}) { isbn } }", "operationName": 5}"#,
            status: 200,
            answer: #"{"data":{"books":[{"isbn":"978-0-00-000000-0"}]},"errors":[],"extensions":{"dataConnect":[]}}"#),
        Exchange(
            name: "executeGraphql with variables an array", path: service + "executeGraphql",
            body: #"{"query": "query { books { isbn } }", "variables": []}"#, status: 400,
            answer:
                #"{"error":{"code":400,"message":"\"variables\" must be a JSON object","status":"INVALID_ARGUMENT","details":[]}}"#
        ),
        Exchange(
            name: "executeGraphqlRead with a mutation", path: service + "executeGraphqlRead",
            body: #"{"query": "mutation { member_insert(data: {id: \"x\", name: \"X\"}) }"}"#, status: 403,
            answer:
                #"{"error":{"code":403,"message":"executeGraphqlRead cannot run a mutation","status":"PERMISSION_DENIED","details":[]}}"#
        ),
        Exchange(
            name: "executeGraphql on a connector", path: connector + "executeGraphql",
            body: #"{"query": "query { books { isbn } }"}"#, status: 404,
            answer:
                #"{"error":{"code":404,"message":"executeGraphql is a service method","status":"NOT_FOUND","details":[]}}"#
        ),
        Exchange(
            name: "executeGraphql impersonating nobody", path: service + "executeGraphqlRead",
            body:
                #"{"query": "query { books(limit: 1, orderBy: {isbn: ASC}) { isbn } }", "extensions": {"impersonate": {"unauthenticated": true}}}"#,
            status: 403,
            answer:
                #"{"error":{"code":403,"message":"operation \"\" has no @auth directive, so only admin calls may run it (NO_ACCESS)","status":"PERMISSION_DENIED","details":[]}}"#
        ),

        // Routing.
        Exchange(
            name: "GET on executeQuery", method: .get, path: connector + "executeQuery", body: "", status: 400,
            answer:
                #"{"error":{"code":400,"message":"executeQuery takes POST, not GET","status":"INVALID_ARGUMENT","details":[]}}"#
        ),
        Exchange(
            name: "an unknown path", path: "/v2/projects/p/whatever", body: "", status: 404,
            answer:
                #"{"error":{"code":404,"message":"no such endpoint: POST /v2/projects/p/whatever","status":"NOT_FOUND","details":[]}}"#
        ),
        Exchange(
            name: "an unknown method", path: connector + "executeSomething",
            body: "{\(name), \"operationName\": \"catalogueStats\", \"variables\": {}}", status: 404,
            answer:
                #"{"error":{"code":404,"message":"unknown method \":executeSomething\"","status":"NOT_FOUND","details":[]}}"#
        ),
        Exchange(
            name: "an unknown method before a bad body", path: connector + "executeSomething", body: "[", status: 404,
            answer:
                #"{"error":{"code":404,"message":"unknown method \":executeSomething\"","status":"NOT_FOUND","details":[]}}"#
        ),
        Exchange(
            name: "an unknown method on the service", path: service + "frobnicate", body: "{}", status: 404,
            answer:
                #"{"error":{"code":404,"message":"unknown method \":frobnicate\"","status":"NOT_FOUND","details":[]}}"#),
        Exchange(
            name: "a connector method on the service", path: service + "executeQuery",
            body: "{\(name), \"operationName\": \"catalogueStats\", \"variables\": {}}", status: 404,
            answer:
                #"{"error":{"code":404,"message":"executeQuery needs a connector in the path","status":"NOT_FOUND","details":[]}}"#
        ),
        Exchange(
            name: "a connector method on the service before a bad body", path: service + "executeMutation",
            body: "{\"variables\": 2}", status: 404,
            answer:
                #"{"error":{"code":404,"message":"executeMutation needs a connector in the path","status":"NOT_FOUND","details":[]}}"#
        ),
        Exchange(
            name: "an unknown service",
            path: "/v1beta/projects/p/locations/l/services/nope/connectors/lending:executeQuery", body: "[",
            status: 404,
            answer:
                #"{"error":{"code":404,"message":"No schema found for service \"nope\"; this emulator serves \"library\"","status":"NOT_FOUND","details":[]}}"#
        ),
        Exchange(
            name: "v1alpha", path: "/v1alpha/projects/p/locations/l/services/library/connectors/lending:executeQuery",
            body: "{\(name), \"operationName\": \"catalogueStats\", \"variables\": {}}", status: 200,
            answer:
                #"{"data":{"books":[{"_count":6,"pages_sum":1950,"pages_max":474,"timesBorrowed_max":"9007199254740993","published_min":"1813-01-28"}],"loansByStatus":[{"status":"ACTIVE","_count":3},{"status":"RETURNED","_count":1},{"status":"LOST","_count":1}]},"errors":[],"extensions":{"dataConnect":[]}}"#
        ),
        Exchange(
            name: "too many segments",
            path: "/v1/projects/p/locations/l/services/library/connectors/lending/x:executeQuery", body: "{}",
            status: 404,
            answer:
                #"{"error":{"code":404,"message":"no such endpoint: POST /v1/projects/p/locations/l/services/library/connectors/lending/x:executeQuery","status":"NOT_FOUND","details":[]}}"#
        ),
        Exchange(
            name: "no colon", path: "/v1/projects/p/locations/l/services/library/connectors/lending", body: "{}",
            status: 404,
            answer:
                #"{"error":{"code":404,"message":"no such endpoint: POST /v1/projects/p/locations/l/services/library/connectors/lending","status":"NOT_FOUND","details":[]}}"#
        ),
        Exchange(
            name: "an empty method", path: connector, body: "{}", status: 404,
            answer: #"{"error":{"code":404,"message":"unknown method \":\"","status":"NOT_FOUND","details":[]}}"#),

        // Callers.
        Exchange(
            name: "a missing operationName before a token that is not a JWT", path: connector + "executeQuery",
            body: "{\(name), \"variables\": {}}", headers: ["X-Firebase-Auth-Token": "abc"], status: 400,
            answer:
                #"{"error":{"code":400,"message":"\"operationName\" is required","status":"INVALID_ARGUMENT","details":[]}}"#
        ),
        Exchange(
            name: "a token that is not a JWT", path: connector + "executeQuery",
            body: "{\(name), \"operationName\": \"catalogueStats\", \"variables\": {}}",
            headers: ["X-Firebase-Auth-Token": "abc"], status: 401,
            answer:
                #"{"error":{"code":401,"message":"invalid X-Firebase-Auth-Token: invalid auth token: expected 3 dot-separated segments, found 1","status":"UNAUTHENTICATED","details":[]}}"#
        ),
        Exchange(
            name: "a bad token and bad variables", path: connector + "executeQuery",
            body: "{\(name), \"variables\": 3}", headers: ["X-Firebase-Auth-Token": "abc"], status: 400,
            answer:
                #"{"error":{"code":400,"message":"\"variables\" must be a JSON object","status":"INVALID_ARGUMENT","details":[]}}"#
        ),
        Exchange(
            name: "an empty token", path: connector + "executeQuery",
            body: "{\(name), \"operationName\": \"myCard\", \"variables\": {}}", headers: ["X-Firebase-Auth-Token": ""],
            status: 401,
            answer:
                #"{"error":{"code":401,"message":"operation requires a signed-in user (@auth(level: USER))","status":"UNAUTHENTICATED","details":[]}}"#
        ),
        Exchange(
            name: "a web page sending text", path: connector + "executeQuery", body: "{}",
            headers: ["Origin": "http://localhost:3000", "Content-Type": "text/plain"], status: 400,
            answer:
                #"{"error":{"code":400,"message":"Content-Type must be application/json, got \"text/plain\"","status":"INVALID_ARGUMENT","details":[]}}"#
        ),

        // The emulator's own endpoints; `infoWires` is what `/emulator/info` says of the wires on the port.
        Exchange(
            name: "info", method: .get, path: "/emulator/info", body: "", status: 200,
            answer:
                #"{"version":"0.1.0","services":[{"serviceId":"library","connectionString":"sqlite","connectors":["lending","kiosk"]}],"database":{"engine":"sqlite","location":"memory","version":""#
                + sqliteVersion
                + #""},"auth":{"projectId":"demo-project"},"# + infoWires
                + #","embeddings":{"provider":"none"},"storage":{"state":"ok"}}"#
        ),
        Exchange(
            name: "info by POST", path: "/emulator/info", body: "", status: 200,
            answer:
                #"{"version":"0.1.0","services":[{"serviceId":"library","connectionString":"sqlite","connectors":["lending","kiosk"]}],"database":{"engine":"sqlite","location":"memory","version":""#
                + sqliteVersion
                + #""},"auth":{"projectId":"demo-project"},"# + infoWires
                + #","embeddings":{"provider":"none"},"storage":{"state":"ok"}}"#
        ),
        Exchange(
            name: "clear by GET", method: .get, path: "/emulator/clear", body: "", status: 400,
            answer:
                #"{"error":{"code":400,"message":"use POST /emulator/clear","status":"INVALID_ARGUMENT","details":[]}}"#
        ),
        Exchange(
            name: "export by GET", method: .get, path: "/emulator/export", body: "", status: 400,
            answer:
                #"{"error":{"code":400,"message":"use POST /emulator/export","status":"INVALID_ARGUMENT","details":[]}}"#
        ),
        Exchange(
            name: "export without a path", path: "/emulator/export", body: "{}", status: 400,
            answer:
                #"{"error":{"code":400,"message":"POST /emulator/export needs {\"path\": \"<directory>\"}","status":"INVALID_ARGUMENT","details":[]}}"#
        ),
        Exchange(
            name: "export with a bad body", path: "/emulator/export", body: "[", status: 400,
            answer:
                #"{"error":{"code":400,"message":"POST /emulator/export needs {\"path\": \"<directory>\"}","status":"INVALID_ARGUMENT","details":[]}}"#
        ),
        Exchange(
            name: "export with a numeric path", path: "/emulator/export", body: #"{"path": 1}"#, status: 400,
            answer:
                #"{"error":{"code":400,"message":"POST /emulator/export needs {\"path\": \"<directory>\"}","status":"INVALID_ARGUMENT","details":[]}}"#
        ),
        Exchange(
            name: "an unknown emulator endpoint", method: .get, path: "/emulator/nope", body: "", status: 404,
            answer:
                #"{"error":{"code":404,"message":"no such endpoint: GET /emulator/nope","status":"NOT_FOUND","details":[]}}"#
        ),
    ]

    @Test(arguments: exchanges)
    func answersExactly(_ exchange: Exchange) throws {
        // given
        let responder = try #require(Self.emulator).responder
        var headers = HTTPHeaders()
        for (field, value) in exchange.headers { headers[field] = value }

        // when
        let response = responder.respond(
            to: HTTPRequest(
                method: exchange.method, path: exchange.path, headers: headers, body: Array(exchange.body.utf8)))

        // then
        guard case .bytes(let bytes) = response.body else {
            Issue.record("a stream instead of bytes")
            return
        }
        let answer = String(decoding: bytes, as: UTF8.self)
        #expect(response.status.code == exchange.status, "\(answer)")
        #expect(answer == exchange.answer)
    }
}
