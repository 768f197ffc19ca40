import Foundation

/// One measured figure, printed as a row of the benchmark table.
struct BenchmarkResult: Sendable {
    /// What was measured, e.g. `parse kitchen-sink.graphql`.
    var name: String
    /// The headline figure, e.g. `42.1`.
    var value: Double
    /// Its unit, e.g. `MB/s` or `ms`.
    var unit: String
    /// Anything worth printing beside it (a baseline, a ratio).
    var detail: String = ""
}

/// Runs `body` repeatedly and returns the median time of one run, in seconds.
///
/// Runs `warmup` untimed iterations first, then `iterations` timed ones.
func medianSeconds(warmup: Int = 3, iterations: Int = 15, _ body: () throws -> Void) rethrows -> Double {
    for _ in 0..<warmup { try body() }
    let clock = ContinuousClock()
    var samples: [Double] = []
    samples.reserveCapacity(iterations)
    for _ in 0..<iterations {
        let elapsed = try clock.measure { try body() }
        samples.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
    samples.sort()
    return samples[samples.count / 2]
}

/// Keeps the optimizer from discarding a computed value.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
