import DataConnectCEL
import DataConnectSchema
import DataConnectWire
import GraphQLLanguage

/// A query's `@refresh` directives: when a subscribed result is re-run besides the table changes the
/// realtime hub tracks itself.
///
/// ```graphql
/// query ListMovies @auth(level: PUBLIC)
///   @refresh(every: {seconds: 30})
///   @refresh(onMutationExecuted: {operation: "AddMovie", condition: "mutation.variables.genre == request.variables.genre"}) { … }
/// query ListGenre @auth(level: PUBLIC)
///   @refresh(onMutationExecuted: [{operation: "AddMovie"}, {operation: "DeleteMovie"}]) { … }
/// ```
public struct RefreshRules: Sendable {
    /// The shortest `every:` interval written, unclamped; `nil` when there is none.
    public var every: Duration?
    /// The `onMutationExecuted:` triggers.
    public var onMutationExecuted: [MutationTrigger]

    /// No refresh rules.
    public init(every: Duration? = nil, onMutationExecuted: [MutationTrigger] = []) {
        self.every = every
        self.onMutationExecuted = onMutationExecuted
    }

    /// Reads `@refresh` directives (repeatable) of a query.
    ///
    /// - Throws: ``PlanError`` when a condition is not valid CEL.
    init(directives: [Directive]) throws(PlanError) {
        self.init()
        for directive in directives {
            if case .object(let fields, _)? = directive.argument("every")?.value {
                var milliseconds: Int64 = 0
                for field in fields {
                    guard case .int(let text, _) = field.value, let number = Int64(text) else { continue }
                    let factor: Int64 =
                        switch field.name.value {
                        case "milliseconds": 1
                        case "seconds": 1_000
                        case "minutes": 60_000
                        case "hours": 3_600_000
                        case "days": 86_400_000
                        case "weeks": 604_800_000
                        default: 0
                        }
                    let (product, overflow) = number.multipliedReportingOverflow(by: factor)
                    milliseconds = overflow ? Int64.max / 2 : min(Int64.max / 2, milliseconds + product)
                }
                let interval = Duration.milliseconds(max(0, milliseconds))
                every = every.map { min($0, interval) } ?? interval
            }
            switch directive.argument("onMutationExecuted")?.value {
            case .object(let fields, _)?:
                try appendTrigger(fields)
            case .list(let events, _)?:
                for case .object(let fields, _) in events { try appendTrigger(fields) }
            default:
                break
            }
        }
    }

    /// Reads one `OnMutationExecuted_Event` object and appends its trigger.
    private mutating func appendTrigger(_ fields: [ObjectField]) throws(PlanError) {
        var operation: String?
        var condition: CELExpression?
        var conditionSource: String?
        for field in fields {
            guard case .string(let text) = field.value else { continue }
            if field.name.value == "operation" { operation = text.value }
            if field.name.value == "condition" {
                condition = try QueryBuilder.parseCEL(text.value)
                conditionSource = text.value
            }
        }
        if let operation {
            onMutationExecuted.append(
                MutationTrigger(operation: operation, condition: condition, conditionSource: conditionSource))
        }
    }
}
