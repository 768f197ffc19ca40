import ArgumentParsing
import DataConnectWire
import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `dataconnect execute`: run an admin GraphQL file on a running emulator and print its JSON response.
///
/// The steps: read the file; ask `/emulator/info` for the service; send the document with the `--vars` object to
/// the service's `:executeGraphql`; print the response body as the emulator sent it. The exit status is 0 when the
/// answer is a GraphQL response (HTTP 200) without errors, 1 otherwise, and 2 when `--vars` is not a JSON object.
enum ExecuteCommand {
    /// Runs the command; returns the exit status.
    static func run(_ options: ExecuteOptions) -> Int32 {
        guard let text = try? String(contentsOfFile: options.file, encoding: .utf8) else {
            DataConnectTool.printError("\(options.file): error: cannot read the file")
            return 1
        }
        let base = options.emulator.hasPrefix("http") ? options.emulator : "http://\(options.emulator)"
        guard let info = request("\(base)/emulator/info", body: nil),
            let service = try? JSONReader().parse(info.body)["services"]?[0]?["serviceId"]?.stringValue
        else {
            DataConnectTool.printError("error: no emulator answers at \(base) (start one with `dataconnect emulator`)")
            return 1
        }
        guard case .object(let variables)? = try? JSONValue(parsing: options.variables) else {
            DataConnectTool.printError("error: --vars must be a JSON object")
            return 2
        }
        let document = AdminRequest(query: text, variables: variables, operationName: options.operationName)
        let url = "\(base)/v1/projects/demo/locations/us-central1/services/\(service):executeGraphql"
        guard let response = request(url, body: document.toJSON().serialized()) else {
            DataConnectTool.printError("error: the request to \(url) failed")
            return 1
        }
        print(String(decoding: response.body, as: UTF8.self))
        guard response.status == 200,
            let answer = try? GraphQLResponse(json: JSONReader().parse(response.body)),
            answer.errors.isEmpty
        else { return 1 }
        return 0
    }

    /// A blocking HTTP request through URLSession: a GET, or a JSON POST when there is a body.
    ///
    /// - Returns: The status and the body; `nil` when no answer arrived.
    static func request(_ url: String, body: [UInt8]?) -> (status: Int, body: [UInt8])? {
        guard let target = URL(string: url) else { return nil }
        var request = URLRequest(url: target)
        request.timeoutInterval = 30
        if let body {
            request.httpMethod = "POST"
            request.httpBody = Data(body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let answer = Answer()
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, response, _ in
            if let data, let http = response as? HTTPURLResponse { answer.set((http.statusCode, [UInt8](data))) }
            done.signal()
        }.resume()
        done.wait()
        return answer.value
    }
}

/// The body of an admin `:executeGraphql` request: a whole GraphQL document, not a deployed operation.
///
/// ```json
/// {"query": "query { movies { title } }", "variables": {}, "operationName": "Optional"}
/// ```
private struct AdminRequest {
    /// The GraphQL document.
    var query: String
    /// The variables; always written, as `{}` when empty.
    var variables: JSONObject
    /// The operation to run when the document holds several.
    var operationName: String?

    /// The request as JSON.
    func toJSON() -> JSONValue {
        var object: JSONObject = ["query": .string(query), "variables": .object(variables)]
        if let operationName { object["operationName"] = .string(operationName) }
        return .object(object)
    }
}

/// Carries a URLSession answer out of its callback.
private final class Answer: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (status: Int, body: [UInt8])?

    func set(_ value: (status: Int, body: [UInt8])) {
        lock.withLock { stored = value }
    }

    var value: (status: Int, body: [UInt8])? {
        lock.withLock { stored }
    }
}

// MARK: - Options

/// Options of `dataconnect execute`.
struct ExecuteOptions: Equatable {
    var file = ""
    var emulator = "127.0.0.1:9399"
    var variables = "{}"
    var operationName: String?
}

extension ExecuteOptions {
    static func parse(_ reader: inout ArgumentReader) throws(UsageError) -> Command {
        let parsed = try UsageError.reading { () throws(ArgumentError) in
            try reader.parse(
                [
                    .value("--emulator"), .value("--vars", aliases: "--variables"),
                    .value("--operation", aliases: "--operation-name"),
                ], command: "execute")
        }
        if parsed.helpRequested { return .help(topic: "execute") }
        guard let file = parsed.positionals.first else { throw UsageError(message: "execute needs a .gql file") }
        if parsed.positionals.count > 1 {
            throw UsageError(message: "execute takes one file, got \"\(parsed.positionals[1])\" too")
        }
        var options = ExecuteOptions(file: file)
        options.emulator = parsed.value("--emulator") ?? options.emulator
        options.variables = parsed.value("--vars") ?? options.variables
        options.operationName = parsed.value("--operation")
        return .execute(options)
    }
}
