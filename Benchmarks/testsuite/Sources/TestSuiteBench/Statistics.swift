import Foundation

/// The median, 90th percentile, minimum and maximum of a set of samples.
struct Summary {
    /// The middle sample (the upper one of an even count).
    var median: Double
    /// The sample at 90% of the sorted samples.
    var p90: Double
    /// The smallest sample.
    var min: Double
    /// The largest sample.
    var max: Double

    /// Summarises `samples`, which must not be empty.
    init(_ samples: [Double]) {
        precondition(!samples.isEmpty, "no samples to summarise")
        let sorted = samples.sorted()
        func at(_ fraction: Double) -> Double {
            sorted[Swift.min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.down)))]
        }
        median = at(0.5)
        p90 = at(0.9)
        min = sorted[0]
        max = sorted[sorted.count - 1]
    }

    /// Summarises nanosecond samples in milliseconds.
    static func milliseconds(_ nanoseconds: [UInt64]) -> Summary {
        Summary(nanoseconds.map { Double($0) / 1e6 })
    }

    /// Summarises nanosecond samples in microseconds.
    static func microseconds(_ nanoseconds: [UInt64]) -> Summary {
        Summary(nanoseconds.map { Double($0) / 1e3 })
    }
}

/// `value` with `digits` decimals and thousands separators, as the other benchmarks print figures.
func formatted(_ value: Double, digits: Int = 1) -> String {
    let parts = String(format: "%.\(digits)f", abs(value)).split(separator: ".", maxSplits: 1)
    let integer = Array(parts[0])
    var grouped = value < 0 && value.rounded() != 0 ? "-" : ""
    for (index, digit) in integer.enumerated() {
        if index > 0 && (integer.count - index) % 3 == 0 { grouped.append(",") }
        grouped.append(digit)
    }
    return grouped + (parts.count > 1 ? "." + parts[1] : "")
}
