/// A JSON value written exactly as the fuzzer means it: numbers keep their text (`1e999`, `-0`,
/// `123456789012345678901234567890`), object members keep their order and may repeat, and ``raw(_:)`` inserts
/// text verbatim (a lone `\ud800` escape, `NaN`, garbage).
///
/// ```swift
/// let body: FuzzJSON = .object([("operationName", .string("listMovies")), ("variables", .object([]))])
/// body.text   // {"operationName":"listMovies","variables":{}}
/// ```
indirect enum FuzzJSON {
    case null
    case bool(Bool)
    /// A number, written as this text.
    case number(String)
    case string(String)
    case array([FuzzJSON])
    case object([(String, FuzzJSON)])
    /// Text inserted as it is, valid JSON or not.
    case raw(String)

    /// An integer.
    static func int(_ value: Int) -> FuzzJSON { .number(String(value)) }

    /// The JSON text.
    var text: String {
        var output = ""
        write(to: &output)
        return output
    }

    /// The JSON text as UTF-8.
    var bytes: [UInt8] { Array(text.utf8) }

    private func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .number(let text), .raw(let text): output += text
        case .string(let value): Self.quote(value, to: &output)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                element.write(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, (name, value)) in members.enumerated() {
                if index > 0 { output += "," }
                Self.quote(name, to: &output)
                output += ":"
                value.write(to: &output)
            }
            output += "}"
        }
    }

    private static func quote(_ value: String, to output: inout String) {
        output += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}

/// The fuzzer's source of choices: a ``SplitMix64`` seeded from the run's seed and the case number, so any case
/// can be generated again on its own.
struct FuzzRandom: RandomNumberGenerator {
    private var generator: SplitMix64

    /// The generator of case `number` in the run seeded with `seed`.
    init(seed: UInt64, case number: Int) {
        generator = SplitMix64(seed: SplitMix64.seed("\(seed)/\(number)"))
    }

    mutating func next() -> UInt64 {
        generator.next()
    }

    /// An integer in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &generator)
    }

    /// `true` with probability `probability`.
    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &generator) < probability
    }

    /// One element of a non-empty array.
    mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[int(0...(elements.count - 1))]
    }

    /// One element of an array, or `nil` when it is empty.
    mutating func element<Element>(of elements: [Element]) -> Element? {
        elements.isEmpty ? nil : pick(elements)
    }

    /// A byte.
    mutating func byte() -> UInt8 {
        UInt8(truncatingIfNeeded: generator.next())
    }

    /// A random UUID, dashed or not.
    mutating func uuid() -> String {
        let hex = (0..<32).map { _ in String(int(0...15), radix: 16) }.joined()
        guard chance(0.5) else { return hex }
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }

    /// Damages text with ``TextMutator``.
    mutating func mutate(_ text: String) -> String {
        TextMutator.mutate(text, using: &generator)
    }
}
