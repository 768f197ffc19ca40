import DataConnectWire

extension EmulatorResponder {
    /// The connector id of a resource name `projects/{p}/locations/{l}/services/{s}/connectors/{c}` (a stream's and
    /// a gRPC call's `name`), checked against the service served (and the service in the path, when it names one).
    func connector(ofName name: String, pathService: String? = nil) -> Result<String, RequestError> {
        let segments = name.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count == 8, segments[0] == "projects", segments[2] == "locations", segments[4] == "services",
            segments[6] == "connectors", !segments[7].isEmpty
        else {
            return .failure(
                RequestError(
                    status: .invalidArgument,
                    message:
                        "\"name\" must be projects/{project}/locations/{location}/services/{service}/connectors/{connector}, got \"\(name)\""
                ))
        }
        let service = String(segments[5])
        let served = engine.service.project.config.serviceId
        guard service == served, pathService.map({ $0 == service }) ?? true else {
            return .failure(
                RequestError(
                    status: .notFound,
                    message: "No schema found for service \"\(service)\"; this emulator serves \"\(served)\""))
        }
        return .success(String(segments[7]))
    }
}
