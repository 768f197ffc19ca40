import DataConnectTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Random requests against one `dataconnect emulator` process serving `Backend/movies` with its seed data: admin
/// GraphQL documents built from the schema's real fields (and damaged ones), connector calls with right and wrong
/// variables, and bodies that are not JSON (see ``FuzzRequestGenerator``).
///
/// Every answer must arrive (no crash; the per-request limit is only a hang guard), be JSON, and be either a GraphQL
/// response with HTTP 200 or the error envelope `{"error": {"code", "message", "status"}}` whose `code` is the HTTP
/// status; never HTTP 500 or an `INTERNAL` error. A request that breaks a rule the emulator documents (a variable of
/// the wrong type, an unknown operation, invalid JSON) must be refused. Findings are collected and reported together
/// at the end, each with the seed and its case number.
///
/// `DATACONNECT_FUZZ_CASES` sets the number of cases (300 by default) and `DATACONNECT_FUZZ_SEED` the seed (1 by
/// default); `make fuzz` runs 5,000 cases from a random seed. Case `n` of seed `s` is built from `s` and `n` alone,
/// and `DATACONNECT_FUZZ_SEED=s DATACONNECT_FUZZ_CASES=n+1` replays the run up to it.
@Suite struct EmulatorFuzzTests {
    /// An answer that broke a rule.
    struct Finding {
        var number: Int
        var request: FuzzRequest
        var problem: String
        var status: Int
        var body: String
    }

    static let defaultCases = 300
    static let defaultSeed: UInt64 = 1
    /// How long one request may go unanswered before the fuzzer calls it a hang; never a latency threshold.
    static let requestHangGuard: Duration = .seconds(120)

    @Test func randomRequestsGetWellFormedAnswersAndNeverCrashTheEmulator() async throws {
        // given
        let environment = ProcessInfo.processInfo.environment
        let cases = environment["DATACONNECT_FUZZ_CASES"].flatMap { Int($0) } ?? Self.defaultCases
        let seed = environment["DATACONNECT_FUZZ_SEED"].flatMap { UInt64($0) } ?? Self.defaultSeed
        let generator = try FuzzRequestGenerator(backend: RepositoryPaths.movies)
        let emulator = try await EmulatorProcess([
            "--backend", RepositoryPaths.movies, "--no-watch", "--seed", RepositoryPaths.movies + "/seed_data.gql",
        ])
        print("EmulatorFuzzTests: seed \(seed), \(cases) cases (DATACONNECT_FUZZ_SEED, DATACONNECT_FUZZ_CASES)")
        var findings: [Finding] = []
        var outcomes: [String: [String: Int]] = [:]

        // when
        for number in 0..<cases {
            let request = generator.request(seed: seed, case: number)
            do {
                let answer = try await emulator.send(
                    "POST", request.endpoint.path, body: request.body, headers: request.headers,
                    timeout: Self.requestHangGuard)
                outcomes[request.kind, default: [:]][Self.outcome(of: answer), default: 0] += 1
                if let problem = Self.problem(with: answer, for: request) {
                    findings.append(
                        Finding(
                            number: number, request: request, problem: problem, status: answer.status,
                            body: String(decoding: answer.body.prefix(600), as: UTF8.self)))
                }
            } catch {
                findings.append(
                    Finding(number: number, request: request, problem: "no answer: \(error)", status: 0, body: ""))
            }
            guard emulator.child.isRunning else {
                findings.append(
                    Finding(
                        number: number, request: request,
                        problem:
                            "the emulator crashed (\(emulator.child.output.termination.map { "\($0)" } ?? "running"))",
                        status: 0,
                        body: String(emulator.errors.suffix(1_000))))
                break
            }
            if (number + 1) % 50 == 0 {
                let info = try? await emulator.send("GET", "/emulator/info", timeout: Self.requestHangGuard)
                #expect(info?.status == 200, "GET /emulator/info after case \(number) of seed \(seed): \(info as Any)")
            }
        }

        // then
        for (kind, counts) in outcomes.sorted(by: { $0.key < $1.key }) {
            let summary = counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            print("EmulatorFuzzTests: \(kind): \(summary)")
        }
        Self.report(findings, seed: seed, cases: cases)
        if emulator.child.isRunning {
            let info = try? await emulator.send("GET", "/emulator/info", timeout: Self.requestHangGuard)
            #expect(info?.status == 200, "GET /emulator/info after the last case of seed \(seed)")
            let exit = await emulator.stop()
            #expect(exit == 0, "SIGTERM: exit status \(exit as Any); stderr:\n\(emulator.errors.suffix(2_000))")
        }
    }

    /// What is wrong with `answer` to `request`, or `nil` when it is well formed.
    static func problem(with answer: (status: Int, body: Data), for request: FuzzRequest) -> String? {
        guard let object = (try? JSONSerialization.jsonObject(with: answer.body)) as? [String: Any] else {
            return "HTTP \(answer.status): the answer is not a JSON object"
        }
        if let error = object["error"] {
            guard let envelope = error as? [String: Any], let code = integer(envelope["code"]),
                let message = envelope["message"] as? String, let status = envelope["status"] as? String
            else {
                return "HTTP \(answer.status): a malformed error envelope"
            }
            if answer.status == 500 || status == "INTERNAL" {
                return "INTERNAL error envelope (HTTP \(answer.status)): \(message.prefix(200))"
            }
            if code != answer.status { return "HTTP \(answer.status) with an error envelope whose code is \(code)" }
            if answer.status < 400 { return "an error envelope with HTTP \(answer.status)" }
            return nil
        }
        guard object["data"] != nil || object["errors"] != nil else {
            return "HTTP \(answer.status): neither a GraphQL response nor an error envelope"
        }
        if answer.status != 200 { return "a GraphQL response with HTTP \(answer.status)" }
        let errors = object["errors"] as? [[String: Any]] ?? []
        for error in errors {
            let code = (error["extensions"] as? [String: Any])?["code"] as? String
            if code == "INTERNAL" {
                return "INTERNAL field error (HTTP 200): \((error["message"] as? String ?? "").prefix(200))"
            }
        }
        if let reason = request.mustRefuse, errors.isEmpty {
            return "accepted (HTTP 200, no errors) although it must be refused: \(reason)"
        }
        return nil
    }

    /// How an answer went, for the summary: `data` (HTTP 200 without errors), `errors` (HTTP 200 with errors),
    /// or the HTTP status of an error envelope.
    static func outcome(of answer: (status: Int, body: Data)) -> String {
        guard answer.status == 200 else { return "HTTP \(answer.status)" }
        let object = (try? JSONSerialization.jsonObject(with: answer.body)) as? [String: Any]
        return (object?["errors"] as? [Any])?.isEmpty == false ? "errors" : "data"
    }

    /// Records one issue per kind of finding, with its case numbers and up to three of its requests and answers.
    static func report(_ findings: [Finding], seed: UInt64, cases: Int) {
        var kinds: [String: [Finding]] = [:]
        var order: [String] = []
        for finding in findings {
            let kind = signature(finding.problem)
            if kinds[kind] == nil { order.append(kind) }
            kinds[kind, default: []].append(finding)
        }
        for kind in order {
            let group = kinds[kind] ?? []
            var text = "fuzz finding, seed \(seed): \(group[0].problem)\n"
            text += "\(group.count) of \(cases) cases: \(group.map { String($0.number) }.joined(separator: ", "))\n"
            for finding in group.prefix(3) {
                text += "- case \(finding.number) (\(finding.request.kind)): \(finding.request.excerpt())\n"
                text += "  answer: HTTP \(finding.status) \(finding.body)\n"
            }
            text += "replay: DATACONNECT_FUZZ_SEED=\(seed) DATACONNECT_FUZZ_CASES=\(group[0].number + 1)"
            text += " swift test --filter EmulatorFuzzTests"
            Issue.record(Comment(rawValue: text))
        }
    }

    /// A finding's problem with numbers and quoted text blanked, so that findings of one kind group together.
    static func signature(_ problem: String) -> String {
        var output = ""
        var quoted = false
        for character in problem {
            if character == "\"" {
                quoted.toggle()
                output.append(character)
            } else if quoted {
                continue
            } else if character.isNumber {
                if output.last != "#" { output.append("#") }
            } else {
                output.append(character)
            }
        }
        return String(output.prefix(120))
    }

    private static func integer(_ value: Any?) -> Int? {
        if let value = value as? Int { return value }
        return (value as? NSNumber)?.intValue
    }
}
