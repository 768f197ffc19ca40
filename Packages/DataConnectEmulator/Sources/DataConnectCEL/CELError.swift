/// Why a CEL expression could not be parsed or evaluated.
///
/// Parsing fails with ``syntax(message:line:column:)`` at load time; evaluation fails with ``evaluation(message:)``
/// (a missing key, a type mismatch, a division by zero, an unknown binding) or with ``unauthenticated`` when the
/// expression reads `auth.uid` (or any other member of `auth`) while nobody is signed in, which callers answer with
/// `UNAUTHENTICATED`.
///
/// ```swift
/// do {
///     _ = try CELExpression(parsing: "auth.uid == vars.id").evaluate(in: CELBindings())
/// } catch .unauthenticated {
///     // answer UNAUTHENTICATED
/// } catch {
///     print(error.message)
/// }
/// ```
public enum CELError: Error, Hashable, Sendable {
    /// The source is not a valid expression; `line` and `column` are 1-based, columns in Unicode scalars.
    case syntax(message: String, line: Int, column: Int)
    /// The expression read a member of `auth` with no signed-in user.
    case unauthenticated
    /// Evaluation failed.
    case evaluation(message: String)

    /// A one-line description, e.g. `syntax error at 1:5: unexpected ")"` or `no such key: status`.
    public var message: String {
        switch self {
        case .syntax(let message, let line, let column):
            return "syntax error at \(line):\(column): \(message)"
        case .unauthenticated:
            return "auth.uid is not available: the request is unauthenticated"
        case .evaluation(let message):
            return message
        }
    }
}

extension CELError: CustomStringConvertible {
    /// The message; see ``message``.
    public var description: String { message }
}
