extension Engine {
    /// Whether a connector operation is a mutation; `nil` when the engine does not serve it.
    ///
    /// The realtime stream's `execute` names an operation without saying its kind, as `:executeQuery` and
    /// `:executeMutation` do.
    public func isMutation(connector: String, operationName: String) -> Bool? {
        operations[connector]?[operationName].map { $0.kind == .mutation }
    }
}
