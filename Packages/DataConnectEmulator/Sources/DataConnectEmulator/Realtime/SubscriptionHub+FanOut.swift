import DataConnectEngine
import DataConnectWire
import Dispatch
import Foundation
import Synchronization

/// Running the groups' queries the reducer asks for, and writing each result to the subscribers it names.
extension SubscriptionHub {
    // MARK: Fan-out

    /// The fan-out queue's loop: asks the reducer for a batch of runs and does them, until it gets none.
    func drain() {
        while true {
            let (effects, engine) = reduce { _ in .fanOutReady }
            guard effects.contains(where: { if case .run = $0 { true } else { false } }) else { return }
            perform(effects, engine: engine)
        }
    }

    /// Runs a batch: each group's query once, the groups in parallel.
    func execute(_ runs: [HubRun], on engine: Engine) {
        if runs.count == 1 {
            run(runs[0], on: engine)
        } else if !runs.isEmpty {
            DispatchQueue.concurrentPerform(iterations: runs.count) { index in
                run(runs[index], on: engine)
            }
        }
    }

    /// Runs a group's query and reports the outcome; the result goes to the subscribers the reducer names.
    func run(_ run: HubRun, on engine: Engine) {
        let response = engine.execute(
            EngineRequest(
                kind: .connector(connector: run.connector, operationName: run.operationName, mutation: false),
                variables: run.variables, auth: run.auth))
        executions.add(1, ordering: .relaxed)
        guard response.status == .ok, response.body.count >= 2 else {
            handle(.runFailed(key: run.key, Self.refusal(response)))
            return
        }
        let event = State.Event.resultReady(
            key: run.key, etag: Self.etag(response.body), isRefresh: run.isRefresh, time: Date())
        let (effects, engine) = reduce { _ in event }
        perform(effects, engine: engine, result: response.body)
    }

    /// Sends a group's new result to the subscribers that need it, and the unchanged etag to those of a refresh run
    /// or a resume that found nothing new.
    func send(_ delivery: HubDelivery<Recipient>, result: [UInt8]) {
        if !delivery.full.isEmpty {
            let shared = HubResult(body: result, etag: delivery.etag)
            // The result is copied once per subscriber, by its transport, not joined to its prefix first.
            Self.forEach(delivery.full) { recipient in
                recipient.sink.send(shared, prefix: recipient.prefix)
            }
        }
        if !delivery.unchanged.isEmpty {
            let shared = HubResult(body: nil, etag: delivery.etag)
            for recipient in delivery.unchanged {
                recipient.sink.send(shared, prefix: recipient.prefix)
            }
        }
    }

    /// Calls `body` for every subscriber; spread over the cores for a large group, whose sends (a copy of the
    /// result and a socket write each) would otherwise all wait on one thread. Each subscriber gets one call.
    static func forEach(_ subscribers: [Recipient], _ body: @Sendable (Recipient) -> Void) {
        let slices = min(ProcessInfo.processInfo.activeProcessorCount, subscribers.count / 1_000)
        guard slices > 1 else {
            subscribers.forEach(body)
            return
        }
        DispatchQueue.concurrentPerform(iterations: slices) { slice in
            for index in stride(from: slice, to: subscribers.count, by: slices) { body(subscribers[index]) }
        }
    }

    /// `{"requestId":"<id>",`
    static func responsePrefix(_ requestID: String) -> [UInt8] {
        var prefix = Array(#"{"requestId":"#.utf8)
        prefix += JSONValue.string(requestID).serialized()
        prefix.append(UInt8(ascii: ","))
        return prefix
    }

    /// A fast 64-bit hash of the result bytes, as 16 hex digits: FNV-1a's step over 8-byte words, each followed
    /// by a shift-xor, then over the last bytes one by one, seeded with the length. It tells results apart; it is
    /// no defence against a chosen collision.
    static func etag(_ bytes: [UInt8]) -> String {
        let prime: UInt64 = 0x0000_0100_0000_01b3
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset + 8 <= buffer.count {
                hash ^= buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                hash &*= prime
                hash ^= hash >> 29
                offset += 8
            }
            while offset < buffer.count {
                hash ^= UInt64(buffer[offset])
                hash &*= prime
                offset += 1
            }
        }
        let text = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
