/// A line diff in the unified format, for reporting generated files that differ from what is on disk.
///
/// ```swift
/// print(TextDiff.unified(old: onDisk, new: generated, oldName: "a/Package.swift", newName: "b/Package.swift"))
/// ```
public enum TextDiff {
    private enum Edit: Equatable {
        case same(Int, Int)
        case removed(Int)
        case added(Int)
    }

    /// The unified diff of two texts with `context` lines around each change; empty when they are equal.
    ///
    /// Uses the longest common subsequence of lines after trimming the common head and tail, so the cost is
    /// quadratic only in the changed middle; past 4,000 lines of changed middle it reports the whole middle as
    /// replaced instead.
    public static func unified(
        old: String, new: String, oldName: String, newName: String, context: Int = 3
    )
        -> String
    {
        if old == new { return "" }
        let a = old.split(separator: "\n", omittingEmptySubsequences: false)
        let b = new.split(separator: "\n", omittingEmptySubsequences: false)
        let edits = diff(a, b)
        var output = "--- \(oldName)\n+++ \(newName)\n"
        // Group edits into hunks with context.
        let changed = edits.indices.filter {
            if case .same = edits[$0] { return false }
            return true
        }
        var index = 0
        while index < changed.count {
            let first = max(changed[index] - context, 0)
            var last = min(changed[index] + context, edits.count - 1)
            var next = index + 1
            while next < changed.count, changed[next] - context <= last + 1 {
                last = min(changed[next] + context, edits.count - 1)
                next += 1
            }
            var oldStart = 0
            var newStart = 0
            for edit in edits[..<first] {
                switch edit {
                case .same: oldStart += 1; newStart += 1
                case .removed: oldStart += 1
                case .added: newStart += 1
                }
            }
            var body = ""
            var oldCount = 0
            var newCount = 0
            for edit in edits[first...last] {
                switch edit {
                case .same(let i, _):
                    body += " \(a[i])\n"; oldCount += 1; newCount += 1
                case .removed(let i):
                    body += "-\(a[i])\n"; oldCount += 1
                case .added(let j):
                    body += "+\(b[j])\n"; newCount += 1
                }
            }
            output += "@@ -\(oldStart + 1),\(oldCount) +\(newStart + 1),\(newCount) @@\n" + body
            index = next
        }
        return output
    }

    private static func diff(_ a: [Substring], _ b: [Substring]) -> [Edit] {
        var head = 0
        while head < a.count, head < b.count, a[head] == b[head] { head += 1 }
        var tail = 0
        while tail < a.count - head, tail < b.count - head, a[a.count - 1 - tail] == b[b.count - 1 - tail] {
            tail += 1
        }
        var edits: [Edit] = (0..<head).map { .same($0, $0) }
        let aMiddle = head..<(a.count - tail)
        let bMiddle = head..<(b.count - tail)
        if aMiddle.count * bMiddle.count > 16_000_000 {
            edits += aMiddle.map { .removed($0) } + bMiddle.map { .added($0) }
        } else {
            // lengths[i][j]: LCS length of a[aMiddle.lowerBound + i...] and b[bMiddle.lowerBound + j...].
            let n = aMiddle.count
            let m = bMiddle.count
            var lengths = [Int](repeating: 0, count: (n + 1) * (m + 1))
            for i in stride(from: n - 1, through: 0, by: -1) {
                for j in stride(from: m - 1, through: 0, by: -1) {
                    lengths[i * (m + 1) + j] =
                        a[head + i] == b[head + j]
                        ? lengths[(i + 1) * (m + 1) + j + 1] + 1
                        : max(lengths[(i + 1) * (m + 1) + j], lengths[i * (m + 1) + j + 1])
                }
            }
            var i = 0
            var j = 0
            while i < n || j < m {
                if i < n, j < m, a[head + i] == b[head + j] {
                    edits.append(.same(head + i, head + j)); i += 1; j += 1
                } else if i < n, j == m || lengths[(i + 1) * (m + 1) + j] >= lengths[i * (m + 1) + j + 1] {
                    edits.append(.removed(head + i)); i += 1
                } else {
                    edits.append(.added(head + j)); j += 1
                }
            }
        }
        for k in 0..<tail { edits.append(.same(a.count - tail + k, b.count - tail + k)) }
        return edits
    }
}
