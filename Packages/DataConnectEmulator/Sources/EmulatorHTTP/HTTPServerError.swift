/// Why an ``HTTPServer`` could not start.
public enum HTTPServerError: Error, Equatable, CustomStringConvertible {
    /// The host is not an IPv4 address (or `localhost`).
    case invalidHost(String)
    /// The server is already running; stop it before starting it again.
    case alreadyRunning(host: String, port: UInt16)
    /// The server could not listen on the address, typically because the port is in use.
    case cannotListen(host: String, port: UInt16, reason: String)

    /// A one-line explanation naming the address.
    public var description: String {
        switch self {
        case .invalidHost(let host):
            return "invalid host '\(host)': expected an IPv4 address such as 127.0.0.1"
        case .alreadyRunning(let host, let port):
            return "the HTTP server on \(host):\(port) is already running"
        case .cannotListen(let host, let port, let reason):
            return "cannot listen on \(host):\(port): \(reason)"
        }
    }
}
