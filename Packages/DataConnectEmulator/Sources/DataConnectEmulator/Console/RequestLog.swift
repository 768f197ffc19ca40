import DataConnectWire
import Foundation
import Synchronization

/// The last requests the emulator served, for the console's Requests view.
///
/// Holds at most ``capacity`` records (the oldest go first) and tells its listeners about each new one. Recording
/// is a lock and an array write; encoding happens only when the console asks or listens.
final class RequestLog: Sendable {
    /// One served request.
    struct Record: Sendable {
        /// Increases by one per record, from 1.
        var id: Int
        /// When the request arrived.
        var time: Date
        /// The wire the request came over: `http` (REST) or `grpc`.
        var wire: String = "http"
        /// The API method (`executeQuery`, `executeGraphql`, …, or the gRPC method, `ExecuteQuery`, …) or
        /// maintenance action (`clear`, …).
        var method: String
        /// The connector, for connector methods.
        var connector: String?
        /// The operation's name, when the request names one.
        var operation: String?
        /// `admin`, `unauthenticated` or `uid:<uid>`.
        var caller: String
        /// The HTTP status of the answer (for a gRPC call, the one REST answers the same outcome with).
        var status: Int
        /// The status code's name (`OK`, `PERMISSION_DENIED`, …).
        var code: String
        /// How long the answer took, in milliseconds.
        var durationMilliseconds: Double

        /// The record as the console reads it.
        var json: JSONValue {
            [
                "id": .number(JSONNumber(id)),
                "time": .string(RequestLog.timestamp(time)),
                "protocol": .string(wire),
                "method": .string(method),
                "connector": connector.map(JSONValue.string) ?? .null,
                "operation": operation.map(JSONValue.string) ?? .null,
                "caller": .string(caller),
                "status": .number(JSONNumber(status)),
                "code": .string(code),
                "durationMs": .number(JSONNumber((durationMilliseconds * 1000).rounded() / 1000)),
            ]
        }
    }

    /// How many records are kept.
    let capacity: Int
    private struct State {
        /// A ring once full: the oldest record is at ``oldest``.
        var records: [Record] = []
        var oldest = 0
        var nextID = 1
        var listener: (@Sendable (Record) -> Void)?
    }
    private let state = Mutex(State())

    /// Creates an empty log keeping the last `capacity` records.
    init(capacity: Int = 200) {
        self.capacity = capacity
    }

    /// Adds a record (its `id` is assigned here) and tells the listener.
    func record(_ record: consuming Record) {
        var record = record
        let listener = state.withLock { state -> (@Sendable (Record) -> Void)? in
            record.id = state.nextID
            state.nextID += 1
            // Once full, the newest record takes the oldest's place: no array shifted per request.
            if state.records.count < capacity {
                state.records.append(record)
            } else if capacity > 0 {
                state.records[state.oldest] = record
                state.oldest = (state.oldest + 1) % capacity
            }
            return state.listener
        }
        listener?(record)
    }

    /// The records kept, oldest first.
    var records: [Record] {
        state.withLock { state in Array(state.records[state.oldest...] + state.records[..<state.oldest]) }
    }

    /// Calls `listener` with every record added from now on.
    func setListener(_ listener: (@Sendable (Record) -> Void)?) {
        state.withLock { $0.listener = listener }
    }

    /// RFC 3339 in UTC with milliseconds, as the console displays and sorts times.
    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
