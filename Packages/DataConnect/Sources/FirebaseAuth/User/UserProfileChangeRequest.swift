import Foundation
import Synchronization

/// Changes to a user's display name and photo URL, sent together by ``commitChanges()``.
///
/// ```swift
/// let change = user.createProfileChangeRequest()
/// change.displayName = "Alice"
/// change.photoURL = URL(string: "https://example.com/alice.png")
/// try await change.commitChanges()
/// ```
public final class UserProfileChangeRequest: Sendable {
    private struct Changes {
        var displayName: String??
        var photoURL: URL??
        var committed = false
    }

    private let user: User
    private let changes = Mutex(Changes())

    init(user: User) {
        self.user = user
    }

    /// The new display name; setting `nil` removes it.
    public var displayName: String? {
        get { changes.withLock { $0.displayName ?? nil } }
        set { changes.withLock { $0.displayName = .some(newValue) } }
    }

    /// The new photo URL; setting `nil` removes it.
    public var photoURL: URL? {
        get { changes.withLock { $0.photoURL ?? nil } }
        set { changes.withLock { $0.photoURL = .some(newValue) } }
    }

    /// Sends the changes with `accounts:update` and updates the user.
    ///
    /// - Throws: ``AuthErrorCode/internalError`` when called twice; the server's errors, e.g.
    ///   ``AuthErrorCode/userTokenExpired``.
    public func commitChanges() async throws {
        let pending = changes.withLock { changes -> Changes? in
            guard !changes.committed else { return nil }
            changes.committed = true
            return changes
        }
        guard let pending else {
            throw AuthErrors.error(.internalError, message: "commitChanges() was already called.")
        }
        var body = UpdateBody()
        var deleted: [String] = []
        if let name = pending.displayName {
            if let name { body.displayName = name } else { deleted.append("DISPLAY_NAME") }
        }
        if let photo = pending.photoURL {
            if let photo { body.photoUrl = photo.absoluteString } else { deleted.append("PHOTO_URL") }
        }
        body.deleteAttribute = deleted.isEmpty ? nil : deleted
        try await user.update(body)
    }

    /// ``commitChanges()`` with a completion handler.
    ///
    /// - Parameter completion: Called with `nil` or the error.
    public func commitChanges(completion: (@Sendable ((any Error)?) -> Void)? = nil) {
        Task {
            do {
                try await commitChanges()
                completion?(nil)
            } catch {
                completion?(error)
            }
        }
    }
}
