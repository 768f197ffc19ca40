extension PackageGraph {
    /// The package graph and every non-test target's direct dependencies, as docs/architecture.md shows them:
    /// a Mermaid flowchart of the packages, then one line per target. Deterministic: same manifests, same text.
    func document() -> String {
        var lines = ["```mermaid", "flowchart LR"]
        for package in packageEdges.keys.sorted() {
            for dependency in packageEdges[package, default: []].sorted() {
                lines.append("    \(package) --> \(dependency)")
            }
        }
        lines.append("```")
        lines.append("")
        lines.append("| package | target | kind | depends on |")
        lines.append("|---|---|---|---|")
        for id in targets where !["test", "plugin"].contains(kinds[id]) {
            let direct = edges[id] ?? []
            let dependencies =
                direct.filter { $0.package == id.package }.map(\.target).sorted()
                + direct.filter { $0.package != id.package }.map(\.description).sorted()
            let listed = dependencies.isEmpty ? "-" : dependencies.joined(separator: ", ")
            lines.append("| \(id.package) | `\(id.target)` | \(kinds[id] ?? "?") | \(listed) |")
        }
        return lines.joined(separator: "\n")
    }
}
