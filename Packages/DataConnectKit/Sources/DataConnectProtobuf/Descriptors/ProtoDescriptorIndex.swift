/// The files of a serialized `google.protobuf.FileDescriptorSet`, found by name or by a symbol they define: what a
/// gRPC reflection service answers with.
///
/// Only what reflection needs is read from each `FileDescriptorProto`: `name = 1`, `package = 2`,
/// `dependency = 3`, `message_type = 4` (`DescriptorProto`: `name = 1`, `nested_type = 3`, `enum_type = 4`),
/// `enum_type = 5` and `service = 6` (`ServiceDescriptorProto`: `name = 1`, `method = 2` with `name = 1`). The
/// files themselves are kept as the bytes they came as.
///
/// ```swift
/// let index = ProtoDescriptorIndex.bundled
/// index.serviceNames  // ["google.firebase.dataconnect.v1.ConnectorService", …]
/// let files = index.filesContaining(symbol: "google.firebase.dataconnect.v1.ConnectorService.ExecuteQuery")
/// // the connector_service.proto bytes first, then every file it imports, transitively
/// ```
public struct ProtoDescriptorIndex: Sendable {
    /// One file of the set.
    struct File: Sendable {
        var name: String
        var bytes: [UInt8]
        var dependencies: [String]
    }

    /// The files, in the set's order.
    private var files: [File] = []
    /// File positions by file name.
    private var filesByName: [String: Int] = [:]
    /// File positions by fully-qualified symbol: messages (nested too), enums, services and methods.
    private var filesBySymbol: [String: Int] = [:]

    /// The fully-qualified names of the services the files define, in file order.
    public private(set) var serviceNames: [String] = []

    /// The index of every file under `Packages/DataConnectKit/Protos` and the `google/protobuf` files they
    /// import, as `generate_descriptors.sh` compiled them.
    public static let bundled: ProtoDescriptorIndex = {
        do {
            return try ProtoDescriptorIndex(descriptorSet: decodeHex(descriptorSetHex))
        } catch {
            preconditionFailure("the generated descriptor set does not read: \(error)")
        }
    }()

    /// Reads a serialized `FileDescriptorSet` (`repeated FileDescriptorProto file = 1`).
    ///
    /// - Throws: ``ProtobufError`` for malformed bytes.
    public init(descriptorSet bytes: [UInt8]) throws(ProtobufError) {
        var reader = ProtobufReader(bytes)
        while let (field, wireType) = try reader.nextField() {
            guard field == 1, wireType == .lengthDelimited else {
                try reader.skipField(wireType)
                continue
            }
            do throws(ProtobufError) {
                try add(fileBytes: reader.readBytes())
            } catch {
                throw error.within("[\(files.count)]").within("file")
            }
        }
    }

    /// The names of the files, in the set's order.
    public var fileNames: [String] { files.map(\.name) }

    /// The serialized `FileDescriptorProto` named `name` (e.g. `google/protobuf/struct.proto`), or `nil`.
    public func file(named name: String) -> [UInt8]? {
        filesByName[name].map { files[$0].bytes }
    }

    /// The file named `name`, then every file it imports, transitively, each once; `nil` when there is no such
    /// file.
    public func filesWithDependencies(named name: String) -> [[UInt8]]? {
        filesByName[name].map(withDependencies)
    }

    /// The file defining `symbol` (a fully-qualified service, method, message, nested message or enum, without a
    /// leading dot), then every file it imports, transitively, each once; `nil` when no file defines it.
    public func filesContaining(symbol: String) -> [[UInt8]]? {
        let name = symbol.hasPrefix(".") ? String(symbol.dropFirst()) : symbol
        return filesBySymbol[name].map(withDependencies)
    }

    /// The name of the file defining `symbol`, or `nil`.
    public func fileName(definingSymbol symbol: String) -> String? {
        filesBySymbol[symbol].map { files[$0].name }
    }

    private func withDependencies(_ position: Int) -> [[UInt8]] {
        var seen: Set<Int> = [position]
        var order = [position]
        var next = 0
        while next < order.count {
            for dependency in files[order[next]].dependencies {
                if let found = filesByName[dependency], seen.insert(found).inserted {
                    order.append(found)
                }
            }
            next += 1
        }
        return order.map { files[$0].bytes }
    }

    // MARK: Reading descriptors

    private mutating func add(fileBytes: [UInt8]) throws(ProtobufError) {
        let position = files.count
        var reader = ProtobufReader(fileBytes)
        var name = ""
        var package = ""
        var dependencies: [String] = []
        var symbols: [String] = []
        var services: [String] = []
        while let (field, wireType) = try reader.nextField() {
            switch (field, wireType) {
            case (1, .lengthDelimited): name = try reader.readString()
            case (2, .lengthDelimited): package = try reader.readString()
            case (3, .lengthDelimited): dependencies.append(try reader.readString())
            case (4, .lengthDelimited):
                var message = try reader.readMessage()
                try Self.collectMessage(&message, scope: nil, into: &symbols)
            case (5, .lengthDelimited):
                var enumeration = try reader.readMessage()
                symbols.append(try Self.readName(&enumeration))
            case (6, .lengthDelimited):
                var service = try reader.readMessage()
                let (serviceName, methods) = try Self.readService(&service)
                services.append(serviceName)
                symbols.append(serviceName)
                symbols += methods.map { "\(serviceName).\($0)" }
            default: try reader.skipField(wireType)
            }
        }
        let prefix = package.isEmpty ? "" : package + "."
        files.append(File(name: name, bytes: fileBytes, dependencies: dependencies))
        filesByName[name] = position
        for symbol in symbols { filesBySymbol[prefix + symbol] = position }
        serviceNames += services.map { prefix + $0 }
    }

    /// Adds a message's name, and those of its nested messages and enums, scoped by the enclosing messages.
    private static func collectMessage(
        _ reader: inout ProtobufReader, scope: String?, into symbols: inout [String]
    ) throws(ProtobufError) {
        var name = ""
        var nested: [ProtobufReader] = []
        var enums: [String] = []
        while let (field, wireType) = try reader.nextField() {
            switch (field, wireType) {
            case (1, .lengthDelimited): name = try reader.readString()
            case (3, .lengthDelimited): nested.append(try reader.readMessage())
            case (4, .lengthDelimited):
                var enumeration = try reader.readMessage()
                enums.append(try readName(&enumeration))
            default: try reader.skipField(wireType)
            }
        }
        let qualified = scope.map { "\($0).\(name)" } ?? name
        symbols.append(qualified)
        symbols += enums.map { "\(qualified).\($0)" }
        for var message in nested {
            try collectMessage(&message, scope: qualified, into: &symbols)
        }
    }

    /// A service's name and its methods' names.
    private static func readService(_ reader: inout ProtobufReader) throws(ProtobufError) -> (String, [String]) {
        var name = ""
        var methods: [String] = []
        while let (field, wireType) = try reader.nextField() {
            switch (field, wireType) {
            case (1, .lengthDelimited): name = try reader.readString()
            case (2, .lengthDelimited):
                var method = try reader.readMessage()
                methods.append(try readName(&method))
            default: try reader.skipField(wireType)
            }
        }
        return (name, methods)
    }

    /// The `name = 1` of a descriptor.
    private static func readName(_ reader: inout ProtobufReader) throws(ProtobufError) -> String {
        var name = ""
        while let (field, wireType) = try reader.nextField() {
            if field == 1, wireType == .lengthDelimited {
                name = try reader.readString()
            } else {
                try reader.skipField(wireType)
            }
        }
        return name
    }

    /// The bytes of hexadecimal text; characters other than hexadecimal digits (line breaks) are skipped.
    static func decodeHex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count / 2)
        var high: UInt8?
        for character in text.utf8 {
            let digit: UInt8
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = character - UInt8(ascii: "a") + 10
            default: continue
            }
            if let first = high {
                bytes.append(first << 4 | digit)
                high = nil
            } else {
                high = digit
            }
        }
        return bytes
    }
}
