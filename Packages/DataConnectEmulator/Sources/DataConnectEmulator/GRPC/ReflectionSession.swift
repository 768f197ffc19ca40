import DataConnectProtobuf
import EmulatorHTTP

/// One `ServerReflectionInfo` call (`grpc.reflection.v1` or `v1alpha`): what `grpcurl` and other tools ask to list
/// and call the services without .proto files.
///
/// `list_services` names every service served; `file_by_filename` and `file_containing_symbol` answer the file's
/// serialized `FileDescriptorProto` with those of every file it imports (from the descriptor set of the project's
/// .proto files, compiled into the emulator: ``ProtoDescriptorIndex/bundled``); extension queries answer
/// `NOT_FOUND`, since the files declare no extensions. Each request gets one response, in order.
final class ReflectionSession: GRPCStreamHandler {
    let stream: GRPCServerStream

    init(stream: GRPCServerStream) {
        self.stream = stream
    }

    func received(_ message: [UInt8]) {
        let request: ServerReflectionRequest
        do {
            request = try ServerReflectionRequest(protobuf: message)
        } catch {
            stream.finish(
                GRPCStatus(code: .invalidArgument, message: "the request is not a ServerReflectionRequest: \(error)"))
            return
        }
        let response = ServerReflectionResponse(
            validHost: request.host, originalRequest: request, kind: Self.answer(request.kind))
        stream.send(response.protobufBytes())
    }

    func clientFinished() {
        stream.finish(GRPCStatus(code: .ok, message: ""))
    }

    func cancelled() {}

    /// The answer to one question.
    static func answer(_ kind: ServerReflectionRequest.Kind?) -> ServerReflectionResponse.Kind {
        let notFound: Int32 = 5
        switch kind {
        case .listServices?:
            return .listServices(ConnectorGRPCService.serviceNames)
        case .fileByFilename(let name)?:
            guard let files = ProtoDescriptorIndex.bundled.filesWithDependencies(named: name) else {
                return .error(code: notFound, message: "no file \"\(name)\"")
            }
            return .fileDescriptors(files)
        case .fileContainingSymbol(let symbol)?:
            guard let files = ProtoDescriptorIndex.bundled.filesContaining(symbol: symbol) else {
                return .error(code: notFound, message: "no symbol \"\(symbol)\"")
            }
            return .fileDescriptors(files)
        case .fileContainingExtension(let type, let number)?:
            return .error(code: notFound, message: "no extension \(number) of \(type): the files declare no extensions")
        case .allExtensionNumbersOfType(let type)?:
            return .extensionNumbers(baseTypeName: type, numbers: [])
        case nil:
            return .error(code: 3, message: "the request asks nothing (no message_request)")
        }
    }
}
