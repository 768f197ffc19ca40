import Foundation

/// Everything one benchmark run measured, and its Markdown tables.
struct Report {
    /// Start plus first answer must stay under this, in milliseconds.
    static let startTargetMilliseconds = 50.0
    /// A round of 1,000 operations must stay under this, in milliseconds.
    static let roundTargetMilliseconds = 1_000.0

    /// The machine line.
    var machine: Machine
    /// The command that reproduces the run.
    var command: String
    /// The fresh-process runs.
    var freshStarts: [FreshStart]
    /// A second emulator started in the process that ran the rounds (the next suite's `setUp`), nanoseconds.
    var nextSuiteStart: UInt64
    /// Its first answer, nanoseconds.
    var nextSuiteFirst: UInt64
    /// Each round's wall time, tests' `attach` and sign-in included, nanoseconds.
    var roundTimes: [UInt64]
    /// The process's CPU time during each round, all threads, nanoseconds.
    var roundCPUTimes: [UInt64]
    /// Each round's sum of operation times, nanoseconds.
    var operationTimes: [UInt64]
    /// Every operation's time over all rounds, by operation.
    var byOperation: [Workload.Operation: [UInt64]]

    /// The tables, with the machine line and the verdicts.
    var markdown: String {
        let today = ISO8601DateFormatter.string(from: Date(), timeZone: .current, formatOptions: [.withFullDate])
        let cycles = Workload.cyclesPerRound
        let perTest = Workload.Operation.allCases.count
        var lines = [
            machine.line,
            "Date: \(today). Commit: \(machine.commit). Command: `\(command)` (release; "
                + "\(freshStarts.count) fresh processes, \(roundTimes.count) round\(roundTimes.count == 1 ? "" : "s") of "
                + "\(formatted(Double(Workload.operationsPerRound), digits: 0)) operations).",
            "",
            "Start and first answer, each in a fresh process (ms; \(freshStarts.count) runs; CPU: the process's, all "
                + "threads, during the phase):",
            "",
            "| phase | median | p90 | min | max | CPU median |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        let startAndFirst = freshStarts.map { $0.start + $0.first }
        let phases: [(String, [UInt64], [UInt64]?)] = [
            (
                "(a) start: `TestEmulator.inProcess` on the 20-table shop, seeded (in-memory SQLite)",
                freshStarts.map(\.start), freshStarts.map(\.startCPU)
            ),
            (
                "(b) first answer: `createProductMutation.execute` inside `emulator.attach`", freshStarts.map(\.first),
                freshStarts.map(\.firstCPU)
            ),
            ("**(a) + (b)**", startAndFirst, freshStarts.map { $0.startCPU + $0.firstCPU }),
            ("launch: from starting the process to `main` (not in the target)", freshStarts.map(\.launch), nil),
            ("the whole process, started to exited (not in the target)", freshStarts.map(\.total), nil),
        ]
        for (name, samples, cpu) in phases {
            let summary = Summary.milliseconds(samples)
            let cpuMedian = cpu.map { formatted(Summary.milliseconds($0).median) } ?? "–"
            lines.append(
                "| \(name) | \(formatted(summary.median)) | \(formatted(summary.p90)) | \(formatted(summary.min)) | "
                    + "\(formatted(summary.max)) | \(cpuMedian) |")
        }
        lines += [
            "",
            "In the process that ran the rounds, a second emulator (the next suite's `setUp`) started in "
                + "\(formatted(Double(nextSuiteStart) / 1e6)) ms and answered its first operation in "
                + "\(formatted(Double(nextSuiteFirst) / 1e6)) ms.",
            "",
            "\(formatted(Double(Workload.operationsPerRound), digits: 0)) operations: \(cycles) tests of \(perTest) "
                + "operations, each test in an `emulator.attach` of its own and signed in (`EmulatorAuth`), awaited "
                + "one after another, every answer checked; \(roundTimes.count) rounds on one emulator:",
            "",
            "| measure | median | min | max |",
            "|---|---:|---:|---:|",
        ]
        let rounds = Summary.milliseconds(roundTimes)
        let operations = Summary.milliseconds(operationTimes)
        let cpu = Summary.milliseconds(roundCPUTimes)
        let harness = Summary(zip(roundTimes, operationTimes).map { Double($0 - $1) / 1e3 / Double(cycles) })
        let perOperation = Summary(roundTimes.map { Double($0) / 1e3 / Double(Workload.operationsPerRound) })
        lines += [
            "| **1,000 operations, wall (ms)** | \(formatted(rounds.median)) | \(formatted(rounds.min)) | "
                + "\(formatted(rounds.max)) |",
            "| per operation, wall (µs) | \(formatted(perOperation.median)) | \(formatted(perOperation.min)) | "
                + "\(formatted(perOperation.max)) |",
            "| CPU of the process during a round, all threads (ms) | \(formatted(cpu.median)) | \(formatted(cpu.min)) | "
                + "\(formatted(cpu.max)) |",
            "| the operations alone, summed (ms) | \(formatted(operations.median)) | \(formatted(operations.min)) | "
                + "\(formatted(operations.max)) |",
            "| per test: `attach`, sign-in, checks (µs) | \(formatted(harness.median)) | \(formatted(harness.min)) | "
                + "\(formatted(harness.max)) |",
            "",
            "Each operation, over all rounds (µs):",
            "",
            "| operation | kind | median | p90 | min | max |",
            "|---|---|---:|---:|---:|---:|",
        ]
        for operation in Workload.Operation.allCases {
            let summary = Summary.microseconds(byOperation[operation] ?? [0])
            lines.append(
                "| `\(operation.call)` | \(operation.kind) | \(formatted(summary.median)) | \(formatted(summary.p90)) | "
                    + "\(formatted(summary.min)) | \(formatted(summary.max)) |")
        }
        let start = Summary(startAndFirst.map { Double($0) / 1e6 })
        lines += [
            "",
            "| target | measured (median) | verdict |",
            "|---|---:|---|",
            "| start + first answer < \(formatted(Self.startTargetMilliseconds, digits: 0)) ms | "
                + "\(formatted(start.median)) ms (p90 \(formatted(start.p90))) | "
                + "\(verdict(start.median < Self.startTargetMilliseconds)) |",
            "| 1,000 operations < 1 s | \(formatted(rounds.median)) ms (max \(formatted(rounds.max))) | "
                + "\(verdict(rounds.median < Self.roundTargetMilliseconds)) |",
        ]
        return lines.joined(separator: "\n")
    }

    private func verdict(_ met: Bool) -> String {
        met ? "met" : "**missed**"
    }
}
