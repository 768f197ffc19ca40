import DataConnectEngine
import DataConnectWire
import OutboundHTTP

/// How the embedding providers read their servers' failures: one mapping from HTTP statuses and transport
/// errors to the status `_embed` answers with.
///
/// | What happened | Status |
/// |---|---|
/// | 400 | `INVALID_ARGUMENT`, with the server's message |
/// | 401, 403 | `FAILED_PRECONDITION` (credentials) |
/// | 404 | `INVALID_ARGUMENT` (an unknown model) |
/// | 429 | `RESOURCE_EXHAUSTED` |
/// | 5xx, unreachable, a broken connection | `UNAVAILABLE` |
/// | no answer before the deadline | `DEADLINE_EXCEEDED` |
/// | a URL that cannot be called | `FAILED_PRECONDITION` |
enum ProviderAnswers {
    /// The error of a call that got no answer.
    ///
    /// - Parameters:
    ///   - failure: why the transport failed.
    ///   - provider: the provider and what it called, for the message (`vertex at https://…`).
    static func error(for failure: OutboundHTTPError, provider: String) -> EmbeddingError {
        switch failure {
        case .timedOut:
            EmbeddingError(code: .deadlineExceeded, message: "\(provider) did not answer before the request's deadline")
        case .unreachable(let reason):
            EmbeddingError(code: .unavailable, message: "\(provider) is unavailable: \(reason)")
        case .broken(let reason):
            EmbeddingError(code: .unavailable, message: "\(provider) failed: \(reason)")
        case .unsupported(let reason):
            EmbeddingError(code: .failedPrecondition, message: "\(provider) cannot be called: \(reason)")
        }
    }

    /// The error of an answer whose status is not 2xx.
    ///
    /// - Parameters:
    ///   - response: the answer.
    ///   - provider: the provider and what it called, for the message.
    ///   - model: the model asked for, named in a 404's message.
    ///   - credentials: what to check when the server refuses the credentials.
    static func error(
        for response: OutboundResponse, provider: String, model: String, credentials: String
    ) -> EmbeddingError {
        let detail = "HTTP \(response.status): \(message(in: response.body))"
        switch response.status {
        case 400:
            return EmbeddingError(code: .invalidArgument, message: "\(provider) refused the request (\(detail))")
        case 401, 403:
            return EmbeddingError(
                code: .failedPrecondition, message: "\(provider) refused the credentials (\(detail)); \(credentials)")
        case 404:
            return EmbeddingError(
                code: .invalidArgument, message: "\(provider) does not know the model \"\(model)\" (\(detail))")
        case 429:
            return EmbeddingError(code: .resourceExhausted, message: "\(provider) is over its quota (\(detail))")
        case 500..<600:
            return EmbeddingError(code: .unavailable, message: "\(provider) failed (\(detail))")
        default:
            return EmbeddingError(code: .unknown, message: "\(provider) answered \(detail)")
        }
    }

    /// The server's own message: `error.message` (Google APIs, OpenAI-style servers), `error` when it is text, else
    /// the start of the body.
    static func message(in body: [UInt8]) -> String {
        if let json = try? JSONValue(parsing: body) {
            if let text = json["error"]?["message"]?.stringValue { return text }
            if let text = json["error"]?.stringValue {
                return json["error_description"]?.stringValue.map { "\(text): \($0)" } ?? text
            }
        }
        let excerpt = String(decoding: body.prefix(200), as: UTF8.self)
        return excerpt.isEmpty ? "no body" : excerpt
    }

    /// The answer parsed as JSON, or an `UNKNOWN` error naming the provider.
    static func json(_ response: OutboundResponse, provider: String) throws(EmbeddingError) -> JSONValue {
        do {
            return try JSONValue(parsing: response.body)
        } catch {
            let excerpt = String(decoding: response.body.prefix(200), as: UTF8.self)
            throw EmbeddingError(code: .unknown, message: "\(provider) answered something that is not JSON: \(excerpt)")
        }
    }

    /// A JSON array of numbers as a vector, or `nil` when it is anything else.
    static func vector(_ value: JSONValue?) -> [Double]? {
        guard let items = value?.arrayValue, !items.isEmpty else { return nil }
        var vector: [Double] = []
        vector.reserveCapacity(items.count)
        for item in items {
            guard let number = item.doubleValue else { return nil }
            vector.append(number)
        }
        return vector
    }
}
