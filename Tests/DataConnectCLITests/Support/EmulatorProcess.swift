import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `dataconnect emulator` child process, for tests that need the real command: startup, signals,
/// persistence across restarts, `kill -9`, reloading.
final class EmulatorProcess: @unchecked Sendable {
    let process = Process()
    let scratch: TemporaryDirectory
    let outputURL: URL
    let errorURL: URL
    /// `http://127.0.0.1:<port>` once ready.
    private(set) var url = ""

    struct StartError: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `dataconnect emulator --port 0 <arguments>` and waits for its `ready` line (or its exit).
    ///
    /// - Parameters:
    ///   - arguments: The arguments after `emulator --port 0`.
    ///   - timeout: The hang guard: how long the emulator may go without printing `ready` and without exiting.
    init(_ arguments: [String], timeout: Duration = HangGuard.process) async throws {
        guard let executable = DataConnectProcess.executable else {
            throw StartError(description: "no built dataconnect executable")
        }
        scratch = try TemporaryDirectory(prefix: "dataconnect-emulator-output")
        outputURL = scratch.url.appendingPathComponent("stdout")
        errorURL = scratch.url.appendingPathComponent("stderr")
        try Data().write(to: outputURL)
        try Data().write(to: errorURL)
        process.executableURL = executable
        process.arguments = ["emulator", "--port", "0"] + arguments
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let line = output.split(separator: "\n").first(where: { $0.hasPrefix("ready ") }) {
                url = String(line.dropFirst("ready ".count))
                return
            }
            if !process.isRunning {
                throw StartError(description: "the emulator exited with \(process.terminationStatus):\n\(errors)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        process.terminate()
        throw StartError(description: "hang guard: no ready line after \(timeout):\n\(errors)")
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        scratch.remove()
    }

    var output: String {
        String(decoding: FileManager.default.contents(atPath: outputURL.path) ?? Data(), as: UTF8.self)
    }
    var errors: String {
        String(decoding: FileManager.default.contents(atPath: errorURL.path) ?? Data(), as: UTF8.self)
    }

    /// Sends a signal and waits for the process to end; returns its exit status (nil when killed by a signal).
    ///
    /// A process still running after the hang guard (`timeout`) fails the test and is killed.
    @discardableResult
    func stop(signal: Int32 = SIGTERM, timeout: Duration = HangGuard.process) async throws -> Int32? {
        kill(process.processIdentifier, signal)
        guard try await HangGuard.wait(upTo: timeout, until: { !process.isRunning }) else {
            HangGuard.record("the emulator did not stop on signal \(signal)", limit: timeout)
            kill(process.processIdentifier, SIGKILL)
            return nil
        }
        return process.terminationReason == .exit ? process.terminationStatus : nil
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

/// The repository's root, found from this file.
enum Repository {
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(
                atPath: url.appendingPathComponent("Backend/movies/dataconnect.yaml").path)
            {
                return url
            }
        }
        return url
    }()

    static var movies: String { root.appendingPathComponent("Backend/movies").path }

    /// A copy of Backend/movies that a test may change.
    static func copyOfMovies() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory(prefix: "dataconnect-movies")
        for item in ["dataconnect.yaml", "schema", "connector", "seed_data.gql"] {
            try FileManager.default.copyItem(
                atPath: movies + "/" + item, toPath: directory.url.appendingPathComponent(item).path)
        }
        return directory
    }
}
