import COpenSSL

/// OpenSSL's per-thread error queue, read for messages.
enum OpenSSLErrorQueue {
    /// The reasons queued on this thread, oldest first and joined with `; `, emptying the queue; `nil` when it is
    /// empty.
    static func drain() -> String? {
        var reasons: [String] = []
        while case let code = ERR_get_error(), code != 0 {
            if let reason = ERR_reason_error_string(code) {
                reasons.append(String(cString: reason))
            } else {
                var buffer = [CChar](repeating: 0, count: 256)
                ERR_error_string_n(code, &buffer, buffer.count)
                reasons.append(buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
            }
        }
        return reasons.isEmpty ? nil : reasons.joined(separator: "; ")
    }
}
