import DataConnectTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `dataconnect emulator` child process, for tests that need the real command: startup, signals,
/// persistence across restarts, `kill -9`, reloading; with helpers that send it requests.
final class EmulatorProcess: Sendable {
    /// The running `dataconnect emulator --port 0 ...`.
    let child: ChildProcess
    /// `http://127.0.0.1:<port>`, from the `ready` line.
    let url: String

    struct StartError: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `dataconnect emulator --port 0 <arguments>` and waits for its `ready` line (or its exit).
    ///
    /// - Parameters:
    ///   - arguments: The arguments after `emulator --port 0`.
    ///   - timeout: The hang guard: how long the emulator may go without printing `ready` and without exiting.
    init(_ arguments: [String], timeout: Duration = HangGuard.process) async throws {
        child = try ChildProcess(BuiltExecutable.require("dataconnect"), ["emulator", "--port", "0"] + arguments)
        guard let url = await child.waitForLine(startingWith: "ready ", upTo: timeout) else {
            if child.isRunning {
                child.send(SIGKILL)
                throw StartError(description: "hang guard: no ready line after \(timeout):\n\(child.standardError)")
            }
            let result = await child.waitForExit()
            throw StartError(
                description: "the emulator exited with \(result.exitStatus.map(String.init) ?? "a signal"):\n"
                    + result.standardError)
        }
        self.url = url
    }

    /// The child's process id.
    var processIdentifier: Int32 { child.processIdentifier }

    /// Standard output so far.
    var output: String { child.standardOutput }

    /// Standard error so far: the emulator's log.
    var errors: String { child.standardError }

    /// Sends a signal and waits for the process to end; returns its exit status (nil when killed by a signal).
    ///
    /// A process still running after the hang guard (`timeout`) fails the test and is killed.
    @discardableResult
    func stop(
        signal: Int32 = SIGTERM, timeout: Duration = HangGuard.process,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Int32? {
        await child.stop(signal: signal, upTo: timeout, sourceLocation: sourceLocation).exitStatus
    }

    /// POSTs JSON to a path and returns the status and the parsed body.
    func post(
        _ path: String, _ body: [String: Any], headers: [String: String] = [:]
    ) async throws -> (Int, [String: Any]) {
        var request = URLRequest(url: URL(string: url + path)!)
        request.httpMethod = "POST"
        request.timeoutInterval = HangGuard.seconds(HangGuard.process)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        return (status, (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:])
    }

    /// Sends `body` as it is (valid JSON or not) and returns the status and the raw answer.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - path: The path after the emulator's URL.
    ///   - body: The bytes to send, if any, as `application/json`.
    ///   - headers: More headers.
    ///   - timeout: The hang guard of this one request.
    /// - Throws: The transport's error when no answer arrived (a refused or reset connection, the hang guard).
    func send(
        _ method: String, _ path: String, body: [UInt8]? = nil, headers: [String: String] = [:],
        timeout: Duration = HangGuard.process
    ) async throws -> (status: Int, body: Data) {
        var request = URLRequest(url: URL(string: url + path)!)
        request.httpMethod = method
        request.timeoutInterval = HangGuard.seconds(timeout)
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(body)
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    /// Runs admin GraphQL through `:executeGraphql`.
    func admin(
        _ query: String, service: String = "movies", variables: [String: Any] = [:]
    ) async throws -> (Int, [String: Any]) {
        try await post(
            "/v1/projects/p/locations/l/services/\(service):executeGraphql", ["query": query, "variables": variables])
    }

    /// Runs a connector operation.
    func execute(
        _ operation: String, mutation: Bool = false, variables: [String: Any] = [:], service: String = "movies",
        connector: String = "movies"
    ) async throws -> (Int, [String: Any]) {
        let name = "projects/p/locations/l/services/\(service)/connectors/\(connector)"
        return try await post(
            "/v1/\(name):\(mutation ? "executeMutation" : "executeQuery")",
            ["name": name, "operationName": operation, "variables": variables])
    }
}
