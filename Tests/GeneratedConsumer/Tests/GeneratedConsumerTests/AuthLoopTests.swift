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
@Suite(.serialized) struct AuthLoopTests {
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
            func loanCount(_ update: Result<OperationResult<LibrarianLoansQuery.Data>, AnyDataConnectError>) -> Int? {
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
    /// The values so far, behind a lock.
    private final class Values: Sendable {
        let list = Mutex<[Value]>([])
    }

    private let values = Values()
    private let task: Task<Void, Never>

    init(_ stream: AsyncStream<Value>) {
        let values = values
        task = Task { for await value in stream { values.list.withLock { $0.append(value) } } }
    }

    deinit { task.cancel() }

    /// Waits (up to a generous hang guard) until the values satisfy `condition`; returns them.
    func wait(until condition: @escaping ([Value]) -> Bool) async -> [Value] {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let current = values.list.withLock { $0 }
            if condition(current) { return current }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return values.list.withLock { $0 }
    }
}
