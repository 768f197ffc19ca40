import EmulatorHTTP

/// Requests the emulator makes to itself (imports go through the same code as `accounts:batchCreate`).
enum HTTPRequestBuilder {
    /// A request with admin credentials.
    static func admin(path: String, method: HTTPMethod) -> HTTPRequest {
        HTTPRequest(
            method: method, path: path,
            headers: ["Authorization": "Bearer owner", "Content-Type": "application/json"])
    }
}
