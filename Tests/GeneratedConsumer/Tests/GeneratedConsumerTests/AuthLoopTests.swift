import DataConnectTesting
import FirebaseAuth
import FirebaseCore
import FirebaseDataConnect
import Foundation
import LibraryLending
import Synchronization
import Testing

/// The whole loop of a real project's auth, offline: a user signs up with Firebase Auth, an admin grants a claim
/// through the Admin API, the generated SDK's claim-gated query (`librarianLoans`, `@auth(expr:
/// "auth.token.librarian == true")`) and its realtime subscription follow the user's ID token, and taking the
/// claim away or disabling the user ends them. No token code: the generated connector takes its token from
/// `Auth.auth()`.
@Suite(.on(.sqlite), .serialized)  // the loop of ID tokens and claims, decided before any SQL
struct AuthLoopTests {
    @Test func aClaimGrantedAndWithdrawnByAnAdminGatesTheGeneratedQueryAndItsSubscription() async throws {
        // given: a live emulator (the subscription rides the WebSocket stream) and the app's Auth pointed at it
        let emulator = try TestEmulator(backend: RepositoryPaths.library, seedFile: RepositoryPaths.librarySeed)
        if FirebaseApp.app() == nil { FirebaseApp.configure() }
        let auth = Auth.auth()
        emulator.connect(auth)
        let email = "lee-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let user = try await auth.createUser(withEmail: email, password: "secret-1").user
        defer { try? auth.signOut() }

        try await emulator.attach {
            let lending = DataConnect.lendingConnector

            // when: the claim is granted, but the client still holds its old token
            let before = await #expect(throws: DataConnectServerError.self) {
                try await lending.librarianLoansQuery.execute(fetchPolicy: .serverOnly)
            }
            try emulator.setCustomClaims(["librarian": true], uid: user.uid)
            let stale = await #expect(throws: DataConnectServerError.self) {
                try await lending.librarianLoansQuery.execute(fetchPolicy: .serverOnly)
            }
            _ = try await user.getIDToken(forcingRefresh: true)
            let allowed = try await lending.librarianLoansQuery.execute(fetchPolicy: .serverOnly)

            // then: refused before the refresh, allowed after
            #expect(before?.code == .permissionDenied)
            #expect(stale?.code == .permissionDenied, "the server reads the token, not the user store")
            #expect(allowed.data?.loans.count == 3)

            // when: a librarian subscribes, and a loan is made
            let updates = Updates(try await lending.librarianLoansQuery.ref().subscribe())
            _ = await updates.wait { $0.count >= 1 }
            _ = emulator.emulator.executeAdmin(
                #"mutation { loan_insert(data: {bookIsbn: "978-0-14-143951-8", memberId: "uid-ben", dueOn: "2099-01-01"}) }"#
            )
            @Sendable func loanCount(
                _ update: Result<OperationResult<LibrarianLoansQuery.Data>, AnyDataConnectError>
            ) -> Int? {
                try? update.get().data?.loans.count
            }
            let pushed = await updates.wait { $0.last.flatMap(loanCount) == 4 }

            // then: the subscription sees the claim-gated data, then its change
            #expect(pushed.first.flatMap(loanCount) == 3)
            #expect(pushed.last.flatMap(loanCount) == 4)

            // when: the admin takes the claim away and the client's token is refreshed
            try emulator.setCustomClaims([:], uid: user.uid)
            _ = try await user.getIDToken(forcingRefresh: true)
            let ended = await updates.wait { $0.last.map { (try? $0.get()) == nil } ?? false }

            // then: the subscription ends with the code a new request would get
            let failure = ended.last.flatMap { result -> DataConnectServerError? in
                guard case .failure(let error) = result else { return nil }
                return error.dataConnectError as? DataConnectServerError
            }
            #expect(failure?.code == .permissionDenied, "\(String(describing: ended.last))")
        }

        // when: the admin disables the user
        try emulator.updateAuthUser(uid: user.uid, ["disableUser": true])
        let refresh = await #expect(throws: (any Error).self) { try await user.getIDToken(forcingRefresh: true) }

        // then: the next refresh fails and signs the user out
        #expect(AuthErrorCode(rawValue: ((refresh as NSError?)?.code) ?? 0) == .userDisabled)
        #expect(auth.currentUser == nil)
    }
}

/// What a subscription publishes, collected from a background task.
final class Updates<Value: Sendable>: Sendable {
    private struct Waiter {
        let condition: @Sendable ([Value]) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var values: [Value] = []
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
    }

    /// The values and the waiting tests, behind a lock.
    private final class Shared: Sendable {
        let state = Mutex(State())

        func append(_ value: Value) {
            let ready = state.withLock { state -> [Waiter] in
                state.values.append(value)
                let ready = state.waiters.filter { $0.value.condition(state.values) }
                for id in ready.keys { state.waiters[id] = nil }
                return Array(ready.values)
            }
            for waiter in ready { waiter.continuation.resume() }
        }
    }

    private let shared = Shared()
    private let task: Task<Void, Never>

    init(_ stream: AsyncStream<Value>) {
        let shared = shared
        task = Task { for await value in stream { shared.append(value) } }
    }

    deinit { task.cancel() }

    /// Waits until the values satisfy `condition` (woken by each new value; a 60 s hang guard ends a wait that would
    /// never end, and the test's expectations then fail); returns them.
    func wait(until condition: @escaping @Sendable ([Value]) -> Bool) async -> [Value] {
        let shared = shared
        let id = shared.state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let guardTask = Task {
            try? await Task.sleep(for: .seconds(60))
            shared.state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume()
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = shared.state.withLock { state -> Bool in
                if condition(state.values) { return true }
                state.waiters[id] = Waiter(condition: condition, continuation: continuation)
                return false
            }
            if ready { continuation.resume() }
        }
        guardTask.cancel()
        return shared.state.withLock { $0.values }
    }
}
