import DataConnectTestSupport
import Foundation
import Synchronization
import Testing

/// Hostile HTTP/2 against one `dataconnect emulator` process, each attack on its own connection while a probe
/// connection asks `GET /emulator/info` over HTTP/1.1 again and again: every attack must end in an answer the
/// attacker can see (a GOAWAY, a reset stream, a gRPC status, or the connection closed), the emulator must keep
/// serving the probe throughout and afterwards, and a gRPC call on a fresh connection must still be served.
///
/// The probe's latency during each attack is printed (median and worst), as `make fuzz` reports it; it is a
/// measurement, not a condition: only the hang guards decide an outcome. The frames are written here by hand
/// because an attacker's are not what a real HTTP/2 library would send.
@Suite(.serialized) struct HTTP2AttackTests {
    /// What one attack saw, and the probe meanwhile.
    struct Report {
        var attack: String
        var outcome: String
        var probes: [Duration]
    }

    @Test func hostileHTTP2GetsAnAnswerAndNeverStopsTheEmulatorServing() async throws {
        // given
        let emulator = try await EmulatorProcess([
            "--backend", RepositoryPaths.movies, "--no-watch", "--seed", RepositoryPaths.movies + "/seed_data.gql",
        ])
        let port = try #require(Int(emulator.url.split(separator: ":").last ?? ""))
        var reports: [Report] = []

        // when each attack runs while the probe measures
        for attack in HTTP2Attack.all {
            let probe = Probe(port: port)
            probe.start()
            let outcome = attack.run(port)
            let probes = probe.finish()
            reports.append(Report(attack: attack.name, outcome: outcome.description, probes: probes.latencies))

            // then the attacker saw an answer, and the probe was always answered
            #expect(outcome.isAnswer, "\(attack.name): \(outcome)")
            #expect(probes.failures.isEmpty, "\(attack.name): the probe failed: \(probes.failures)")
        }

        // then the emulator still serves both wires
        let info = try RawHTTP.exchange(port: port, "GET /emulator/info HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(info.status == 200)
        let call = HTTP2Attack.unaryCall(port: port)
        #expect(call == .data(HTTP2Attack.serving), "a fresh gRPC call after the attacks: \(call)")
        print(Self.table(reports))
        #expect(await emulator.stop() == 0)
    }

    /// The printed table: one row per attack, the probe's median and worst latency in milliseconds.
    static func table(_ reports: [Report]) -> String {
        var lines = ["HTTP2AttackTests: probe latency (GET /emulator/info over HTTP/1.1) during each attack"]
        lines.append("attack | outcome | probes | median ms | worst ms")
        for report in reports {
            let sorted = report.probes.sorted()
            let median = sorted.isEmpty ? "-" : milliseconds(sorted[sorted.count / 2])
            let worst = sorted.last.map(milliseconds) ?? "-"
            lines.append("\(report.attack) | \(report.outcome) | \(sorted.count) | \(median) | \(worst)")
        }
        return lines.joined(separator: "\n")
    }

    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return String(format: "%.2f", Double(seconds) * 1_000 + Double(attoseconds) / 1e15)
    }
}

/// A connection asking `GET /emulator/info` in a loop on its own thread until told to stop.
final class Probe: Sendable {
    struct Results: Sendable {
        var latencies: [Duration] = []
        var failures: [String] = []
    }

    let port: Int
    private let state = Mutex((results: Results(), running: true))
    private let done = DispatchSemaphore(value: 0)

    init(port: Int) {
        self.port = port
    }

    func start() {
        Thread { [self] in
            while state.withLock({ $0.running }) {
                let started = ContinuousClock.now
                do {
                    let answer = try RawHTTP.exchange(
                        port: port, "GET /emulator/info HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    let elapsed = ContinuousClock.now - started
                    state.withLock {
                        if answer.status == 200 {
                            $0.results.latencies.append(elapsed)
                        } else {
                            $0.results.failures.append("status \(answer.status)")
                        }
                    }
                } catch {
                    state.withLock { $0.results.failures.append("\(error)") }
                }
                usleep(2_000)
            }
            done.signal()
        }.start()
    }

    /// Stops the loop (after at least one probe) and returns what it measured.
    func finish() -> Results {
        // At least one probe ran during the attack or right after it: wait for it (a hang guard, not a timing).
        let deadline = ContinuousClock.now + HangGuard.event
        while state.withLock({ $0.results.latencies.isEmpty && $0.results.failures.isEmpty })
            && ContinuousClock.now < deadline
        {
            usleep(1_000)
        }
        state.withLock { $0.running = false }
        _ = done.wait(timeout: .now() + HangGuard.seconds(HangGuard.event))
        return state.withLock { $0.results }
    }
}
