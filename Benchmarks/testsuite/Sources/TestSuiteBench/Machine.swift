import Foundation

/// The machine line every benchmark prints: cores, CPU, memory, system, toolchain, SQLite, load, commit.
struct Machine {
    /// Logical cores.
    var cores = ProcessInfo.processInfo.activeProcessorCount
    /// The CPU's model name from `/proc/cpuinfo`.
    var cpu = Machine.firstLine(of: "/proc/cpuinfo", startingWith: "model name").map(Machine.afterColon) ?? "?"
    /// Memory in GiB.
    var memoryGiB = Int((Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824).rounded())
    /// `/etc/debian_version`.
    var debian = Machine.contents(of: "/etc/debian_version") ?? "?"
    /// The first line of `swift --version`.
    var swift =
        Machine.output(of: ["swift", "--version"]).flatMap { $0.split(separator: "\n").first }.map(String.init)
        ?? "?"
    /// The load average over 1, 5 and 15 minutes when the benchmark began.
    var loadAverage = (Machine.contents(of: "/proc/loadavg") ?? "?").split(separator: " ").prefix(3)
        .joined(separator: " ")
    /// The short commit of the checkout the backend is in, with `+ local changes` when it has some.
    var commit: String
    /// The SQLite version the emulator reported (`database: SQLite 3.40.1 (memory)`), once known.
    var sqlite = "?"

    /// Describes this machine and the checkout holding `backend`.
    init(backend: String) {
        let head = Machine.output(of: ["git", "-C", backend, "rev-parse", "--short", "HEAD"]) ?? "?"
        let changes = Machine.output(of: ["git", "-C", backend, "status", "--porcelain"]) ?? ""
        commit = head + (changes.isEmpty ? "" : " + local changes")
    }

    /// The line printed above the tables.
    var line: String {
        "Machine: \(cores) cores (\(cpu)), \(memoryGiB) GiB, Debian \(debian), \(swift), SQLite \(sqlite); "
            + "load average at start \(loadAverage)."
    }

    private static func contents(of path: String) -> String? {
        (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func firstLine(of path: String, startingWith prefix: String) -> String? {
        contents(of: path)?.split(separator: "\n").first { $0.hasPrefix(prefix) }.map(String.init)
    }

    private static func afterColon(_ line: String) -> String {
        line.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? line
    }

    /// What `arguments` (found on `PATH`) prints, trimmed, or nil when it cannot run or fails.
    private static func output(of arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
