import Dispatch
import EmulatorHTTP

#if canImport(Glibc)
import Glibc
#endif

// The HTTP ceiling benchmark: a server that answers every request with the same JSON body, and the gRPC method
// `/bench.Bench/Echo` (unary, on the request lanes as the emulator's calls are) with the same fixed message, so that
// the emulator's throughput can be compared with what the HTTP layer alone reaches on either protocol.
//
// Usage: HTTPBench [--port N] [--size BYTES] [--threads N] [--http1 native|libmicrohttpd]
// (defaults: port 9400, 200 bytes, one worker thread per core, the server's default HTTP/1.1 implementation; port 0
// picks a free port). Prints
// `ready http://127.0.0.1:PORT` once listening and stops cleanly on SIGINT or SIGTERM. Drive it with, for
// example, `wrk -t1 -c32 -d5s -s post.lua http://127.0.0.1:9400/` where post.lua sets a POST body, and
// `h2load -n 200000 -c 32 -m 8 -d request.bin -H 'content-type: application/grpc' -H 'te: trailers'
// http://127.0.0.1:9400/bench.Bench/Echo` where request.bin holds one length-prefixed message (e.g. 00 00 00 00 00).

/// Command-line options of the benchmark server.
struct BenchOptions {
    var port: UInt16 = 9400
    var size = 200
    var threads = HTTPServer.Configuration.onlineCoreCount
    var http1 = HTTPServer.Configuration.HTTP1Implementation.default

    /// Parses `--flag value` pairs; unknown flags and bad values are usage errors.
    static func parse(_ arguments: [String]) -> Result<BenchOptions, BenchUsageError> {
        var options = BenchOptions()
        var index = 0
        while index < arguments.count {
            let flag = arguments[index]
            guard index + 1 < arguments.count else { return .failure(BenchUsageError("missing value for \(flag)")) }
            let value = arguments[index + 1]
            switch flag {
            case "--port":
                guard let port = UInt16(value) else { return .failure(BenchUsageError("bad port '\(value)'")) }
                options.port = port
            case "--size":
                guard let size = Int(value), size >= 0 else { return .failure(BenchUsageError("bad size '\(value)'")) }
                options.size = size
            case "--threads":
                guard let threads = Int(value), threads > 0 else {
                    return .failure(BenchUsageError("bad thread count '\(value)'"))
                }
                options.threads = threads
            case "--http1":
                guard let implementation = HTTPServer.Configuration.HTTP1Implementation(rawValue: value) else {
                    return .failure(BenchUsageError("bad HTTP/1.1 implementation '\(value)'"))
                }
                options.http1 = implementation
            default:
                return .failure(BenchUsageError("unknown option '\(flag)'"))
            }
            index += 2
        }
        return .success(options)
    }
}

/// A command-line mistake, reported with the usage line.
struct BenchUsageError: Error {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}

/// A JSON object of exactly `size` bytes (at least the 23 of its frame): `{"data":{"payload":"xx…"}}`.
func fixedJSONBody(size: Int) -> [UInt8] {
    let prefix = Array(#"{"data":{"payload":""#.utf8)
    let suffix = Array(#""}}"#.utf8)
    let padding = max(0, size - prefix.count - suffix.count)
    return prefix + [UInt8](repeating: UInt8(ascii: "x"), count: padding) + suffix
}

/// The fixed answers: the JSON body to every HTTP request, and the same bytes as the message of every call of
/// `/bench.Bench/Echo`.
struct BenchResponder: HTTPResponder, GRPCService {
    let body: [UInt8]

    func respond(to request: HTTPRequest) -> HTTPResponse {
        .json(body)
    }

    var grpcService: (any GRPCService)? { self }

    func method(for path: String) -> GRPCMethod? {
        guard path == "/bench.Bench/Echo" else { return nil }
        let body = body
        return .unary { _ in .ok(body) }
    }
}

/// Writes to standard error.
func writeError(_ text: String) {
    var text = text
    _ = text.withUTF8 { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}

let options: BenchOptions
switch BenchOptions.parse(Array(CommandLine.arguments.dropFirst())) {
case .success(let parsed):
    options = parsed
case .failure(let error):
    writeError(
        "HTTPBench: \(error.message)\n"
            + "usage: HTTPBench [--port N] [--size BYTES] [--threads N] [--http1 native|libmicrohttpd]\n")
    exit(2)
}

StopSignals.block()

let body = fixedJSONBody(size: options.size)
var configuration = HTTPServer.Configuration(threadPoolSize: options.threads)
configuration.http1Implementation = options.http1
let server = HTTPServer(port: options.port, configuration: configuration, responder: BenchResponder(body: body))
do {
    try server.start()
} catch {
    writeError("HTTPBench: \(error)\n")
    exit(1)
}
print("ready http://127.0.0.1:\(server.port)")
fflush(nil)

StopSignals.wait()
server.stop()
