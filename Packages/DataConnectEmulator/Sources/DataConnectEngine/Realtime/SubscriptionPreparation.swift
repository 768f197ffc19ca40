/// The outcome of ``Engine/prepareSubscription(connector:operationName:variables:auth:)``.
public enum SubscriptionPreparation: Sendable {
    /// The query may be subscribed to.
    case ready(SubscriptionTarget)
    /// A request-level refusal, answered like `:executeQuery` would.
    case refused(EngineResponse)
}
