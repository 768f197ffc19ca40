import DataConnectTime
import DataConnectWire

/// The values a CEL expression can read, for one request.
///
/// | Name | Value |
/// |---|---|
/// | `auth` | ``auth``: `null` when unauthenticated, else `{"uid": ..., "token": {claims}}` |
/// | `vars` | ``vars``, the operation's variables |
/// | `request` | `{auth, variables, time}`: `auth`, `vars` and ``requestTime`` as a timestamp |
/// | `response` | ``response``, the results of earlier root fields of a mutation |
/// | `this` | ``this``, the value of the field carrying `@check` (an error when `nil`) |
/// | `mutation` | ``mutation``, the mutation event of `@refresh` conditions (an error when `nil`) |
///
/// UUIDs appear in canonical 32-hex form; callers pass them so.
///
/// ```swift
/// let bindings = CELBindings(
///     auth: try AuthContext.decode(token: header).celValue,
///     vars: ["userId": "u1"])
/// try CELExpression(parsing: "auth.uid == vars.userId").evaluateCondition(in: bindings)
/// ```
public struct CELBindings: Sendable {
    /// `auth`: `null` when unauthenticated, otherwise `{"uid": ..., "token": {claims}}` (see DataConnectEngine's `AuthContext.celValue`).
    public var auth: JSONValue
    /// `vars` and `request.variables`.
    public var vars: JSONObject
    /// `request.time` as RFC 3339; it reaches CEL as a timestamp (or as this string when it does not parse).
    public var requestTime: String
    /// `response`: the results of earlier root fields, keyed by alias.
    public var response: JSONObject
    /// `this`: the checked field's value; `nil` outside `@check`, `.null` for a null value.
    public var this: JSONValue?
    /// `mutation`: the executed mutation in `@refresh(onMutationExecuted:)` conditions; `nil` elsewhere.
    public var mutation: JSONValue?

    /// Creates bindings; every binding has an empty default and `requestTime` defaults to now.
    ///
    /// ```swift
    /// let bindings = CELBindings(vars: ["status": "DRAFT"])
    /// ```
    ///
    /// - Parameters:
    ///   - auth: the `auth` value, usually DataConnectEngine's `AuthContext.celValue`.
    ///   - vars: the operation's variables.
    ///   - requestTime: the request's time as RFC 3339.
    ///   - response: results of earlier root fields.
    ///   - this: the value under `@check`.
    ///   - mutation: the mutation event of a `@refresh` condition.
    public init(
        auth: JSONValue = .null,
        vars: JSONObject = [:],
        requestTime: String = CELBindings.currentTime(),
        response: JSONObject = [:],
        this: JSONValue? = nil,
        mutation: JSONValue? = nil
    ) {
        self.auth = auth
        self.vars = vars
        self.requestTime = requestTime
        self.response = response
        self.this = this
        self.mutation = mutation
    }

    /// The same bindings with `this` set, for running a `@check` on one value.
    ///
    /// ```swift
    /// for element in elements { try check.evaluateCondition(in: bindings.with(this: element)) }
    /// ```
    ///
    /// - Parameter this: the value under the check.
    /// - Returns: a copy with ``this`` replaced.
    public func with(this: JSONValue?) -> CELBindings {
        var copy = self
        copy.this = this
        return copy
    }

    /// The current time as RFC 3339 in UTC with microseconds, e.g. `2024-05-01T12:00:00.123456Z`.
    ///
    /// ```swift
    /// CELBindings.currentTime()  // "2024-05-01T12:00:00.123456Z"
    /// ```
    ///
    /// - Returns: the wall-clock time.
    public static func currentTime() -> String {
        rfc3339(unixMicroseconds: WallClock.unixMicroseconds())
    }

    /// Formats microseconds since the Unix epoch as RFC 3339 in UTC with six fraction digits.
    ///
    /// ```swift
    /// CELBindings.rfc3339(unixMicroseconds: 1_700_000_000_000_001)  // "2023-11-14T22:13:20.000001Z"
    /// ```
    ///
    /// - Parameter unixMicroseconds: microseconds since 1970-01-01T00:00:00Z, within years 1 to 9999.
    /// - Returns: the timestamp text; out-of-range values are clamped to the range.
    public static func rfc3339(unixMicroseconds: Int64) -> String {
        let timestamp = RFC3339Timestamp(unixMicroseconds: unixMicroseconds)
        let clamped = min(max(timestamp.seconds, CELTimestamp.minSeconds), CELTimestamp.maxSeconds)
        // Always six digits, so request times line up.
        return RFC3339Timestamp(seconds: clamped, nanoseconds: timestamp.nanoseconds).formatted(
            fraction: .fixed(digits: 6))
    }
}
