import DataConnectEngine
import DataConnectWire
import Dispatch
import Foundation
import Synchronization

/// A live subscriber checked again when its caller's credentials change.
extension SubscriptionHub {
    /// What ``reauthorize(_:auth:)`` did with a subscriber.
    public enum Reauthorization: Sendable, Equatable {
        /// The new caller may still read the query: the subscriber stays, under this id from now on.
        case kept(SubscriberID)
        /// The new caller may no longer read it: the subscriber ended with this error and `cancelled: true`.
        case ended(RequestError)
        /// The subscriber had already gone.
        case gone
    }

    /// Checks a live subscriber again for a caller whose credentials changed (a refreshed ID token), as a new
    /// subscription of the same query would be checked.
    ///
    /// When the caller may still run the query, the subscriber stays and its later results are computed as that
    /// caller: it joins the group of the new credentials and gets a result only when that differs from the one it
    /// holds. When the checks now refuse it (a claim its `@auth(expr:)` needs is gone, or the caller signed out
    /// of a query that needs a user), it ends with a last response carrying `cancelled: true` and the error a new
    /// request would get (PERMISSION_DENIED, UNAUTHENTICATED).
    ///
    /// ```swift
    /// switch hub.reauthorize(subscriber, auth: try AuthContext.decode(token: refreshedToken)) {
    /// case .kept(let id): subscriber = id
    /// case .ended, .gone: subscriber = nil
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - subscriber: The subscriber, as ``addSubscriber(connector:operationName:variables:auth:requestId:dataEtag:clientKey:sink:)``
    ///     or an earlier reauthorization returned it.
    ///   - auth: The caller's new credentials; `nil` when signed out.
    /// - Returns: Whether it stays (and its id from now on), or the error it ended with.
    public func reauthorize(_ subscriber: SubscriberID, auth: AuthContext?) -> Reauthorization {
        let found = state.withLock { state -> (SubscriptionTarget, Engine)? in
            guard let group = state.core.groups[subscriber.key], group.subscribers[subscriber.id] != nil else {
                return nil
            }
            return (group.target, state.engine)
        }
        guard let (old, engine) = found else { return .gone }
        let target: SubscriptionTarget
        switch engine.prepareSubscription(
            connector: old.connector, operationName: old.operationName, variables: old.variables, auth: auth)
        {
        case .refused(let response):
            let error = Self.refusal(response)
            return cancel(subscriber, error: error) ? .ended(error) : .gone
        case .ready(let ready):
            target = ready
        }
        guard case .reauthorized(let moved)? = handle(.reauthorize(subscriber, target: target, auth: auth)) else {
            preconditionFailure("the hub answers every reauthorization")
        }
        return moved.map(Reauthorization.kept) ?? .gone
    }
}
