import Foundation

/// What `testsuite-bench` was asked to do, parsed from its arguments.
///
/// `testsuite-bench [--runs N] [--rounds N] [--backend DIR] [--command TEXT]`. The benchmark runs itself as a child
/// (`--child --spawned-at NS`) once per fresh-process run.
struct Options {
    /// Whether this process is the benchmark or one of its fresh-process runs.
    enum Role {
        /// Runs the children, then the rounds of operations, and prints the tables.
        case parent
        /// Starts the emulator, answers the first operation, prints its timings and exits; `spawnedAt` is the
        /// parent's monotonic clock just before it started this process.
        case child(spawnedAt: UInt64)
    }

    /// Fresh processes that each start the emulator and answer a first operation.
    var runs = 15
    /// Rounds of ``Workload/operationsPerRound`` operations, on one emulator.
    var rounds = 5
    /// The folder holding the shop's `dataconnect.yaml`; found above this file or the working directory if nil.
    var backend: String?
    /// The command line printed with the results.
    var command = "testsuite-bench"
    /// Benchmark or child.
    var role = Role.parent

    /// Parses `arguments` (without the program name).
    ///
    /// - Throws: ``BenchFailure`` naming the argument it cannot read.
    init(arguments: [String]) throws(BenchFailure) {
        var iterator = arguments.makeIterator()
        func value(of name: String) throws(BenchFailure) -> String {
            guard let value = iterator.next() else { throw BenchFailure("\(name) needs a value") }
            return value
        }
        func count(of name: String) throws(BenchFailure) -> Int {
            guard let count = Int(try value(of: name)), count > 0 else {
                throw BenchFailure("\(name) needs a positive number")
            }
            return count
        }
        var spawnedAt: UInt64?
        var isChild = false
        while let argument = iterator.next() {
            switch argument {
            case "--runs": runs = try count(of: argument)
            case "--rounds": rounds = try count(of: argument)
            case "--backend": backend = try value(of: argument)
            case "--command": command = try value(of: argument)
            case "--child": isChild = true
            case "--spawned-at": spawnedAt = UInt64(try value(of: argument))
            default: throw BenchFailure("unknown argument: \(argument)")
            }
        }
        if isChild { role = .child(spawnedAt: spawnedAt ?? 0) }
    }
}

/// Why the benchmark stopped: a bad argument, an emulator that did not start, or a wrong answer.
struct BenchFailure: Error, CustomStringConvertible {
    /// What went wrong.
    var description: String

    /// A failure saying `description`.
    init(_ description: String) {
        self.description = description
    }
}

/// Finds the shop backend (`Benchmarks/testsuite/backend`) above this source file or the working directory.
func findBackend() -> String? {
    let starts = [
        URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent(),
        URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
    ]
    for start in starts {
        var directory = start
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("Benchmarks/testsuite/backend")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("dataconnect.yaml").path) {
                return candidate.path
            }
            directory.deleteLastPathComponent()
        }
    }
    return nil
}

/// The system's monotonic clock in nanoseconds: the same clock in every process, so a child can measure the time
/// since its parent started it.
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// The CPU time this process has used, all threads, in nanoseconds: beside a wall time, it tells a busy machine's
/// waiting from work.
func processCPUNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}
