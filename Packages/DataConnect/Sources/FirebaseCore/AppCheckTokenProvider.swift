/// Supplies App Check tokens, sent as `X-Firebase-AppCheck` with every Auth and Data Connect request.
///
/// Upstream reads the token from the App Check SDK; on Linux set a provider on `Auth.appCheck` and
/// `DataConnect.appCheckTokenProvider`.
///
/// ```swift
/// struct StaticAppCheck: AppCheckTokenProvider {
///     func token() async throws -> String? { "app-check-token" }
/// }
/// Auth.auth().appCheck = StaticAppCheck()
/// ```
public protocol AppCheckTokenProvider: Sendable {
    /// The current App Check token.
    ///
    /// - Returns: The token, or `nil` to send no header.
    /// - Throws: When no token can be had; the request then goes without the header (upstream sends a
    ///   placeholder token instead).
    func token() async throws -> String?
}
