import DataConnectCEL
import DataConnectSchema
import DataConnectWire
import GraphQLLanguage

/// `@refresh(onMutationExecuted: {operation, condition})`: re-run a subscribed query after a named mutation.
public struct MutationTrigger: Sendable {
    /// The mutation's operation name.
    public var operation: String
    /// The CEL condition (`mutation.*`, `request.*`, `auth`); `nil` means always.
    public var condition: CELExpression?
    /// The condition as written.
    public var conditionSource: String?

    /// Whether the trigger fires for an executed mutation, seen from one subscription.
    ///
    /// The condition sees `mutation.variables` and `mutation.auth` (the mutation's request),
    /// `request.variables`/`vars` and `request.auth`/`auth` (the subscription's). A condition that fails to
    /// evaluate counts as false.
    ///
    /// - Parameters:
    ///   - effect: The executed mutation.
    ///   - variables: The subscription's variables.
    ///   - auth: The subscription's caller.
    /// - Returns: `true` when the query should be re-run.
    public func fires(for effect: MutationEffect, variables: JSONObject, auth: AuthContext?) -> Bool {
        guard effect.operationName == operation else { return false }
        guard let condition else { return true }
        var bindings = CELBindings(auth: auth?.celValue ?? .null, vars: variables)
        bindings.mutation = .object([
            "operationName": .string(effect.operationName),
            "variables": .object(effect.variables),
            "auth": effect.auth?.celValue ?? .null,
        ])
        return (try? condition.evaluateCondition(in: bindings)) ?? false
    }
}

// MARK: - Mutation effects
