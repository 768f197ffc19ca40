/// A unified diff of two texts by lines, from their longest common subsequence.
///
/// ```swift
/// LineDiff(old: "a\nb\n", new: "a\nc\n").unified(oldName: "golden", newName: "actual")
/// // --- golden
/// // +++ actual
/// // @@ -1,2 +1,2 @@
/// //  a
/// // -b
/// // +c
/// ```
struct LineDiff {
    /// One line of the edit script.
    enum Line: Equatable {
        case same(String)
        case removed(String)
        case added(String)
    }

    /// The edit script from the old text to the new one, in order.
    let lines: [Line]

    init(old: String, new: String) {
        lines = Self.script(Self.split(old), Self.split(new))
    }

    /// Whether the texts have the same lines.
    var isEmpty: Bool { lines.allSatisfy { if case .same = $0 { true } else { false } } }

    /// The diff in unified format, with `context` unchanged lines around each change.
    func unified(oldName: String, newName: String, context: Int = 3) -> String {
        var output = ["--- \(oldName)", "+++ \(newName)"]
        let changed = lines.indices.filter { if case .same = lines[$0] { false } else { true } }
        var start = 0
        while start < changed.count {
            // A hunk takes the changes whose context windows touch.
            var end = start
            while end + 1 < changed.count && changed[end + 1] - changed[end] <= 2 * context { end += 1 }
            let first = max(0, changed[start] - context)
            let last = min(lines.count - 1, changed[end] + context)
            output.append(hunkHeader(first: first, last: last))
            for line in lines[first...last] {
                switch line {
                case .same(let text): output.append(" " + text)
                case .removed(let text): output.append("-" + text)
                case .added(let text): output.append("+" + text)
                }
            }
            start = end + 1
        }
        return output.joined(separator: "\n")
    }

    /// `@@ -a,b +c,d @@` for the script lines `first...last`.
    private func hunkHeader(first: Int, last: Int) -> String {
        var oldStart = 1
        var newStart = 1
        for line in lines[..<first] {
            if case .added = line {} else { oldStart += 1 }
            if case .removed = line {} else { newStart += 1 }
        }
        var oldCount = 0
        var newCount = 0
        for line in lines[first...last] {
            if case .added = line {} else { oldCount += 1 }
            if case .removed = line {} else { newCount += 1 }
        }
        // An empty range starts one line before, as diff(1) writes it.
        return "@@ -\(oldCount == 0 ? oldStart - 1 : oldStart),\(oldCount) "
            + "+\(newCount == 0 ? newStart - 1 : newStart),\(newCount) @@"
    }

    private static func split(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// The edit script: a table of common-subsequence lengths of every pair of suffixes, walked from the start.
    private static func script(_ old: [String], _ new: [String]) -> [Line] {
        let width = new.count + 1
        var lengths = [Int](repeating: 0, count: (old.count + 1) * width)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                lengths[i * width + j] =
                    old[i] == new[j]
                    ? lengths[(i + 1) * width + j + 1] + 1
                    : max(lengths[(i + 1) * width + j], lengths[i * width + j + 1])
            }
        }
        var result: [Line] = []
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            if i < old.count && j < new.count && old[i] == new[j] {
                result.append(.same(old[i]))
                i += 1
                j += 1
            } else if i < old.count && (j == new.count || lengths[(i + 1) * width + j] >= lengths[i * width + j + 1]) {
                result.append(.removed(old[i]))
                i += 1
            } else {
                result.append(.added(new[j]))
                j += 1
            }
        }
        return result
    }
}
