import DataConnectTesting
import Foundation

/// What a test's `setUp` and first operation cost in a fresh process: one run of the benchmark as a child.
///
/// The child takes its monotonic clock on entering `main`, starts the in-process emulator on the shop (compiling
/// the 20-table schema and connector, creating the in-memory SQLite database, running the seed), answers one
/// insert through the generated SDK inside `attach`, prints the three times on one line and exits. The parent
/// notes its clock just before starting the child, for the launch time, and when the child has exited.
struct FreshStart {
    /// From the parent starting the process to the child's `main` (loading the binary and its libraries).
    var launch: UInt64
    /// (a) `TestEmulator.inProcess(backend:seedFile:)`.
    var start: UInt64
    /// (b) The first operation, `createProductMutation.execute` inside `emulator.attach`.
    var first: UInt64
    /// The process's CPU time during (a), all threads.
    var startCPU: UInt64
    /// The process's CPU time during (b), all threads.
    var firstCPU: UInt64
    /// From the parent starting the process to its exit, the emulator's release included; 0 until the parent
    /// has seen the exit.
    var total: UInt64 = 0

    /// The line the child prints and the parent reads.
    var line: String {
        "launch=\(launch) start=\(start) first=\(first) start-cpu=\(startCPU) first-cpu=\(firstCPU)"
    }

    /// The timings of a child's `line`, or nil when the line is not one.
    init?(line: String) {
        var fields: [String: UInt64] = [:]
        for field in line.split(whereSeparator: \.isWhitespace) {
            let parts = field.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = UInt64(parts[1]) { fields[String(parts[0])] = value }
        }
        guard let launch = fields["launch"], let start = fields["start"], let first = fields["first"],
            let startCPU = fields["start-cpu"], let firstCPU = fields["first-cpu"]
        else { return nil }
        self.init(launch: launch, start: start, first: first, startCPU: startCPU, firstCPU: firstCPU)
    }

    init(launch: UInt64, start: UInt64, first: UInt64, startCPU: UInt64, firstCPU: UInt64) {
        self.launch = launch
        self.start = start
        self.first = first
        self.startCPU = startCPU
        self.firstCPU = firstCPU
    }

    /// The child's part: start, first operation, timings.
    ///
    /// - Parameters:
    ///   - backend: The shop backend's folder.
    ///   - enteredMain: The monotonic clock when `main` began.
    ///   - spawnedAt: The parent's monotonic clock just before it started this process.
    /// - Throws: ``BenchFailure`` or the emulator's error when the emulator does not start or answers wrongly.
    @MainActor
    static func measure(backend: String, enteredMain: UInt64, spawnedAt: UInt64) async throws -> FreshStart {
        let workload = Workload()
        let (beforeStart, cpuBeforeStart) = (monotonicNanoseconds(), processCPUNanoseconds())
        let emulator = try TestEmulator.inProcess(backend: backend, seedFile: backend + "/seed_data.gql")
        let (started, cpuStarted) = (monotonicNanoseconds(), processCPUNanoseconds())
        _ = try await emulator.attach { try await workload.firstOperation(sku: "FIRST") }
        let (answered, cpuAnswered) = (monotonicNanoseconds(), processCPUNanoseconds())
        // For profiles (profile.py): the phases' bounds on the monotonic clock, to tell their samples apart.
        if ProcessInfo.processInfo.environment["TESTSUITE_BENCH_PHASES"] != nil {
            FileHandle.standardError.write(Data("phases \(beforeStart) \(started) \(answered)\n".utf8))
        }
        return FreshStart(
            launch: spawnedAt > 0 ? enteredMain - spawnedAt : 0, start: started - beforeStart,
            first: answered - started, startCPU: cpuStarted - cpuBeforeStart, firstCPU: cpuAnswered - cpuStarted)
    }

    /// The parent's part: runs `executable` as a child and reads its timings.
    ///
    /// - Throws: ``BenchFailure`` when the child fails or prints no timings.
    static func spawn(executable: String, backend: String) throws -> FreshStart {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let spawnedAt = monotonicNanoseconds()
        process.arguments = ["--child", "--spawned-at", String(spawnedAt), "--backend", backend]
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let complaints = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let exited = monotonicNanoseconds()
        guard process.terminationStatus == 0, var run = FreshStart(line: printed) else {
            throw BenchFailure(
                "a fresh-process run failed (status \(process.terminationStatus)): \(printed) \(complaints)")
        }
        run.total = exited - spawnedAt
        return run
    }
}
