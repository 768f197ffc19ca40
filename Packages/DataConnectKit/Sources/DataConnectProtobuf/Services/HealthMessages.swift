/// `grpc.health.v1.HealthCheckRequest`: `service = 1`, the service asked about (empty for the whole server).
///
/// ```swift
/// let request = try HealthCheckRequest(protobuf: messageBytes)
/// let answer = HealthCheckResponse(status: .serving).protobufBytes()
/// ```
public struct HealthCheckRequest: Hashable, Sendable {
    /// The fully-qualified service name, e.g. `google.firebase.dataconnect.v1.ConnectorService`; empty for the
    /// server as a whole.
    public var service: String

    /// Creates a request.
    public init(service: String = "") {
        self.service = service
    }

    /// Reads a serialized request.
    ///
    /// - Throws: ``ProtobufError`` for malformed bytes.
    public init(protobuf bytes: [UInt8]) throws(ProtobufError) {
        var reader = ProtobufReader(bytes)
        self.init()
        while let (field, wireType) = try reader.nextField() {
            if field == 1, wireType == .lengthDelimited {
                do throws(ProtobufError) { service = try reader.readString() } catch { throw error.within("service") }
            } else {
                try reader.skipField(wireType)
            }
        }
    }

    /// The request serialized; an empty service writes nothing.
    public func protobufBytes() -> [UInt8] {
        var writer = ProtobufWriter()
        if !service.isEmpty { writer.writeString(1, service) }
        return writer.bytes
    }
}

/// `grpc.health.v1.HealthCheckResponse`: `status = 1`.
public struct HealthCheckResponse: Hashable, Sendable {
    /// `HealthCheckResponse.ServingStatus`.
    public enum ServingStatus: Int32, CaseIterable, Hashable, Sendable {
        /// `UNKNOWN`: also what an unknown number reads as.
        case unknown = 0
        /// `SERVING`.
        case serving = 1
        /// `NOT_SERVING`.
        case notServing = 2
        /// `SERVICE_UNKNOWN`: the service asked about does not exist (used by `Watch`).
        case serviceUnknown = 3
    }

    /// The serving status.
    public var status: ServingStatus

    /// Creates a response.
    public init(status: ServingStatus) {
        self.status = status
    }

    /// Reads a serialized response; an unknown status number reads as ``ServingStatus/unknown``.
    ///
    /// - Throws: ``ProtobufError`` for malformed bytes.
    public init(protobuf bytes: [UInt8]) throws(ProtobufError) {
        var reader = ProtobufReader(bytes)
        self.init(status: .unknown)
        while let (field, wireType) = try reader.nextField() {
            if field == 1, wireType == .varint {
                do throws(ProtobufError) {
                    status = ServingStatus(rawValue: try reader.readInt32()) ?? .unknown
                } catch {
                    throw error.within("status")
                }
            } else {
                try reader.skipField(wireType)
            }
        }
    }

    /// The response serialized; `UNKNOWN` writes nothing.
    public func protobufBytes() -> [UInt8] {
        var writer = ProtobufWriter()
        if status != .unknown { writer.writeInt32(1, status.rawValue) }
        return writer.bytes
    }
}
