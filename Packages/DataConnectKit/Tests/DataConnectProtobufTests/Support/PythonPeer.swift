import DataConnectTestSupport
import DataConnectWire
import Foundation
import ProcessSpawning

/// Google's Python protobuf as the other implementation: `protobuf_peer.py` in the repository's `.build/venv`,
/// answering a batch of cases in one process.
struct PythonPeer {
    /// One thing to ask Python.
    struct Case {
        /// `decode`, `encode` or `encode_unknown`.
        var op: String
        /// The fully-qualified message type, e.g. `google.firebase.dataconnect.v1.StreamRequest`.
        var type: String
        /// The bytes to decode.
        var bytes: [UInt8] = []
        /// The proto3 JSON to encode.
        var json: JSONValue = [:]

        static func decode(_ type: String, _ bytes: [UInt8]) -> Case {
            Case(op: "decode", type: type, bytes: bytes)
        }

        static func encode(_ type: String, _ json: JSONValue, unknownFields: Bool = false) -> Case {
            Case(op: unknownFields ? "encode_unknown" : "encode", type: type, json: json)
        }
    }

    /// What Python answered: the decoded JSON, the encoded bytes, or an error.
    enum Answer {
        case json(JSONValue)
        case bytes([UInt8])
        case error(String)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The repository root: the folder above `Packages/DataConnectKit`, found from this file's path.
    static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Packages/DataConnectKit").path) {
                return url
            }
        }
        return url
    }()

    static let packageFolder = repositoryRoot.appendingPathComponent("Packages/DataConnectKit")

    /// Runs every case in one Python process and returns the answers in order.
    ///
    /// - Throws: ``Failure`` when the virtual environment is missing ("run `make venv`") or Python fails.
    static func run(_ cases: [Case]) throws -> [Answer] {
        let python = repositoryRoot.appendingPathComponent(".build/venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw Failure(description: "\(python) is missing: run `make venv` (the cross-implementation tests need it)")
        }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("CrossImplementation/protobuf_peer.py").path
        let work = try TemporaryDirectory(prefix: "protobuf-peer")
        defer { work.remove() }
        var lines = ""
        for item in cases {
            var object: JSONObject = ["op": .string(item.op), "type": .string(item.type)]
            if item.op == "decode" {
                object["hex"] = .string(item.bytes.map { String(format: "%02x", $0) }.joined())
            } else {
                object["json"] = item.json
            }
            lines += JSONValue.object(object).jsonString() + "\n"
        }
        let input = work.url.appendingPathComponent("cases.jsonl")
        try lines.write(to: input, atomically: true, encoding: .utf8)
        let (termination, output, errors) = try SpawnedProcess.run(
            "/bin/sh",
            [
                "-c", #"exec "$0" "$1" "$2" "$3" < "$4""#, python, script,
                packageFolder.appendingPathComponent("Protos").path,
                work.path, input.path,
            ])
        guard termination == .exit(0) else {
            throw Failure(
                description: "protobuf_peer.py ended with \(termination): \(String(decoding: errors, as: UTF8.self))")
        }
        let answers = try String(decoding: output, as: UTF8.self).split(separator: "\n").map { line in
            let value = try JSONValue(parsing: String(line))
            if let json = value["json"] { return Answer.json(json) }
            if let hex = value["hex"]?.stringValue { return Answer.bytes(decodeHex(hex)) }
            return Answer.error(value["error"]?.stringValue ?? "no answer")
        }
        guard answers.count == cases.count else {
            throw Failure(description: "\(answers.count) answers to \(cases.count) cases")
        }
        return answers
    }

    static func decodeHex(_ hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return bytes
    }
}

/// A small seeded generator (SplitMix64), so that the random cases are the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random `Struct` contents: nested objects and lists, Unicode strings, big, small and negative doubles.
enum RandomStructs {
    static let strings = [
        "", "a", "Alien", "日本語のタイトル", "emoji 🎬🍿", "quote \" and backslash \\", "line\nbreak\ttab",
        "control \u{01}\u{1F}", "Ünïcödé", "𝄞 music", "\u{FEFF}bom", String(repeating: "long ", count: 40),
    ]

    static let numbers: [Double] = [
        0, 1, -1, 42, 1979, -273.15, 0.1, 1e300, -1e300, 1e-300, .leastNonzeroMagnitude, 9_007_199_254_740_992,
        9_007_199_254_740_994, -9_007_199_254_740_992, 1.7976931348623157e308, 123_456.789, 2.5e-7,
    ]

    static func object(_ generator: inout SeededGenerator, depth: Int = 0) -> JSONObject {
        var object = JSONObject()
        for index in 0..<Int.random(in: 0...5, using: &generator) {
            let key = strings.randomElement(using: &generator)! + "\(index)"
            object[key] = value(&generator, depth: depth + 1)
        }
        return object
    }

    static func value(_ generator: inout SeededGenerator, depth: Int) -> JSONValue {
        let kinds = depth >= 4 ? 4 : 6
        switch Int.random(in: 0..<kinds, using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2:
            if Bool.random(using: &generator) { return JSONValue(numbers.randomElement(using: &generator)!) }
            return JSONValue(Double.random(in: -1e6...1e6, using: &generator))
        case 3: return .string(strings.randomElement(using: &generator)!)
        case 4: return .object(object(&generator, depth: depth))
        default:
            return .array(
                (0..<Int.random(in: 0...4, using: &generator)).map { _ in value(&generator, depth: depth + 1) })
        }
    }
}
