import DataConnectTestSupport
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends a request with URLSession, the client the SDK uses, and returns the body and response.
func fetch(
    port: UInt16,
    _ pathAndQuery: String,
    method: String = "GET",
    headers: [String: String] = [:],
    body: [UInt8]? = nil
) async throws -> (body: [UInt8], response: HTTPURLResponse) {
    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(pathAndQuery)")!)
    request.httpMethod = method
    request.timeoutInterval = HangGuard.eventSeconds
    for (name, value) in headers {
        request.setValue(value, forHTTPHeaderField: name)
    }
    if let body {
        request.httpBody = Data(body)
    }
    let (data, response) = try await URLSession.shared.data(for: request)
    guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
    return (Array(data), http)
}
