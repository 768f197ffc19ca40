import DataConnectEmulator
import Dispatch
import EmulatorHTTP
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(Glibc)
import Glibc
#endif

/// `dataconnect emulator`: serve until SIGINT or SIGTERM.
enum EmulatorCommand {
    static func run(_ options: EmulatorOptions) -> Int32 {
        // Before any thread starts, so every thread inherits the mask (see StopSignals).
        StopSignals.block()
        let log: @Sendable (String) -> Void = { line in
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
        let emulator: Emulator
        do {
            emulator = try Emulator(
                options: Emulator.Options(
                    backend: options.backend, host: options.host, port: options.port,
                    dataDirectory: options.dataDirectory, seedFile: options.seedFile,
                    importDirectory: options.importDirectory, exportOnExit: options.exportOnExit,
                    watch: options.watch, log: log, allowedHosts: options.allowedHosts,
                    allowedOrigins: options.allowedOrigins, limits: options.limits,
                    executionLimits: options.executionLimits))
            try emulator.start()
        } catch {
            log("error: \(error.message)")
            return 1
        }
        FileHandle.standardOutput.write(Data("ready \(emulator.url)\n".utf8))
        StopSignals.wait()
        log("stopping")
        emulator.stop()
        log("stopped")
        return 0
    }
}

/// `dataconnect execute`: run an admin GraphQL file on a running emulator.
enum ExecuteCommand {
    static func run(_ options: ExecuteOptions) -> Int32 {
        guard let text = try? String(contentsOfFile: options.file, encoding: .utf8) else {
            DataConnectTool.printError("\(options.file): error: cannot read the file")
            return 1
        }
        let base = options.emulator.hasPrefix("http") ? options.emulator : "http://\(options.emulator)"
        guard let info = request("\(base)/emulator/info", body: nil),
            let infoJSON = try? JSONSerialization.jsonObject(with: info.data) as? [String: Any],
            let services = infoJSON["services"] as? [[String: Any]],
            let service = services.first?["serviceId"] as? String
        else {
            DataConnectTool.printError("error: no emulator answers at \(base) (start one with `dataconnect emulator`)")
            return 1
        }
        guard let variables = try? JSONSerialization.jsonObject(with: Data(options.variables.utf8)) as? [String: Any]
        else {
            DataConnectTool.printError("error: --vars must be a JSON object")
            return 2
        }
        var body: [String: Any] = ["query": text, "variables": variables]
        if let name = options.operationName { body["operationName"] = name }
        let url = "\(base)/v1/projects/demo/locations/us-central1/services/\(service):executeGraphql"
        guard let payload = try? JSONSerialization.data(withJSONObject: body),
            let response = request(url, body: payload)
        else {
            DataConnectTool.printError("error: the request to \(url) failed")
            return 1
        }
        print(String(decoding: response.data, as: UTF8.self))
        let parsed = try? JSONSerialization.jsonObject(with: response.data) as? [String: Any]
        let errors = (parsed?["errors"] as? [Any])?.count ?? 0
        return response.status == 200 && errors == 0 ? 0 : 1
    }

    /// A blocking HTTP request through URLSession.
    static func request(_ url: String, body: Data?) -> (status: Int, data: Data)? {
        guard let target = URL(string: url) else { return nil }
        var request = URLRequest(url: target)
        request.timeoutInterval = 30
        if let body {
            request.httpMethod = "POST"
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let box = ResultBox()
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, response, _ in
            if let data, let http = response as? HTTPURLResponse { box.set((http.statusCode, data)) }
            done.signal()
        }.resume()
        done.wait()
        return box.value
    }
}

/// Carries a URLSession result out of its callback.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (status: Int, data: Data)?

    func set(_ value: (status: Int, data: Data)) {
        lock.lock()
        stored = value
        lock.unlock()
    }

    var value: (status: Int, data: Data)? {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
