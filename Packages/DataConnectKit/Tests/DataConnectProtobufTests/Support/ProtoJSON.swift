import DataConnectProtobuf
import DataConnectWire
import Foundation

/// The proto3 JSON form (field names as in the .proto, defaults left out) that Python's
/// `json_format.MessageToDict(preserving_proto_field_name=True)` prints for each message: what the
/// cross-implementation tests compare against, written independently of the codec.
enum ProtoJSON {
    static func request(_ request: GraphQLRequest) -> JSONValue {
        var object: JSONObject = ["variables": .object(request.variables)]
        if !request.name.isEmpty { object["name"] = .string(request.name) }
        if !request.operationName.isEmpty { object["operation_name"] = .string(request.operationName) }
        return .object(object)
    }

    static func response(_ response: GraphQLResponse) -> JSONValue {
        var object = JSONObject()
        if case .object? = response.data { object["data"] = response.data }
        if !response.errors.isEmpty { object["errors"] = .array(response.errors.map(error)) }
        if !response.extensions.dataConnect.isEmpty {
            object["extensions"] = ["data_connect": .array(response.extensions.dataConnect.map(properties))]
        }
        return .object(object)
    }

    static func streamResponse(_ response: StreamResponse) -> JSONValue {
        var object =
            self.response(
                GraphQLResponse(data: response.data, errors: response.errors, extensions: response.extensions)
            ).objectValue ?? [:]
        if !response.requestId.isEmpty { object["request_id"] = .string(response.requestId) }
        if let etag = response.dataEtag, !etag.isEmpty { object["data_etag"] = .string(etag) }
        if response.cancelled { object["cancelled"] = true }
        return .object(object)
    }

    static func path(_ path: [PathSegment]) -> JSONValue {
        .array(
            path.map {
                switch $0 {
                case .field(let name): .string(name)
                case .index(let index): JSONValue(Double(index))
                }
            })
    }

    static func error(_ error: GraphQLError) -> JSONValue {
        var object = JSONObject()
        if !error.message.isEmpty { object["message"] = .string(error.message) }
        if !error.locations.isEmpty {
            object["locations"] = .array(
                error.locations.map { location in
                    var members = JSONObject()
                    if location.line != 0 { members["line"] = JSONValue(location.line) }
                    if location.column != 0 { members["column"] = JSONValue(location.column) }
                    return .object(members)
                })
        }
        if !error.path.isEmpty { object["path"] = path(error.path) }
        if let extensions = error.extensions {
            var members = JSONObject()
            if let file = extensions.other["file"] { members["file"] = file }
            if let code = extensions.code, code != .ok { members["code"] = .string(code.name) }
            if let details = extensions.debugDetails, !details.isEmpty { members["debug_details"] = .string(details) }
            if let resource = extensions.other["resource"] { members["resource"] = resource }
            if let level = extensions.warningLevel { members["warning_level"] = .string(level) }
            if let workarounds = extensions.other["workarounds"] { members["workarounds"] = workarounds }
            object["extensions"] = .object(members)
        }
        return .object(object)
    }

    static func properties(_ properties: DataConnectProperties) -> JSONValue {
        var object = JSONObject()
        if !properties.path.isEmpty { object["path"] = path(properties.path) }
        if let id = properties.entityId { object["entity_id"] = .string(id) }
        if let ids = properties.entityIds, !ids.isEmpty { object["entity_ids"] = .array(ids.map(JSONValue.string)) }
        if let maxAge = properties.maxAge { object["max_age"] = .string(maxAge) }
        if let action = properties.action, action != .unspecified { object["action"] = .string(action.rawValue) }
        return .object(object)
    }

    static func streamRequest(_ request: StreamRequest) -> JSONValue {
        var object = JSONObject()
        if let name = request.name { object["name"] = .string(name) }
        if let id = request.requestId { object["request_id"] = .string(id) }
        func operation(_ operation: StreamRequest.Operation) -> JSONValue {
            ["operation_name": .string(operation.operationName), "variables": .object(operation.variables)]
        }
        switch request.kind {
        case .subscribe(let value)?: object["subscribe"] = operation(value)
        case .execute(let value)?: object["execute"] = operation(value)
        case .resume?: object["resume"] = [:]
        case .cancel?: object["cancel"] = [:]
        case nil: break
        }
        if let etag = request.dataEtag { object["data_etag"] = .string(etag) }
        if let headers = request.headers {
            object["headers"] = .object(JSONObject(headers.map { ($0.key, JSONValue.string($0.value)) }))
        }
        return .object(object)
    }

    static func reflectionRequest(_ request: ServerReflectionRequest) -> JSONValue {
        var object = JSONObject()
        if !request.host.isEmpty { object["host"] = .string(request.host) }
        switch request.kind {
        case .fileByFilename(let name)?: object["file_by_filename"] = .string(name)
        case .fileContainingSymbol(let symbol)?: object["file_containing_symbol"] = .string(symbol)
        case .fileContainingExtension(let type, let number)?:
            object["file_containing_extension"] = [
                "containing_type": .string(type), "extension_number": JSONValue(Int(number)),
            ]
        case .allExtensionNumbersOfType(let type)?: object["all_extension_numbers_of_type"] = .string(type)
        case .listServices(let text)?: object["list_services"] = .string(text)
        case nil: break
        }
        return .object(object)
    }

    static func reflectionResponse(_ response: ServerReflectionResponse) -> JSONValue {
        var object = JSONObject()
        if !response.validHost.isEmpty { object["valid_host"] = .string(response.validHost) }
        if let original = response.originalRequest { object["original_request"] = reflectionRequest(original) }
        switch response.kind {
        case .fileDescriptors(let files)?:
            object["file_descriptor_response"] = [
                "file_descriptor_proto": .array(files.map { .string(Data($0).base64EncodedString()) })
            ]
        case .extensionNumbers(let name, let numbers)?:
            object["all_extension_numbers_response"] = [
                "base_type_name": .string(name), "extension_number": .array(numbers.map { JSONValue(Int($0)) }),
            ]
        case .listServices(let names)?:
            object["list_services_response"] = ["service": .array(names.map { ["name": .string($0)] })]
        case .error(let code, let message)?:
            object["error_response"] = ["error_code": JSONValue(Int(code)), "error_message": .string(message)]
        case nil: break
        }
        return .object(object)
    }
}
