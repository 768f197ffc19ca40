import FirebaseCore
import Foundation
import Synchronization

@_spi(Testing) @testable import FirebaseAuth

/// One test's world: a manual clock, a fake Identity Toolkit behind a real HTTP stand-in server, a temporary
/// persistence folder, a uniquely named app, and an `Auth` wired to all of them.
final class AuthHarness: Sendable {
    let clock = ManualClock()
    let fake: FakeIdentityToolkit
    let server: StandInServer
    let app: FirebaseApp
    let folder: URL

    /// - Parameters:
    ///   - apiKey: The app's API key (`nil` to test the emulator placeholder).
    ///   - bundleID: The options' bundle ID.
    ///   - handler: Replaces the fake's answers (the wire fixture tests script their own).
    init(
        apiKey: String? = "test-api-key", bundleID: String? = nil,
        handler: StandInServer.Handler? = nil
    ) throws {
        let fake = FakeIdentityToolkit(clock: clock)
        self.fake = fake
        server = try StandInServer(handler: handler ?? { fake.respond($0) })
        let name = "auth-test-\(UUID().uuidString)"
        let options = FirebaseOptions(projectID: "demo-auth", apiKey: apiKey, googleAppID: "1:123:ios:abc")
        options.bundleID = bundleID
        FirebaseApp.configure(name: name, options: options)
        app = FirebaseApp.app(name: name)!
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("auth-\(UUID().uuidString)")
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// A new `Auth` on the harness (persistence in ``folder`` unless given).
    func makeAuth(persistence: AuthPersistence? = nil) -> Auth {
        let clock = clock
        let environment = AuthEnvironment(
            now: { clock.now }, sleep: { try await clock.sleep(for: $0) },
            endpoints: AuthEndpoints(identityToolkit: server.origin, secureToken: server.origin),
            persistence: persistence ?? .directory(folder), transport: HarnessTransport(harness: self),
            processEnvironment: [:])
        return Auth(app: app, environment: environment)
    }

    /// The `user.json` of the harness's app.
    var userFile: URL {
        folder.appendingPathComponent(app.name).appendingPathComponent("demo-auth").appendingPathComponent("user.json")
    }
}

/// URLSession to the stand-in server, holding the harness so that the server and the folder live as long as any
/// `Auth` made from it (Swift may release a test's local `harness` right after its last use).
struct HarnessTransport: AuthTransport {
    let harness: AuthHarness
    let base = URLSessionAuthTransport()

    func send(_ request: AuthHTTPRequest) async throws -> AuthHTTPResponse {
        try await base.send(request)
    }
}

/// Collects values pushed from listeners, for comparing with an expected sequence.
final class Recorder<Value: Sendable>: Sendable {
    private struct Waiter {
        let count: Int
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var values: [Value] = []
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    func append(_ value: Value) {
        let ready = state.withLock { state -> [Waiter] in
            state.values.append(value)
            let ready = state.waiters.filter { $0.value.count <= state.values.count }
            for id in ready.keys { state.waiters[id] = nil }
            return Array(ready.values)
        }
        for waiter in ready { waiter.continuation.resume() }
    }

    var all: [Value] { state.withLock { $0.values } }

    /// Waits until `count` values arrived (woken by ``append(_:)``; a 60 s hang guard ends a wait that would never
    /// end, and the test's expectations then fail); returns the values.
    func wait(for count: Int) async -> [Value] {
        let id = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let guardTask = Task { [weak self] in
            try? await Task.sleep(for: .seconds(60))
            let waiter = self?.state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.continuation.resume()
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.values.count >= count { return true }
                state.waiters[id] = Waiter(count: count, continuation: continuation)
                return false
            }
            if ready { continuation.resume() }
        }
        guardTask.cancel()
        return all
    }
}

/// The `AuthErrorCode` of a thrown error, if it is an Auth error.
func authCode(_ error: any Error) -> AuthErrorCode? {
    let error = error as NSError
    guard error.domain == AuthErrors.domain else { return nil }
    return AuthErrorCode(rawValue: error.code)
}
