/// The columns a query reads through each table alias, recorded as the builder writes column references.
///
/// A list's innermost layer sorts and cuts its rows before the middle layer renders them: selecting only the
/// columns the rendering reads keeps wide rows (long text, JSON lists, vectors) out of the sort. The builder
/// starts recording an alias before it writes the alias's row object and takes the columns after.
///
/// A row joined into a list's innermost layer (a to-one relation read with a `LEFT JOIN` there) is read by the
/// outer layer through the list's alias: each of its columns is carried under a name of its own.
final class ColumnReferences {
    private var recording: [String: [String]] = [:]
    /// The joined aliases: the list alias they are carried through, and the carried name of each column.
    private var joined: [String: (list: String, names: [String: String])] = [:]

    /// `alias.name`, recorded when the alias is being recorded; for a joined alias, the list's carried column.
    ///
    /// - Parameter quotedName: The column's name as it appears in SQL (quoted, or a plain internal name).
    func column(_ alias: String, _ quotedName: String) -> String {
        if var join = joined[alias] {
            if let name = join.names[quotedName] { return "\(join.list).\(name)" }
            let name = "_j\(alias)_\(join.names.count)"
            join.names[quotedName] = name
            joined[alias] = join
            recording[join.list]?.append("\(alias).\(quotedName) AS \(name)")
            return "\(join.list).\(name)"
        }
        let reference = "\(alias).\(quotedName)"
        if var columns = recording[alias] {
            if !columns.contains(reference) {
                columns.append(reference)
                recording[alias] = columns
            }
        }
        return reference
    }

    /// Whether the columns read through `alias` are being recorded (it is a list's row being written).
    func isRecording(_ alias: String) -> Bool {
        recording[alias] != nil
    }

    /// From now on, reads `alias`, a row joined into the innermost layer of the list `list` (which is being
    /// recorded), through columns that layer carries.
    func join(_ alias: String, into list: String) {
        joined[alias] = (list, [:])
    }

    /// Runs `body`, which writes SQL of a list's innermost layer itself (a join's condition), without recording
    /// the columns it reads.
    func unrecorded<T>(_ body: () -> T) -> T {
        let saved = recording
        defer { recording = saved }
        return body()
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
