import Foundation

/// The handle of a state listener, for ``Auth/removeStateDidChangeListener(_:)``.
public typealias AuthStateDidChangeListenerHandle = NSObjectProtocol

/// The handle of an ID-token listener, for ``Auth/removeIDTokenDidChangeListener(_:)``.
public typealias IDTokenDidChangeListenerHandle = NSObjectProtocol

/// A listener's registration.
final class AuthListenerHandle: NSObject, @unchecked Sendable {
    // @unchecked: NSObject is not Sendable on Linux; the only stored property is immutable.
    let id: Int

    init(id: Int) {
        self.id = id
    }
}

/// Listeners and async sequences of sign-in state and ID tokens.
///
/// Listeners run on a private serial queue, in order (upstream runs them on the main queue).
extension Auth {
    /// Calls `listener` now with the current user, then at every sign-in and sign-out.
    ///
    /// ```swift
    /// let handle = Auth.auth().addStateDidChangeListener { auth, user in print(user?.uid ?? "signed out") }
    /// Auth.auth().removeStateDidChangeListener(handle)
    /// ```
    ///
    /// - Parameter listener: Called with this instance and the user, or `nil` after sign-out.
    /// - Returns: The handle to remove the listener with.
    @discardableResult
    public func addStateDidChangeListener(
        _ listener: @escaping @Sendable (Auth, User?) -> Void
    ) -> AuthStateDidChangeListenerHandle {
        addListener(listener, to: \.stateListeners)
    }

    /// Stops calling a state listener.
    ///
    /// - Parameter listenerHandle: The handle ``addStateDidChangeListener(_:)`` returned.
    public func removeStateDidChangeListener(_ listenerHandle: AuthStateDidChangeListenerHandle) {
        guard let handle = listenerHandle as? AuthListenerHandle else { return }
        state.withLock { _ = $0.stateListeners.removeValue(forKey: handle.id) }
    }

    /// Calls `listener` now with the current user, then at every sign-in, sign-out and new ID token.
    ///
    /// - Parameter listener: Called with this instance and the user, or `nil` after sign-out.
    /// - Returns: The handle to remove the listener with.
    @discardableResult
    public func addIDTokenDidChangeListener(
        _ listener: @escaping @Sendable (Auth, User?) -> Void
    ) -> IDTokenDidChangeListenerHandle {
        addListener(listener, to: \.tokenListeners)
    }

    /// Stops calling an ID-token listener.
    ///
    /// - Parameter listenerHandle: The handle ``addIDTokenDidChangeListener(_:)`` returned.
    public func removeIDTokenDidChangeListener(_ listenerHandle: IDTokenDidChangeListenerHandle) {
        guard let handle = listenerHandle as? AuthListenerHandle else { return }
        state.withLock { _ = $0.tokenListeners.removeValue(forKey: handle.id) }
    }

    /// The current user, then the user at every sign-in and sign-out; a new sequence per access.
    ///
    /// ```swift
    /// for await user in Auth.auth().authStateChanges { print(user?.uid ?? "signed out") }
    /// ```
    public var authStateChanges: AsyncStream<User?> {
        stream(addStateDidChangeListener, remove: { auth, handle in auth.removeStateDidChangeListener(handle) })
    }

    /// The current user, then the user at every sign-in, sign-out and new ID token; a new sequence per access.
    public var idTokenChanges: AsyncStream<User?> {
        stream(addIDTokenDidChangeListener, remove: { auth, handle in auth.removeIDTokenDidChangeListener(handle) })
    }

    /// Upstream's name for ``authStateChanges``.
    ///
    /// - Returns: A new sequence of the current user and every change.
    public func authDidChangeSequence() -> AsyncStream<User?> {
        authStateChanges
    }

    private func addListener(
        _ listener: @escaping @Sendable (Auth, User?) -> Void,
        to listeners: WritableKeyPath<State, [Int: @Sendable (Auth, User?) -> Void]>
    ) -> AuthListenerHandle {
        let (id, user) = state.withLock { state in
            let id = state.nextListenerID
            state.nextListenerID += 1
            state[keyPath: listeners][id] = listener
            return (id, state.currentUser)
        }
        notify([listener], user)
        return AuthListenerHandle(id: id)
    }

    private func stream(
        _ add: (@escaping @Sendable (Auth, User?) -> Void) -> NSObjectProtocol,
        remove: @escaping @Sendable (Auth, NSObjectProtocol) -> Void
    ) -> AsyncStream<User?> {
        let (stream, continuation) = AsyncStream<User?>.makeStream(bufferingPolicy: .unbounded)
        let registered = add { _, user in continuation.yield(user) }
        let box = HandleBox(registered)
        continuation.onTermination = { [weak self] _ in
            if let self { remove(self, box.handle) }
        }
        return stream
    }
}

/// Carries a listener handle into a `@Sendable` closure.
private final class HandleBox: @unchecked Sendable {
    // @unchecked: the handle is immutable and only passed back to `Auth`.
    let handle: NSObjectProtocol

    init(_ handle: NSObjectProtocol) {
        self.handle = handle
    }
}
