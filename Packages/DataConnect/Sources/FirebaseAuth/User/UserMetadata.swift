import Foundation

/// When the user was created and last signed in.
///
/// ```swift
/// let created = Auth.auth().currentUser?.metadata.creationDate
/// ```
public struct UserMetadata: Sendable, Equatable {
    /// The last sign-in (`lastLoginAt`).
    public let lastSignInDate: Date?
    /// The account's creation (`createdAt`).
    public let creationDate: Date?
}
