/// `ServerReflectionRequest` of `grpc.reflection.v1` and `grpc.reflection.v1alpha` (the same field numbers):
/// `host = 1`, then one of `file_by_filename = 3`, `file_containing_symbol = 4`, `file_containing_extension = 5`
/// (`ExtensionRequest { containing_type = 1, extension_number = 2 }`), `all_extension_numbers_of_type = 6`,
/// `list_services = 7`. The last of the oneof wins.
///
/// ```swift
/// let request = try ServerReflectionRequest(protobuf: messageBytes)
/// if case .fileContainingSymbol(let symbol)? = request.kind { … }
/// ```
public struct ServerReflectionRequest: Hashable, Sendable {
    /// What the client asks for.
    public enum Kind: Hashable, Sendable {
        /// The file with this name, e.g. `google/firebase/dataconnect/v1/connector_service.proto`.
        case fileByFilename(String)
        /// The file defining this fully-qualified symbol, e.g. `google.firebase.dataconnect.v1.ConnectorService`.
        case fileContainingSymbol(String)
        /// The file defining an extension of a message type.
        case fileContainingExtension(containingType: String, extensionNumber: Int32)
        /// The extension numbers of a message type.
        case allExtensionNumbersOfType(String)
        /// The services the server offers; the string's content is not used.
        case listServices(String)
    }

    /// The host the request is for.
    public var host: String
    /// What is asked; `nil` when the message names nothing.
    public var kind: Kind?

    /// Creates a request.
    public init(host: String = "", kind: Kind?) {
        self.host = host
        self.kind = kind
    }

    /// Reads a serialized request.
    ///
    /// - Throws: ``ProtobufError`` for malformed bytes.
    public init(protobuf bytes: [UInt8]) throws(ProtobufError) {
        var reader = ProtobufReader(bytes)
        self.init(kind: nil)
        while let (field, wireType) = try reader.nextField() {
            do throws(ProtobufError) {
                switch (field, wireType) {
                case (1, .lengthDelimited):
                    host = try reader.readString()
                case (3, .lengthDelimited):
                    kind = .fileByFilename(try reader.readString())
                case (4, .lengthDelimited):
                    kind = .fileContainingSymbol(try reader.readString())
                case (5, .lengthDelimited):
                    var containingType = ""
                    var number: Int32 = 0
                    if case .fileContainingExtension(let type, let existing)? = kind {
                        (containingType, number) = (type, existing)
                    }
                    var extensionReader = try reader.readMessage()
                    while let (extensionField, extensionWireType) = try extensionReader.nextField() {
                        switch (extensionField, extensionWireType) {
                        case (1, .lengthDelimited): containingType = try extensionReader.readString()
                        case (2, .varint): number = try extensionReader.readInt32()
                        default: try extensionReader.skipField(extensionWireType)
                        }
                    }
                    kind = .fileContainingExtension(containingType: containingType, extensionNumber: number)
                case (6, .lengthDelimited):
                    kind = .allExtensionNumbersOfType(try reader.readString())
                case (7, .lengthDelimited):
                    kind = .listServices(try reader.readString())
                default:
                    try reader.skipField(wireType)
                }
            } catch {
                throw error.within(Self.fieldNames[field] ?? "\(field)")
            }
        }
    }

    /// The request serialized, as a response's `original_request` echoes it.
    public func protobufBytes() -> [UInt8] {
        var writer = ProtobufWriter()
        writeFields(to: &writer)
        return writer.bytes
    }

    func writeFields(to writer: inout ProtobufWriter) {
        if !host.isEmpty { writer.writeString(1, host) }
        switch kind {
        case .fileByFilename(let name)?: writer.writeString(3, name)
        case .fileContainingSymbol(let symbol)?: writer.writeString(4, symbol)
        case .fileContainingExtension(let containingType, let number)?:
            writer.beginMessage(5)
            if !containingType.isEmpty { writer.writeString(1, containingType) }
            if number != 0 { writer.writeInt32(2, number) }
            writer.endMessage()
        case .allExtensionNumbersOfType(let type)?: writer.writeString(6, type)
        case .listServices(let text)?: writer.writeString(7, text)
        case nil: break
        }
    }

    private static let fieldNames = [
        1: "host", 3: "file_by_filename", 4: "file_containing_symbol", 5: "file_containing_extension",
        6: "all_extension_numbers_of_type", 7: "list_services",
    ]
}

/// `ServerReflectionResponse` of `grpc.reflection.v1` and `grpc.reflection.v1alpha`: `valid_host = 1`,
/// `original_request = 2`, then one of `file_descriptor_response = 4` (`repeated bytes file_descriptor_proto = 1`),
/// `all_extension_numbers_response = 5` (`base_type_name = 1`, `repeated int32 extension_number = 2`),
/// `list_services_response = 6` (`repeated ServiceResponse service = 1`, each `name = 1`) and `error_response = 7`
/// (`error_code = 1`, `error_message = 2`).
///
/// ```swift
/// let answer = ServerReflectionResponse(
///     originalRequest: request, kind: .listServices(index.serviceNames)
/// ).protobufBytes()
/// ```
public struct ServerReflectionResponse: Hashable, Sendable {
    /// What the server answers.
    public enum Kind: Hashable, Sendable {
        /// Serialized `FileDescriptorProto`s: the file asked for first, then its dependencies.
        case fileDescriptors([[UInt8]])
        /// The extension numbers of a message type.
        case extensionNumbers(baseTypeName: String, numbers: [Int32])
        /// Fully-qualified service names.
        case listServices([String])
        /// A failure: a `google.rpc.Code` number (5 is `NOT_FOUND`) and a message.
        case error(code: Int32, message: String)
    }

    /// The host the response is for.
    public var validHost: String
    /// The request this answers, echoed.
    public var originalRequest: ServerReflectionRequest?
    /// The answer; `nil` when the message has none.
    public var kind: Kind?

    /// Creates a response.
    public init(validHost: String = "", originalRequest: ServerReflectionRequest?, kind: Kind?) {
        self.validHost = validHost
        self.originalRequest = originalRequest
        self.kind = kind
    }

    /// Reads a serialized response.
    ///
    /// - Throws: ``ProtobufError`` for malformed bytes.
    public init(protobuf bytes: [UInt8]) throws(ProtobufError) {
        var reader = ProtobufReader(bytes)
        self.init(originalRequest: nil, kind: nil)
        while let (field, wireType) = try reader.nextField() {
            do throws(ProtobufError) {
                switch (field, wireType) {
                case (1, .lengthDelimited):
                    validHost = try reader.readString()
                case (2, .lengthDelimited):
                    let previous = originalRequest?.protobufBytes() ?? []
                    originalRequest = try ServerReflectionRequest(protobuf: previous + reader.readBytes())
                case (4, .lengthDelimited):
                    var files: [[UInt8]] = []
                    if case .fileDescriptors(let existing)? = kind { files = existing }
                    var filesReader = try reader.readMessage()
                    while let (filesField, filesWireType) = try filesReader.nextField() {
                        if filesField == 1, filesWireType == .lengthDelimited {
                            files.append(try filesReader.readBytes())
                        } else {
                            try filesReader.skipField(filesWireType)
                        }
                    }
                    kind = .fileDescriptors(files)
                case (5, .lengthDelimited):
                    var baseTypeName = ""
                    var numbers: [Int32] = []
                    if case .extensionNumbers(let name, let existing)? = kind {
                        (baseTypeName, numbers) = (name, existing)
                    }
                    var numbersReader = try reader.readMessage()
                    while let (numbersField, numbersWireType) = try numbersReader.nextField() {
                        switch (numbersField, numbersWireType) {
                        case (1, .lengthDelimited):
                            baseTypeName = try numbersReader.readString()
                        case (2, .varint), (2, .lengthDelimited):
                            numbers += try numbersReader.readRepeatedVarints(numbersWireType).map {
                                Int32(truncatingIfNeeded: $0)
                            }
                        default:
                            try numbersReader.skipField(numbersWireType)
                        }
                    }
                    kind = .extensionNumbers(baseTypeName: baseTypeName, numbers: numbers)
                case (6, .lengthDelimited):
                    var names: [String] = []
                    if case .listServices(let existing)? = kind { names = existing }
                    var servicesReader = try reader.readMessage()
                    while let (servicesField, servicesWireType) = try servicesReader.nextField() {
                        guard servicesField == 1, servicesWireType == .lengthDelimited else {
                            try servicesReader.skipField(servicesWireType)
                            continue
                        }
                        var serviceReader = try servicesReader.readMessage()
                        var name = ""
                        while let (serviceField, serviceWireType) = try serviceReader.nextField() {
                            if serviceField == 1, serviceWireType == .lengthDelimited {
                                name = try serviceReader.readString()
                            } else {
                                try serviceReader.skipField(serviceWireType)
                            }
                        }
                        names.append(name)
                    }
                    kind = .listServices(names)
                case (7, .lengthDelimited):
                    var code: Int32 = 0
                    var message = ""
                    if case .error(let existingCode, let existingMessage)? = kind {
                        (code, message) = (existingCode, existingMessage)
                    }
                    var errorReader = try reader.readMessage()
                    while let (errorField, errorWireType) = try errorReader.nextField() {
                        switch (errorField, errorWireType) {
                        case (1, .varint): code = try errorReader.readInt32()
                        case (2, .lengthDelimited): message = try errorReader.readString()
                        default: try errorReader.skipField(errorWireType)
                        }
                    }
                    kind = .error(code: code, message: message)
                default:
                    try reader.skipField(wireType)
                }
            } catch {
                throw error.within(Self.fieldNames[field] ?? "\(field)")
            }
        }
    }

    /// The response serialized; repeated `extension_number` packed, as proto3 writes it.
    public func protobufBytes() -> [UInt8] {
        var writer = ProtobufWriter()
        if !validHost.isEmpty { writer.writeString(1, validHost) }
        if let originalRequest {
            writer.beginMessage(2)
            originalRequest.writeFields(to: &writer)
            writer.endMessage()
        }
        switch kind {
        case .fileDescriptors(let files)?:
            writer.beginMessage(4)
            for file in files { writer.writeBytes(1, file) }
            writer.endMessage()
        case .extensionNumbers(let baseTypeName, let numbers)?:
            writer.beginMessage(5)
            if !baseTypeName.isEmpty { writer.writeString(1, baseTypeName) }
            if !numbers.isEmpty {
                writer.beginMessage(2)
                for number in numbers { writer.writeVarint(UInt64(bitPattern: Int64(number))) }
                writer.endMessage()
            }
            writer.endMessage()
        case .listServices(let names)?:
            writer.beginMessage(6)
            for name in names {
                writer.beginMessage(1)
                if !name.isEmpty { writer.writeString(1, name) }
                writer.endMessage()
            }
            writer.endMessage()
        case .error(let code, let message)?:
            writer.beginMessage(7)
            if code != 0 { writer.writeInt32(1, code) }
            if !message.isEmpty { writer.writeString(2, message) }
            writer.endMessage()
        case nil:
            break
        }
        return writer.bytes
    }

    private static let fieldNames = [
        1: "valid_host", 2: "original_request", 4: "file_descriptor_response", 5: "all_extension_numbers_response",
        6: "list_services_response", 7: "error_response",
    ]
}
