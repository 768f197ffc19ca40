import EmulatorHTTP

/// One `ServerReflectionInfo` call (`grpc.reflection.v1` or `v1alpha`): what `grpcurl` and other tools ask to list
/// and call the services without .proto files.
///
/// `list_services` names every service served; `file_by_filename` and `file_containing_symbol` answer the file's
/// serialized `FileDescriptorProto` with those of every file it imports (from the descriptor set of the project's
/// .proto files, compiled into the emulator); extension queries answer `NOT_FOUND`, since the files declare no
/// extensions. Each request gets one response, in order.
final class ReflectionSession: GRPCStreamHandler {
    let stream: GRPCServerStream

    init(stream: GRPCServerStream) {
        self.stream = stream
    }

    func received(_ message: [UInt8]) {
        let request: GRPCWire.ReflectionRequest
        do {
            request = try GRPCWire.decodeReflectionRequest(message)
        } catch {
            stream.finish(
                GRPCStatus(code: .invalidArgument, message: "the request is not a ServerReflectionRequest: \(error)"))
            return
        }
        stream.send(GRPCWire.reflectionResponse(to: request, answer: answer(request.query)))
    }

    func clientFinished() {
        stream.finish(GRPCStatus(code: .ok, message: ""))
    }

    func cancelled() {}

    private func answer(_ query: GRPCWire.ReflectionRequest.Query) -> GRPCWire.ReflectionAnswer {
        switch query {
        case .listServices:
            return .services(ConnectorGRPCService.serviceNames)
        case .fileByFilename(let name):
            guard let files = GRPCWire.descriptors.files(named: name) else {
                return .error(code: 5, message: "no file \"\(name)\"")
            }
            return .files(files)
        case .fileContainingSymbol(let symbol):
            guard let files = GRPCWire.descriptors.files(containingSymbol: symbol) else {
                return .error(code: 5, message: "no symbol \"\(symbol)\"")
            }
            return .files(files)
        case .other(let what):
            return .error(code: 5, message: "\(what): the services' files declare no extensions")
        }
    }
}
