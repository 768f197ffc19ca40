import DataConnectEmulator
import DataConnectTestSupport
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The emulator the suite talks to, set up the way the Data Connect SDKs' integration suites set theirs up: started
/// on an explicit port with no service, then told which `dataconnect` folder to serve through
/// `POST /emulator/configure` (no `Content-Type`, a stray byte after the JSON body, as the iOS suite sends it).
///
/// One emulator serves the whole suite, because the connector the tests use (`DataConnect.shelfConnector`) is a
/// process-wide singleton pointed at it once with `useEmulator(port:)`.
enum LiveEmulator {
    /// The port, once the emulator serves `Backend/movies`.
    static let port: Task<Int, any Error> = Task { try await start() }

    private static let emulator = Mutex<Emulator?>(nil)

    /// The folder holding `Backend/movies/dataconnect.yaml`, found from this file.
    static let moviesBackend: String = {
        var directory = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("Backend/movies")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("dataconnect.yaml").path) {
                return candidate.path
            }
            directory.deleteLastPathComponent()
        }
        fatalError("no Backend/movies/dataconnect.yaml above \(#filePath)")
    }()

    private static func start() async throws -> Int {
        var lastError: (any Error)?
        // A port the system says is free; another process may take it before the emulator binds, so try a few.
        for _ in 0..<5 {
            // (DataConnectTestSupport's port: bound, noted and closed)
            let port = UInt16(try Loopback.freePort())
            do {
                let started = try Emulator(options: Emulator.Options(backend: nil, port: port, readers: 2, threads: 2))
                try started.start()
                emulator.withLock { $0 = started }
                try await configure(port: Int(port))
                return Int(port)
            } catch let error as EmulatorError {
                lastError = error
            }
        }
        throw lastError ?? EmulatorError("no free port")
    }

    /// Posts the configure request exactly as the iOS SDK's integration suite does.
    static func configure(port: Int) async throws {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/emulator/configure")!)
        request.httpMethod = "POST"
        let body = #"{"service_id": "movies", "config_directory": "\#(moviesBackend)", "use_dummy": true}"#
        request.httpBody = Data((body + "}").utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else {
            throw EmulatorError("configure answered \(status): \(String(decoding: data, as: UTF8.self))")
        }
    }
}
