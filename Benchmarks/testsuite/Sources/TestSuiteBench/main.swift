import DataConnectTesting
import Foundation
import Synchronization

// `testsuite-bench`: what a user's full-stack test suite pays through the generated Swift SDK against an
// in-process emulator on a 20-table schema (Benchmarks/testsuite/backend).
//
// (a) + (b): in `--runs` fresh processes (this program run as a child), the emulator's start and the first
// answer. (c): `--rounds` rounds of 1,000 operations (125 tests of 8) on one emulator. Prints Markdown tables
// with the machine line and the targets' verdicts; exits with 1 when an answer is wrong.

let enteredMain = monotonicNanoseconds()

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("testsuite-bench: \(message)\n".utf8))
    exit(1)
}

let options: Options
do {
    options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    fail("\(error)\nusage: testsuite-bench [--runs 15] [--rounds 5] [--backend DIR] [--command TEXT]")
}
guard let backend = options.backend ?? findBackend() else {
    fail("cannot find Benchmarks/testsuite/backend above this file or the working directory; pass --backend DIR")
}

switch options.role {
case .child(let spawnedAt):
    do {
        let run = try await FreshStart.measure(backend: backend, enteredMain: enteredMain, spawnedAt: spawnedAt)
        FileHandle.standardOutput.write(Data((run.line + "\n").utf8))
    } catch {
        fail("\(error)")
    }
case .parent:
    var machine = Machine(backend: backend)
    let executable =
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        ?? CommandLine.arguments[0]
    do {
        var freshStarts: [FreshStart] = []
        for _ in 1...options.runs {
            freshStarts.append(try FreshStart.spawn(executable: executable, backend: backend))
        }
        FileHandle.standardError.write(Data("\(options.runs) fresh processes done\n".utf8))

        let messages = Mutex<[String]>([])
        let emulator = try TestEmulator.inProcess(
            backend: backend, seedFile: backend + "/seed_data.gql",
            log: { line in messages.withLock { $0.append(line) } })
        if let database = messages.withLock({ $0.first { $0.hasPrefix("database: SQLite ") } }) {
            machine.sqlite =
                database.dropFirst("database: SQLite ".count).split(separator: " ").first.map(String.init)
                ?? "?"
        }
        let workload = Workload()
        _ = try await emulator.attach { try await workload.firstOperation(sku: "FIRST") }
        var roundTimes: [UInt64] = []
        var roundCPUTimes: [UInt64] = []
        var operationTimes: [UInt64] = []
        var byOperation: [Workload.Operation: [UInt64]] = [:]
        for round in 1...options.rounds {
            var times: [Workload.Operation: [UInt64]] = [:]
            let cpuBefore = processCPUNanoseconds()
            roundTimes.append(try await workload.round(round, on: emulator, times: &times))
            roundCPUTimes.append(processCPUNanoseconds() - cpuBefore)
            operationTimes.append(times.values.joined().reduce(0, +))
            byOperation.merge(times) { $0 + $1 }
            FileHandle.standardError.write(
                Data("round \(round) of \(options.rounds): \(formatted(Double(roundTimes.last ?? 0) / 1e6)) ms\n".utf8))
        }

        let beforeNext = monotonicNanoseconds()
        let next = try TestEmulator.inProcess(backend: backend, seedFile: backend + "/seed_data.gql")
        let nextStarted = monotonicNanoseconds()
        _ = try await next.attach { try await workload.firstOperation(sku: "FIRST") }
        let nextAnswered = monotonicNanoseconds()

        let report = Report(
            machine: machine, command: options.command, freshStarts: freshStarts,
            nextSuiteStart: nextStarted - beforeNext, nextSuiteFirst: nextAnswered - nextStarted,
            roundTimes: roundTimes, roundCPUTimes: roundCPUTimes, operationTimes: operationTimes,
            byOperation: byOperation)
        print(report.markdown)
    } catch {
        fail("\(error)")
    }
}
