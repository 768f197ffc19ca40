import DataConnectProtobuf
import EmulatorHTTP

/// `grpc.health.v1.Health`: the server, and each service it serves, is `SERVING` while the emulator runs.
///
/// `Check` with the empty name or a served service answers `SERVING`; another name answers `NOT_FOUND`, as gRPC's
/// health protocol says. `Watch` sends the status once (`SERVICE_UNKNOWN` for a name not served) and keeps the call
/// open until the client ends it or the server stops.
enum HealthService {
    static func check(_ call: GRPCUnaryCall) -> GRPCUnaryResult {
        let service: String
        do {
            service = try HealthCheckRequest(protobuf: call.message).service
        } catch {
            return .failure(
                GRPCStatus(code: .invalidArgument, message: "the request is not a HealthCheckRequest: \(error)"))
        }
        guard isServed(service) else {
            return .failure(GRPCStatus(code: .notFound, message: "unknown service \"\(service)\""))
        }
        return .ok(HealthCheckResponse(status: .serving).protobufBytes())
    }

    static func isServed(_ service: String) -> Bool {
        service.isEmpty || ConnectorGRPCService.serviceNames.contains(service)
    }

    /// One `Watch` call.
    final class Watch: GRPCStreamHandler {
        let stream: GRPCServerStream

        init(stream: GRPCServerStream) {
            self.stream = stream
        }

        func received(_ message: [UInt8]) {
            do {
                let service = try HealthCheckRequest(protobuf: message).service
                let status: HealthCheckResponse.ServingStatus =
                    HealthService.isServed(service) ? .serving : .serviceUnknown
                stream.send(HealthCheckResponse(status: status).protobufBytes())
            } catch {
                stream.finish(
                    GRPCStatus(code: .invalidArgument, message: "the request is not a HealthCheckRequest: \(error)"))
            }
        }

        func clientFinished() {}

        func cancelled() {}
    }
}
