// realtime-bench: realtime fan-out latency of the emulator.
//
// Starts an emulator in-process on Backend/movies with its seed data, opens 1,000 subscribers on `listMovies`
// and 100 on each of 10 other queries (all held by one thread with poll(2) on non-blocking sockets), then runs
// `bumpMovieRating` on a movie every query shows, several rounds, and reports the latency from sending the
// mutation to each subscriber's event, the process's thread count and resident memory while holding the
// connections, as a markdown table.
//
// Subscribers are WebSockets on the stream endpoint with `--per-connection N` subscriptions each (default 1: one
// connection per subscriber). `--transport websocket`, the only transport, is still accepted.
//
// `--postgres URL` serves from that PostgreSQL database (empty: the first emulator seeds it) instead of SQLite in
// memory. `--subscribers-on-second-emulator` (with `--postgres`) starts a second emulator on the same database,
// opens the subscribers on it (500 on `listMovies` and 50 on each of the 10 others: 1,000) and sends the
// mutations to the first one: the change reaches the second emulator through PostgreSQL's LISTEN/NOTIFY. The two
// emulators are two `Emulator` instances in this process, each with its own store, connection pool and
// listening connection, which is what two emulator processes would have; they share only the CPU.
//
// `--subscribers N --groups G` spreads N subscribers evenly over G groups (one query with G variable sets, each
// showing the bumped movie), holds them in a child process and reports the emulator's own resident-memory growth per
// subscriber and the latency from the mutation's response: see SubscriberGroupsBench.swift. With `--grpc` the
// subscribers are `ConnectorStreamService/Connect` calls over HTTP/2, `--per-connection` of them on each connection's
// one stream, each response decoded as it is read (`--grpc-decode inline`) or once each round's events are in
// (`deferred`): see GRPCSubscriberClient.swift. `--sample-heap` also reports the server's peak heap while opening and
// during the rounds.
//
//     swift run -c release --package-path Packages/DataConnectEmulator realtime-bench [--backend Backend/movies] [--rounds 5] [--per-connection 1]
//         [--postgres URL [--subscribers-on-second-emulator] | --subscribers N [--groups 100] [--grpc [--grpc-decode inline]] [--sample-heap]]

import DataConnectEmulator
import DataConnectEncoding
import DataConnectWire
import EmulatorHTTP
import Foundation

#if canImport(Glibc)
import Glibc
#endif

// MARK: Arguments

var backend = "Backend/movies"
var rounds = 5
var perConnection = 1
var postgreSQL: String?
var secondEmulator = false
var subscriberCount: Int?
var groupCount = 100
var overGRPC = false
var decodeInline = true
var sampleHeap = false
var clientOfPort: UInt16?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--backend": backend = arguments.next() ?? backend
    case "--rounds": rounds = Int(arguments.next() ?? "") ?? rounds
    case "--transport":
        guard arguments.next() == "websocket" else {
            print("error: the only transport is websocket (server-sent events were removed)")
            exit(2)
        }
    case "--per-connection": perConnection = max(1, Int(arguments.next() ?? "") ?? perConnection)
    case "--postgres": postgreSQL = arguments.next()
    case "--subscribers-on-second-emulator": secondEmulator = true
    case "--subscribers": subscriberCount = Int(arguments.next() ?? "").map { max(1, $0) }
    case "--groups": groupCount = max(1, Int(arguments.next() ?? "") ?? groupCount)
    case "--grpc": overGRPC = true
    case "--grpc-decode":
        switch arguments.next() {
        case "inline": decodeInline = true
        case "deferred": decodeInline = false
        default:
            print("error: --grpc-decode is inline or deferred")
            exit(2)
        }
    case "--sample-heap": sampleHeap = true
    case "--client": clientOfPort = UInt16(arguments.next() ?? "")
    default:
        print(
            "usage: realtime-bench [--backend Backend/movies] [--rounds 5] [--per-connection 1]"
                + " [--postgres URL [--subscribers-on-second-emulator] | --subscribers N [--groups 100] [--grpc [--grpc-decode inline]] [--sample-heap]]"
        )
        exit(2)
    }
}
if secondEmulator && postgreSQL == nil {
    print("error: --subscribers-on-second-emulator needs --postgres URL (two emulators share one database)")
    exit(2)
}
if overGRPC && subscriberCount == nil {
    print("error: --grpc needs --subscribers N (the subscribers then hold gRPC Connect streams)")
    exit(2)
}
if subscriberCount != nil && postgreSQL != nil {
    print("error: --subscribers runs on SQLite in memory; --postgres is not supported with it")
    exit(2)
}

// MARK: File descriptors

var limit = rlimit()
getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
limit.rlim_cur = limit.rlim_max
setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
let descriptorsNeeded = subscriberCount.map { ($0 + perConnection - 1) / perConnection + 500 } ?? 4_500
guard limit.rlim_cur >= descriptorsNeeded else {
    print(
        "error: the open-file limit is \(limit.rlim_cur); \(descriptorsNeeded) needed (raise the hard limit: ulimit -Hn)"
    )
    exit(1)
}

// The allocator settings `dataconnect emulator` makes for its process, so that this process serves as the emulator
// does (the subscribers' child process makes them too, which changes nothing measured).
ServerAllocator.keepWorkingMemory()

// MARK: N subscribers in G groups, the subscribers in a child process

if let subscriberCount {
    let settings = SubscriberGroupsSettings(
        backend: backend, subscribers: subscriberCount, groups: min(groupCount, subscriberCount),
        perConnection: perConnection, rounds: rounds, grpc: overGRPC, decodeInline: decodeInline,
        sampleHeap: sampleHeap)
    if let clientOfPort {
        runSubscriberGroupsClient(port: clientOfPort, settings)
    }
    runSubscriberGroupsServer(settings)
}

// MARK: Emulator

/// The emulator the mutations go to.
let emulator: Emulator
/// The emulator the subscribers connect to: the same one, or a second one on the same PostgreSQL database.
let subscriberEmulator: Emulator
do {
    emulator = try Emulator(
        options: Emulator.Options(
            backend: backend, port: 0, postgreSQL: postgreSQL, seedFile: backend + "/seed_data.gql", readers: 3,
            threads: 2, realtime: .init(maximumSubscriptionsPerClient: 100_000)))
    try emulator.start()
    if secondEmulator {
        subscriberEmulator = try Emulator(
            options: Emulator.Options(
                backend: backend, port: 0, postgreSQL: postgreSQL, readers: 3, threads: 2,
                realtime: .init(maximumSubscriptionsPerClient: 100_000)))
        try subscriberEmulator.start()
    } else {
        subscriberEmulator = emulator
    }
} catch {
    print("error: \(error)")
    exit(1)
}
let port = subscriberEmulator.port
let mutationPort = emulator.port

// MARK: Subscribers

let starWars = "252ff53a-a807-5c12-840b-96bff4798d7b"
/// The subscriptions; halved (1,000 in all) when they live on a second emulator.
let subscriberShare = secondEmulator ? 2 : 1
let queryMix: [(name: String, variables: JSONObject, count: Int)] = [
    ("listMovies", [:], 1_000),
    ("getMovieById", ["id": .string(starWars)], 100),
    ("getMovieByTitle", ["title": "Star Wars"], 100),
    ("searchMovies", ["genre": "Sci-Fi"], 100),
    ("searchMovies", ["minYear": 1970, "maxYear": 1980], 100),
    ("searchMovies", ["title": "Star"], 100),
    ("listMoviesPaged", ["limit": 1000], 100),
    ("listMoviesByTag", ["tag": "space"], 100),
    ("listMoviesByDirector", ["name": "George Lucas"], 100),
    ("listGenreStats", [:], 100),
    ("getCatalogueStats", [:], 100),
]
let queries = queryMix.map { (name: $0.name, variables: $0.variables, count: $0.count / subscriberShare) }

/// A REST request to a connector method.
func request(_ method: String, _ operation: String, _ variables: JSONObject) -> [UInt8] {
    let body = JSONValue.object([
        "name": "projects/p/locations/l/services/movies/connectors/movies", "operationName": .string(operation),
        "variables": .object(variables),
    ]).serialized()
    let head =
        "POST /v1/projects/p/locations/l/services/movies/connectors/movies:\(method) HTTP/1.1\r\n"
        + "Host: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
    return Array(head.utf8) + body
}

@MainActor func connectSocket(to port: UInt16 = port) -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    if result != 0 {
        print("error: connect failed (errno \(errno))")
        exit(1)
    }
    return fd
}

func sendAll(_ fd: Int32, _ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
        let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if sent <= 0 { return }
        offset += sent
    }
}

/// The opening handshake of a stream WebSocket.
let upgrade = Array(
    ("GET /ws/google.firebase.dataconnect.v1.ConnectorStreamService.Connect/p/locations/l/services/movies HTTP/1.1\r\n"
        + "Host: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8)

/// A masked text frame, as a client sends it.
func textFrame(_ text: [UInt8]) -> [UInt8] {
    WebSocketFrame.encode(.text, payload: text, maskingKey: WebSocketMaskingKey(0x11, 0x22, 0x33, 0x44))
}

/// A `subscribe` request on the stream.
func streamSubscribe(_ requestId: Int, _ operation: String, _ variables: JSONObject) -> [UInt8] {
    textFrame(
        JSONValue.object([
            "requestId": .string(String(requestId)),
            "name": "projects/p/locations/l/services/movies/connectors/movies",
            "subscribe": ["operationName": .string(operation), "variables": .object(variables)],
        ]).serialized())
}

/// One subscriber connection: how many events arrived, and when the last one did.
struct Connection {
    let fd: Int32
    let group: Int
    /// Subscriptions it carries (more than one with `--per-connection`).
    var subscriptions = 1
    var tail: [UInt8] = []
    var events = 0
    var lastEvent = ContinuousClock.now
}

func residentKilobytes() -> Int {
    let text = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "") ?? 0
    }
    return 0
}

let rssBefore = residentKilobytes()
var pollSet: [pollfd] = []
var connections: [Int32: Connection] = [:]
let openStart = ContinuousClock.now
for (group, query) in queries.enumerated() {
    var remaining = query.count
    while remaining > 0 {
        let count = min(perConnection, remaining)
        remaining -= count
        let fd = connectSocket()
        var bytes = upgrade
        for requestId in 1...count { bytes += streamSubscribe(requestId, query.name, query.variables) }
        sendAll(fd, bytes)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        pollSet.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
        connections[fd] = Connection(fd: fd, group: group, subscriptions: count)
    }
}

let marker = Array(#"{"result":{"#.utf8)
var readBuffer = [UInt8](repeating: 0, count: 65_536)

/// Reads what arrived until `done()` holds or the timeout passes.
@MainActor func pump(until deadline: ContinuousClock.Instant, _ done: () -> Bool) {
    while !done() && ContinuousClock.now < deadline {
        let count = pollSet.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), 50) }
        guard count > 0 else { continue }
        let now = ContinuousClock.now
        for index in pollSet.indices where pollSet[index].revents != 0 {
            let fd = pollSet[index].fd
            while true {
                let read = recv(fd, &readBuffer, readBuffer.count, 0)
                if read <= 0 { break }
                guard var connection = connections[fd] else { break }
                var bytes = connection.tail + readBuffer[..<read]
                var position = 0
                while position + marker.count <= bytes.count {
                    if bytes[position] == marker[0] && Array(bytes[position..<(position + marker.count)]) == marker {
                        connection.events += 1
                        connection.lastEvent = now
                        position += marker.count
                    } else {
                        position += 1
                    }
                }
                bytes = Array(bytes.suffix(marker.count - 1))
                connection.tail = bytes
                connections[fd] = connection
            }
        }
    }
}

let total = connections.count
pump(until: .now + .seconds(60)) { connections.values.allSatisfy { $0.events >= $0.subscriptions } }
let openTime = ContinuousClock.now - openStart
let initialMissing = connections.values.filter { $0.events < $0.subscriptions }.count

// MARK: Process figures while holding the connections

func procStatus(_ key: String) -> String {
    let text = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
        return line.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces)
    }
    return "?"
}
let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
let rss = procStatus("VmRSS")
let rssDelta = residentKilobytes() - rssBefore
let liveSubscribers = subscriberEmulator.responder.hub.subscriberCount
let liveGroups = subscriberEmulator.responder.hub.groupCount

// MARK: Rounds: one mutation, every subscriber's event

var latencies: [Double] = []
/// From the mutation's response (its commit is then visible) to each event.
var latenciesAfterResponse: [Double] = []
var mutationTimes: [Double] = []
var missing = 0
let executionsBefore = subscriberEmulator.responder.hub.executionCount
for round in 1...rounds {
    let expected = connections.mapValues { $0.events + $0.subscriptions }
    let mutationSocket = connectSocket(to: mutationPort)
    let sentAt = ContinuousClock.now
    sendAll(mutationSocket, request("executeMutation", "bumpMovieRating", ["id": .string(starWars)]))
    var reply = [UInt8](repeating: 0, count: 4096)
    _ = recv(mutationSocket, &reply, reply.count, 0)
    let answeredAt = ContinuousClock.now
    mutationTimes.append((answeredAt - sentAt).milliseconds)
    close(mutationSocket)
    pump(until: .now + .seconds(10)) { connections.allSatisfy { $0.value.events >= expected[$0.key]! } }
    for (fd, connection) in connections {
        if connection.events >= expected[fd]! {
            for _ in 0..<connection.subscriptions {
                latencies.append((connection.lastEvent - sentAt).milliseconds)
                latenciesAfterResponse.append(max(0, (connection.lastEvent - answeredAt).milliseconds))
            }
        } else {
            missing += connection.subscriptions
        }
    }
    _ = round
    usleep(200_000)
}
let executions = subscriberEmulator.responder.hub.executionCount - executionsBefore

extension Duration {
    var milliseconds: Double {
        Double(components.seconds) * 1_000 + Double(components.attoseconds) / 1e15
    }
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
}

func format(_ value: Double) -> String { String(format: "%.1f ms", value) }

print("")
print("| measure | value |")
print("|---|---|")
print("| transport | WebSocket, \(perConnection) subscription(s) per connection |")
print(
    "| database | \(postgreSQL == nil ? "SQLite (in memory)" : "PostgreSQL")"
        + "\(secondEmulator ? "; subscribers on a second emulator, mutations on the first" : "") |")
print("| connections | \(total) |")
print(
    "| subscribers (groups) | \(liveSubscribers) (\(liveGroups)); \(total) opened, \(initialMissing) without a first event |"
)
print("| open + first event for all | \(format(openTime.milliseconds)) |")
print("| rounds (bumpMovieRating) | \(rounds); \(executions) group executions in all |")
print("| events measured (missing) | \(latencies.count) (\(missing)) |")
print("| latency p50 | \(format(percentile(latencies, 0.50))) |")
print("| latency p99 | \(format(percentile(latencies, 0.99))) |")
print("| latency max | \(format(latencies.max() ?? .nan)) |")
print(
    "| latency after the mutation's response p50 / p99 / max | \(format(percentile(latenciesAfterResponse, 0.50))) / "
        + "\(format(percentile(latenciesAfterResponse, 0.99))) / \(format(latenciesAfterResponse.max() ?? .nan)) |")
print("| mutation response p50 | \(format(percentile(mutationTimes, 0.50))) |")
print("| threads (/proc/self/task) | \(threads) |")
print("| VmRSS while holding | \(rss) |")
print(
    "| RSS delta / subscriber (both sides) | \(String(format: "%.1f", Double(rssDelta) / Double(max(1, liveSubscribers)))) kB (\(rssDelta) kB in all) |"
)
print("")
if secondEmulator {
    print(
        "Latency: from sending the mutation request (or from its response) to each subscriber's event; one process "
            + "holds both emulators (each with its own store, pool and LISTEN connection on the one PostgreSQL "
            + "database) and the client."
    )
} else {
    print(
        "Latency: from sending the mutation request (or from its response) to each subscriber's event; one process "
            + "holds the emulator and the client."
    )
}

for fd in connections.keys { close(fd) }
if secondEmulator { subscriberEmulator.stop() }
emulator.stop()
