import GraphQLLanguage

/// An operation that cannot be executed as written.
struct PlanError: Error, Sendable, CustomStringConvertible {
    let message: String
    let location: NodeLocation?
    /// Whether the operation is valid Data Connect that only the emulator cannot run (`compare_embed` needs
    /// Vertex AI): `validate` and the emulator's start warn about it instead of refusing the backend.
    var isEmulatorLimitation = false
    var description: String { message }
}
