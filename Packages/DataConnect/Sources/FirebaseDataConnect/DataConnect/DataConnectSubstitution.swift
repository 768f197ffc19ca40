/// Replaces ``DataConnect`` instances inside a task tree: the seam a test harness attaches an emulator through **[ext]**.
///
/// Generated code holds one process-wide instance per connector (`DataConnect.moviesConnector`), which a test
/// cannot construct or point elsewhere without changing what every other test sees. Inside a
/// ``DataConnect/substitution`` scope, each shared instance asks the substitution for a stand-in and hands it its
/// work: refs created by ``DataConnect/query(name:variables:resultsDataType:)`` and
/// ``DataConnect/mutation(name:variables:resultsDataType:)`` are the stand-in's (so their executions, their cache
/// and their realtime subscriptions are the stand-in's, even when they are used after the scope or from a
/// detached task), ``DataConnect/setAuthTokenProvider(_:)`` and ``DataConnect/authTokenProvider`` reach the
/// stand-in's provider, and ``DataConnect/useEmulator(host:port:)`` does nothing, since the harness decides
/// where requests go. Refs created before the scope keep their instance.
///
/// Instances created with an injected transport are never substituted. App code does not use this protocol;
/// `DataConnectTesting`'s `TestEmulator.attach(_:)` is built on it, and other harnesses may be.
///
/// ```swift
/// struct ToRecording: DataConnectSubstitution {
///     let standIn: DataConnect   // e.g. DataConnect(app:connectorConfig:transport: RecordingTransport())
///     func substitute(for dataConnect: DataConnect) -> DataConnect? {
///         dataConnect.connectorConfig == standIn.connectorConfig ? standIn : nil
///     }
/// }
/// try await DataConnect.$substitution.withValue(ToRecording(standIn: standIn)) {
///     _ = try await DataConnect.moviesConnector.listMoviesQuery.execute()   // answered by standIn
/// }
/// ```
public protocol DataConnectSubstitution: Sendable {
    /// The instance that does `dataConnect`'s work in this scope, or `nil` to leave `dataConnect` alone.
    ///
    /// Called whenever a shared instance creates a ref or its auth provider is read or set, so it must return
    /// the same stand-in for the same instance every time, and be cheap after the first call.
    ///
    /// - Parameter dataConnect: The instance being used, usually the one `DataConnect.dataConnect(...)` returns.
    /// - Returns: Its stand-in, or `nil`.
    func substitute(for dataConnect: DataConnect) -> DataConnect?
}

extension DataConnect {
    /// The substitution in force for the current task and its child tasks **[ext]**; `nil` (the default) outside
    /// a test harness's scope.
    ///
    /// Bind it with `DataConnect.$substitution.withValue(_:operation:)`; see ``DataConnectSubstitution``.
    @TaskLocal public static var substitution: (any DataConnectSubstitution)? = nil
}
