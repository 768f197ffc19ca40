// The client process's measurement of the `--subscribers` mode, the same for every transport: open the connections,
// wait for every first event, then time the rounds from the mutation's HTTP response to each connection's event.

import DataConnectWire
import Foundation

/// How far one subscriber connection is: its subscriptions, the events it has counted and when the last one came.
struct SubscriberTally {
    var subscriptions: Int
    var events: Int
    var lastEvent: ContinuousClock.Instant
}

/// The subscriber connections of the client process, whatever their transport, read from one thread.
protocol SubscriberSet {
    /// How many connections are open.
    var connectionCount: Int { get }
    /// Bytes read from every subscriber socket so far.
    var bytesReceived: Int { get }
    /// Connection `index`'s progress.
    func tally(_ index: Int) -> SubscriberTally
    /// Connections where some subscription has not had its first event.
    func connectionsWithoutFirstEvent() -> Int
    /// Table rows this transport adds (checks of what the client received).
    func extraRows() -> [String]
    /// Opens one connection subscribing to `searchMovies` once per variable set.
    mutating func open(port: UInt16, subscriptions variables: [JSONObject])
    /// Reads what arrives until every connection has `target` events (when given) or the deadline passes.
    mutating func pump(until deadline: ContinuousClock.Instant, reaching target: [Int]?)
    /// Finishes the checks of what was read, for a transport that defers them.
    func settle()
    /// Closes every connection.
    func closeAll()
}

extension SubscriberSet {
    /// Each connection's event count once every subscription has had one more event.
    func nextEvents() -> [Int] {
        (0..<connectionCount).map {
            let tally = tally($0); return tally.events + tally.subscriptions
        }
    }

    /// Subscriptions with at least one event (counted per connection, up to its subscriptions).
    func subscriptionsWithEvents() -> Int {
        (0..<connectionCount).reduce(0) {
            let tally = tally($1); return $0 + min(tally.events, tally.subscriptions)
        }
    }
}

/// Opens the subscribers, reports the opening to the server, waits for `go`, runs the rounds and reports their rows.
func measureSubscribers<Client: SubscriberSet>(
    _ client: inout Client, port: UInt16, _ settings: SubscriberGroupsSettings, input: LineReader
) -> Never {
    let openStart = ContinuousClock.now
    let openCPUBefore = cpuMilliseconds()
    var opened = 0
    var connections = 0
    while opened < settings.subscribers {
        let count = min(settings.perConnection, settings.subscribers - opened)
        client.open(port: port, subscriptions: (opened..<(opened + count)).map { groupVariables($0 % settings.groups) })
        opened += count
        connections += 1
        // Let the server keep up: read what arrived every 500 connections.
        if connections % 500 == 0 { client.pump(until: .now + .milliseconds(1), reaching: nil) }
    }
    let writtenAt = ContinuousClock.now - openStart
    // The first events, with the times half and 90 % of the subscriptions had theirs.
    let firstTarget = (0..<client.connectionCount).map { client.tally($0).subscriptions }
    let openDeadline = ContinuousClock.now + .seconds(120)
    var milestones: [Double] = []
    for share in [0.5, 0.9, 1.0] {
        let wanted = Int((Double(settings.subscribers) * share).rounded(.up))
        while client.subscriptionsWithEvents() < wanted && ContinuousClock.now < openDeadline {
            client.pump(until: min(openDeadline, .now + .milliseconds(5)), reaching: firstTarget)
        }
        milestones.append((ContinuousClock.now - openStart).milliseconds)
    }
    let openTime = ContinuousClock.now - openStart
    client.settle()
    say(
        "open \(client.connectionCount) \(client.connectionsWithoutFirstEvent()) "
            + "\(String(format: "%.0f", openTime.milliseconds)) \(String(format: "%.0f", writtenAt.milliseconds)) "
            + milestones.map { String(format: "%.0f", $0) }.joined(separator: " ") + " "
            + String(format: "%.0f", cpuMilliseconds() - openCPUBefore))
    guard input.next() == "go" else { exit(1) }

    var latencies: [Double] = []
    var lastEvents: [Double] = []
    var responseTimes: [Double] = []
    var missing = 0
    let bytesBefore = client.bytesReceived
    let cpuBefore = cpuMilliseconds()
    for _ in 0..<settings.rounds {
        let target = client.nextEvents()
        let sentAt = ContinuousClock.now
        _ = exchange(port: port, request("executeMutation", "bumpMovieRating", ["id": .string(starWarsID)]))
        let answeredAt = ContinuousClock.now
        responseTimes.append((answeredAt - sentAt).milliseconds)
        client.pump(until: .now + .seconds(10), reaching: target)
        client.settle()
        var last = 0.0
        for index in 0..<client.connectionCount {
            let tally = client.tally(index)
            if tally.events >= target[index] {
                let latency = max(0, (tally.lastEvent - answeredAt).milliseconds)
                last = max(last, latency)
                for _ in 0..<tally.subscriptions { latencies.append(latency) }
            } else {
                missing += tally.subscriptions
            }
        }
        lastEvents.append(last)
        // Late or duplicate events of this round are read before the next mutation.
        client.pump(until: .now + .milliseconds(300), reaching: nil)
        client.settle()
    }

    func format(_ value: Double) -> String { String(format: "%.1f ms", value) }
    say("| events measured (missing) | \(latencies.count) (\(missing)) |")
    say(
        "| latency after the mutation's response p50 / p99 / max | \(format(percentile(latencies, 0.50))) / "
            + "\(format(percentile(latencies, 0.99))) / \(format(latencies.max() ?? .nan)) |")
    say(
        "| last subscriber's event, per round | "
            + lastEvents.map { String(format: "%.1f", $0) }.joined(separator: ", ") + " ms |")
    say("| mutation response p50 | \(format(percentile(responseTimes, 0.50))) |")
    say(
        "| bytes received per event | "
            + "\((client.bytesReceived - bytesBefore) / max(1, latencies.count + missing)) (frames included) |")
    for row in client.extraRows() { say(row) }
    say("cpu " + String(format: "%.0f", cpuMilliseconds() - cpuBefore))
    say("done")
    client.closeAll()
    exit(0)
}
