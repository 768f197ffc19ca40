// The `--subscribers N --groups G` mode of realtime-bench: N subscribers spread evenly over G subscription groups,
// the emulator in this process and the subscribers in a child process (this executable again, with `--client`), so
// the emulator's resident-memory growth is the server's alone.
//
// Each group is `searchMovies` with its own `minYear` (1977 − g for group g), so every group is a distinct hub group
// and every one shows Star Wars (1977): one `bumpMovieRating` on it changes all G groups.
//
// The client process warms the emulator up (one `executeQuery` per group, one mutation), then the server reads its
// VmRSS; the client opens the subscribers (`--per-connection P` subscriptions per WebSocket, default 1) and waits for
// every first event; after two idle seconds the server reads its VmRSS again. Then the client runs the rounds: it
// sends the mutation, reads the whole HTTP response, and times each subscriber's event from the moment the response
// was received. The client is one thread reading every socket through one epoll set and answering pings, so its own
// reading time is part of the latency.

import CMicroHTTPD
import DataConnectEmulator
import DataConnectEncoding
import DataConnectWire
import EmulatorHTTP
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The settings of a `--subscribers` run.
struct SubscriberGroupsSettings {
    var backend: String
    var subscribers: Int
    var groups: Int
    var perConnection: Int
    var rounds: Int
    /// The subscribers are `Connect` calls over gRPC (one per HTTP/2 connection) rather than WebSockets.
    var grpc: Bool
    /// With `grpc`: each response is decoded when read (else after each round).
    var decodeInline = true
    /// The server samples its heap's peak while opening and during the rounds (`mallinfo2` every 10 ms: it takes
    /// the allocator's locks, so it is off by default).
    var sampleHeap = false
}

/// The variables of group `group`: a distinct `minYear`, every one at or below Star Wars' 1977.
func groupVariables(_ group: Int) -> JSONObject {
    ["minYear": .number(JSONNumber(1977 - group))]
}

// MARK: Server side

/// Runs the emulator, starts the client process, and prints the table.
func runSubscriberGroupsServer(_ settings: SubscriberGroupsSettings) -> Never {
    let emulator: Emulator
    do {
        emulator = try Emulator(
            options: Emulator.Options(
                backend: settings.backend, port: 0, seedFile: settings.backend + "/seed_data.gql", readers: 3,
                threads: 2, realtime: .init(maximumSubscriptionsPerClient: 1_000_000)))
        try emulator.start()
    } catch {
        print("error: \(error)")
        exit(1)
    }
    let client = Process()
    client.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
    if !FileManager.default.isExecutableFile(atPath: client.executableURL!.path) {
        client.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    }
    client.arguments =
        [
            "--client", String(emulator.port), "--subscribers", String(settings.subscribers), "--groups",
            String(settings.groups), "--per-connection", String(settings.perConnection), "--rounds",
            String(settings.rounds),
        ] + (settings.grpc ? ["--grpc", "--grpc-decode", settings.decodeInline ? "inline" : "deferred"] : [])
    let toClient = Pipe()
    let fromClient = Pipe()
    client.standardInput = toClient
    client.standardOutput = fromClient
    do {
        try client.run()
    } catch {
        print("error: cannot start the client process: \(error)")
        exit(1)
    }
    let lines = LineReader(fromClient.fileHandleForReading)
    func expect(_ word: String) -> [String] {
        guard let line = lines.next() else {
            print("error: the client process ended before \(word)")
            exit(1)
        }
        let fields = line.split(separator: " ").map(String.init)
        guard fields.first == word else {
            print("error: the client process said \(line)")
            exit(1)
        }
        return Array(fields.dropFirst())
    }
    func tell(_ word: String) { toClient.fileHandleForWriting.write(Data((word + "\n").utf8)) }

    _ = expect("warm")
    usleep(1_000_000)
    let before = serverStatus("VmRSS")
    let heapBefore = HeapFigures()
    let openingPeak = settings.sampleHeap ? HeapPeakSampler() : nil
    let openCPUBefore = cpuMilliseconds()
    let openThreadsBefore = ThreadCPU()
    tell("open")
    let opened = expect("open")
    let openCPU = cpuMilliseconds() - openCPUBefore
    let openThreads = ThreadCPU().busiest(since: openThreadsBefore)
    usleep(2_000_000)
    let after = serverStatus("VmRSS")
    let heapAfter = HeapFigures()
    let heapPeak = openingPeak?.stop()
    let liveSubscribers = emulator.responder.hub.subscriberCount
    let liveGroups = emulator.responder.hub.groupCount
    let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    let executionsBefore = emulator.responder.hub.executionCount
    let serverCPUBefore = cpuMilliseconds()
    let roundsPeak = settings.sampleHeap ? HeapPeakSampler() : nil
    let roundsThreadsBefore = ThreadCPU()
    tell("go")
    var rows: [String] = []
    while let line = lines.next(), line != "done" {
        rows.append(line)
    }
    let afterRounds = serverStatus("VmRSS")
    let heapRoundsPeak = roundsPeak?.stop()
    let roundsThreads = ThreadCPU().busiest(since: roundsThreadsBefore)
    let serverCPU = cpuMilliseconds() - serverCPUBefore
    let executions = emulator.responder.hub.executionCount - executionsBefore
    client.waitUntilExit()

    let growth = after - before
    let perSubscriber = Double(growth) / Double(max(1, settings.subscribers))
    print("")
    print("| measure | value |")
    print("|---|---|")
    print(
        "| subscribers, groups | \(settings.subscribers) in \(settings.groups) group(s) (searchMovies, one minYear each);"
            + " \(liveSubscribers) live in \(liveGroups) hub group(s) |")
    let connections =
        settings.grpc
        ? "\(opened[0]) HTTP/2 connections, one gRPC Connect stream each, \(settings.perConnection) subscription(s) per stream"
        : "\(opened[0]) WebSockets, \(settings.perConnection) subscription(s) each"
    print("| transport | \(settings.grpc ? "gRPC (HTTP/2, prior knowledge)" : "WebSocket") |")
    print("| connections | \(connections); \(opened[1]) without a first event for every subscription |")
    print("| open + first event for all | \(opened[2]) ms |")
    print(
        "| opening: requests written / first events for 50 % / 90 % / 100 % | \(opened[3]) / \(opened[4]) / "
            + "\(opened[5]) / \(opened[6]) ms |")
    print("| CPU time while opening, server / client | \(String(format: "%.0f", openCPU)) ms / \(opened[7]) ms |")
    print("| rounds (bumpMovieRating) | \(settings.rounds); \(executions) group executions in all |")
    for row in rows where !row.hasPrefix("cpu ") { print(row) }
    print("| server VmRSS after warm-up / with all open and idle | \(before) kB / \(after) kB |")
    print(
        "| server RSS growth / subscriber (idle) | \(String(format: "%.1f", perSubscriber)) kB (\(growth) kB in all) |")
    print(
        "| server heap in use (malloc) after warm-up / idle, growth per subscriber | \(heapBefore.inUse / 1_024) kB / "
            + "\(heapAfter.inUse / 1_024) kB, "
            + "\(String(format: "%.1f", Double(heapAfter.inUse - heapBefore.inUse) / 1_024 / Double(max(1, settings.subscribers)))) kB |"
    )
    if let heapPeak, let heapRoundsPeak {
        print(
            "| server heap in use, peak while opening / during the rounds (sampled every 10 ms) | "
                + "\(heapPeak / 1_024) kB / \(heapRoundsPeak / 1_024) kB |")
    }
    print(
        "| server heap held free by the allocator after warm-up / idle | \(heapBefore.free / 1_024) kB / "
            + "\(heapAfter.free / 1_024) kB |")
    print("| server VmRSS after the rounds | \(afterRounds) kB |")
    print("| server threads (/proc/self/task) | \(threads) |")
    print("| busiest server threads while opening (CPU) | \(openThreads) |")
    print("| busiest server threads during the rounds (CPU) | \(roundsThreads) |")
    print(
        "| CPU time during the rounds, server / client | \(String(format: "%.0f", serverCPU)) ms / "
            + "\(rows.first { $0.hasPrefix("cpu ") }.map { String($0.dropFirst(4)) } ?? "?") ms |")
    print("")
    print(
        "Latency: from the moment the client has read the mutation's whole HTTP response to each subscriber's event; "
            + "the emulator runs in this process, the subscribers and the mutation in a child process (one thread, "
            + "epoll). Memory: the emulator process's VmRSS; 1 kB = 1,024 bytes.")
    emulator.stop()
    exit(0)
}

/// The C allocator's figures for this process (mallinfo2): bytes handed out (arena blocks and mappings), and bytes
/// it holds free, which count in VmRSS once touched.
struct HeapFigures {
    let inUse: Int
    let free: Int

    init() {
        let info = mallinfo2()
        inUse = Int(info.uordblks + info.hblkhd)
        free = ServerAllocator.freeBytes
    }
}

/// The most heap in use seen from start to ``stop()``, sampled every 10 ms on a thread of its own (`--sample-heap`).
final class HeapPeakSampler: Sendable {
    private let state = Mutex((running: true, peak: 0))

    init() {
        Thread.detachNewThread { [self] in
            while true {
                let inUse = HeapFigures().inUse
                let running = state.withLock { state in
                    state.peak = max(state.peak, inUse)
                    return state.running
                }
                if !running { return }
                usleep(10_000)
            }
        }
    }

    /// Stops sampling; returns the peak (bytes).
    func stop() -> Int {
        state.withLock { state in
            state.running = false
            return state.peak
        }
    }
}

/// Each thread's CPU time so far (/proc/self/task/*/stat: user and system, in clock ticks), and its name.
struct ThreadCPU {
    var ticks: [Int: (name: String, ticks: Int)] = [:]

    init() {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        for task in tasks {
            guard let id = Int(task),
                let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")"), let open = stat.firstIndex(of: "(")
            else { continue }
            // After "(comm) ": state is field 3, utime field 14, stime field 15.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { continue }
            ticks[id] = (String(stat[stat.index(after: open)..<close]), user + system)
        }
    }

    /// The four threads that used the most CPU since `earlier`, as `name/tid ms`.
    func busiest(since earlier: ThreadCPU) -> String {
        let perTick = 1_000 / Double(sysconf(Int32(_SC_CLK_TCK)))
        return ticks.map { id, now in (id, now.name, now.ticks - (earlier.ticks[id]?.ticks ?? 0)) }
            .sorted { $0.2 > $1.2 }.prefix(4)
            .map {
                "\($0.0 == Int(getpid()) ? "main" : $0.1)/\($0.0) \(String(format: "%.0f", Double($0.2) * perTick)) ms"
            }.joined(separator: ", ")
    }
}

/// The CPU time this process has used so far (user and system), in milliseconds.
func cpuMilliseconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1_000
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1_000
}

/// A field of /proc/self/status in kB (the number before "kB"), 0 when missing.
func serverStatus(_ key: String) -> Int {
    let text = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
        return Int(line.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
            ?? 0
    }
    return 0
}

/// Reads newline-terminated lines from a pipe.
final class LineReader {
    private let handle: FileHandle
    private var buffer: [UInt8] = []

    init(_ handle: FileHandle) { self.handle = handle }

    func next() -> String? {
        while true {
            if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeSubrange(...end)
                return line
            }
            let data = handle.availableData
            if data.isEmpty { return nil }
            buffer += data
        }
    }
}

// MARK: Client side

/// The client process: warms up, opens the subscribers, runs the rounds; talks to the server over stdin/stdout.
func runSubscriberGroupsClient(port: UInt16, _ settings: SubscriberGroupsSettings) -> Never {
    let input = LineReader(FileHandle.standardInput)
    func wait(for word: String) {
        guard input.next() == word else { exit(1) }
    }

    // Warm-up: every group's query once, and the mutation once.
    for group in 0..<settings.groups {
        _ = exchange(port: port, request("executeQuery", "searchMovies", groupVariables(group)))
    }
    _ = exchange(port: port, request("executeMutation", "bumpMovieRating", ["id": .string(starWarsID)]))
    say("warm")
    wait(for: "open")

    if settings.grpc {
        var client = GRPCSubscriberClient(decodeInline: settings.decodeInline)
        measureSubscribers(&client, port: port, settings, input: input)
    } else {
        var client = SubscriberClient()
        measureSubscribers(&client, port: port, settings, input: input)
    }
}

/// Writes a line to the server process at once (standard output is a pipe, which `print` would buffer).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let starWarsID = "252ff53a-a807-5c12-840b-96bff4798d7b"

/// The opening handshake of a stream WebSocket.
let streamUpgrade = Array(
    ("GET /ws/google.firebase.dataconnect.v1.ConnectorStreamService.Connect/p/locations/l/services/movies HTTP/1.1\r\n"
        + "Host: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8)

/// A blocking connection to 127.0.0.1.
func connectTo(port: UInt16) -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else {
        print("error: socket failed (errno \(errno))")
        exit(1)
    }
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

/// Sends a request on a new connection and reads the whole response (head and `Content-Length` body).
func exchange(port: UInt16, _ bytes: [UInt8]) -> [UInt8] {
    let fd = connectTo(port: port)
    defer { close(fd) }
    sendAll(fd, bytes)
    var response: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16_384)
    let separator: [UInt8] = [13, 10, 13, 10]
    while true {
        let count = recv(fd, &chunk, chunk.count, 0)
        if count <= 0 { return response }
        response += chunk[..<count]
        guard
            let headEnd = response.indices.dropLast(3).first(where: { response[$0..<($0 + 4)].elementsEqual(separator) }
            )
        else { continue }
        let head = String(decoding: response[..<headEnd], as: UTF8.self).lowercased()
        let length =
            head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) } ?? 0
        if response.count >= headEnd + 4 + length { return response }
    }
}

/// The subscriber sockets of the client process, read through one epoll set.
struct SubscriberClient: SubscriberSet {
    /// One subscriber socket and where its reader is in the stream: the 101 response head, then frames.
    struct Connection {
        let fd: Int32
        var subscriptions: Int
        var events = 0
        var lastEvent = ContinuousClock.now
        /// How many bytes of the head's final CRLFCRLF were matched; 4 once the head is over.
        var headMatched = 0
        /// The current frame's header bytes while they are incomplete.
        var header: [UInt8] = []
        var opcode: UInt8 = 0
        /// Payload bytes of the current frame still to come; `nil` while reading a header.
        var remaining: Int?
        /// The first payload bytes of the current frame (up to the marker's length), or a ping's payload.
        var payload: [UInt8] = []
    }

    var connections: [Connection] = []
    /// Bytes read from every subscriber socket so far.
    var bytesReceived = 0
    /// The epoll set watching every subscriber socket; token i + 1 is connection i.
    private let epoll = cmhd_reactor_create()
    private var readBuffer = [UInt8](repeating: 0, count: 65_536)
    private let marker = Array(#"{"result":{"#.utf8)

    var connectionCount: Int { connections.count }

    func tally(_ index: Int) -> SubscriberTally {
        let connection = connections[index]
        return SubscriberTally(
            subscriptions: connection.subscriptions, events: connection.events, lastEvent: connection.lastEvent)
    }

    func connectionsWithoutFirstEvent() -> Int { connections.filter { $0.events < $0.subscriptions }.count }

    func extraRows() -> [String] { [] }

    func settle() {}

    /// Opens a stream WebSocket and sends one `subscribe` to `searchMovies` per variable set.
    mutating func open(port: UInt16, subscriptions variables: [JSONObject]) {
        var bytes = streamUpgrade
        for (slot, variables) in variables.enumerated() {
            bytes += streamSubscribe(slot + 1, "searchMovies", variables)
        }
        add(connectTo(port: port), sending: bytes, subscriptions: variables.count)
    }

    mutating func add(_ fd: Int32, sending bytes: [UInt8], subscriptions: Int) {
        sendAll(fd, bytes)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        connections.append(Connection(fd: fd, subscriptions: subscriptions))
        guard cmhd_reactor_watch(epoll, fd, UInt64(connections.count), 0, 1) == 0 else {
            say("error: epoll_ctl failed (errno \(errno))")
            exit(1)
        }
    }

    func allReached(_ target: [Int]) -> Bool {
        connections.indices.allSatisfy { connections[$0].events >= target[$0] }
    }

    /// Reads what arrives until every connection has `target` events (when given) or the deadline passes.
    mutating func pump(until deadline: ContinuousClock.Instant, reaching target: [Int]?) {
        var tokens = [UInt64](repeating: 0, count: 64)
        var readiness = [UInt32](repeating: 0, count: 64)
        while ContinuousClock.now < deadline {
            if let target, allReached(target) { return }
            let ready = Int(
                tokens.withUnsafeMutableBufferPointer { tokenBuffer in
                    readiness.withUnsafeMutableBufferPointer { readyBuffer in
                        cmhd_reactor_wait(epoll, tokenBuffer.baseAddress, readyBuffer.baseAddress, 64, 20)
                    }
                })
            for index in 0..<max(0, ready) { readAvailable(Int(tokens[index]) - 1) }
        }
    }

    private mutating func readAvailable(_ index: Int) {
        let fd = connections[index].fd
        while true {
            let read = readBuffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if read <= 0 { return }
            bytesReceived += read
            let now = ContinuousClock.now
            var connection = connections[index]
            var position = 0
            let crlfcrlf: [UInt8] = [13, 10, 13, 10]
            while position < read {
                if connection.headMatched < 4 {
                    let byte = readBuffer[position]
                    position += 1
                    connection.headMatched =
                        byte == crlfcrlf[connection.headMatched] ? connection.headMatched + 1 : (byte == 13 ? 1 : 0)
                    continue
                }
                guard let remaining = connection.remaining else {
                    connection.header.append(readBuffer[position])
                    position += 1
                    guard let (header, _) = try? WebSocketFrameHeader.decode(connection.header) else { continue }
                    let length = Int(header.payloadLength)
                    connection.opcode = header.opcodeBits
                    connection.header.removeAll(keepingCapacity: true)
                    connection.payload.removeAll(keepingCapacity: true)
                    connection.remaining = length
                    if length == 0 { finishFrame(&connection, at: now) }
                    continue
                }
                let take = min(remaining, read - position)
                let keep = connection.opcode == 0x9 ? take : min(take, max(0, marker.count - connection.payload.count))
                if keep > 0 { connection.payload += readBuffer[position..<(position + keep)] }
                position += take
                connection.remaining = remaining - take
                if remaining == take { finishFrame(&connection, at: now) }
            }
            connections[index] = connection
        }
    }

    /// Counts a finished text frame that is a response as an event, and answers a ping with a (masked) pong.
    private func finishFrame(_ connection: inout Connection, at now: ContinuousClock.Instant) {
        connection.remaining = nil
        switch connection.opcode {
        case 0x1 where connection.payload == marker:
            connection.events += 1
            connection.lastEvent = now
        case 0x9:
            sendAll(
                connection.fd,
                WebSocketFrame.encode(.pong, payload: connection.payload, maskingKey: WebSocketMaskingKey(0, 0, 0, 0)))
        default:
            break
        }
    }

    /// Closes every socket with a reset, so no TIME_WAIT state holds the client's ports for the next run.
    func closeAll() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        for connection in connections {
            setsockopt(connection.fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            close(connection.fd)
        }
    }
}
