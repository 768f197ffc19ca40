/// The columns a query reads through each table alias, recorded as the builder writes column references.
///
/// A list's innermost layer sorts and cuts its rows before the middle layer renders them: selecting only the
/// columns the rendering reads keeps wide rows (long text, JSON lists, vectors) out of the sort. The builder
/// starts recording an alias before it writes the alias's row object and takes the columns after.
final class ColumnReferences {
    private var recording: [String: [String]] = [:]

    /// `alias.name`, recorded when the alias is being recorded.
    ///
    /// - Parameter quotedName: The column's name as it appears in SQL (quoted, or a plain internal name).
    func column(_ alias: String, _ quotedName: String) -> String {
        let reference = "\(alias).\(quotedName)"
        if var columns = recording[alias] {
            if !columns.contains(reference) {
                columns.append(reference)
                recording[alias] = columns
            }
        }
        return reference
    }

    /// Starts recording the columns read through `alias`.
    func start(_ alias: String) {
        recording[alias] = []
    }

    /// Stops recording `alias`, returning the references read through it since ``start(_:)``, in first-use
    /// order.
    func finish(_ alias: String) -> [String] {
        recording.removeValue(forKey: alias) ?? []
    }
}
