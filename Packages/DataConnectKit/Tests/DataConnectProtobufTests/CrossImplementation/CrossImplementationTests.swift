import DataConnectProtobuf
import DataConnectWire
import Testing

/// Our codec against Google's Python protobuf, both ways: Python decodes what we encode, and we decode what Python
/// encodes (with unknown fields of every wire type added everywhere), and both read the same raw edge cases alike.
@Suite struct CrossImplementationTests {
    static let v1 = "google.firebase.dataconnect.v1."

    /// One message checked both ways: our bytes decoded by Python must print `expected`; Python's bytes (from
    /// `expected`, with and without unknown fields) decoded by us must give `value` again.
    struct Check {
        var name: String
        var type: String
        var expected: JSONValue
        var ourBytes: [UInt8]
        var decodeOurs: ([UInt8]) throws -> JSONValue
    }

    static func messageChecks() throws -> [Check] {
        var checks: [Check] = []
        for message in ["ExecuteQueryRequest", "ExecuteMutationRequest"] {
            checks.append(
                Check(
                    name: message, type: v1 + message, expected: ProtoJSON.request(Fixtures.request),
                    ourBytes: Fixtures.request.protobufBytes(),
                    decodeOurs: { ProtoJSON.request(try GraphQLRequest(protobuf: $0)) }))
        }
        let responses = [
            Fixtures.response, Fixtures.listAnswer(count: 3), Fixtures.getAnswer, GraphQLResponse(data: nil),
        ]
        for (position, response) in responses.enumerated() {
            for message in ["ExecuteQueryResponse", "ExecuteMutationResponse"] {
                checks.append(
                    Check(
                        name: "\(message) \(position)", type: v1 + message, expected: ProtoJSON.response(response),
                        ourBytes: try response.protobufBytes(),
                        decodeOurs: { ProtoJSON.response(try GraphQLResponse(protobuf: $0)) }))
            }
        }
        for (position, error) in [Fixtures.fullError, Fixtures.bareError].enumerated() {
            checks.append(
                Check(
                    name: "GraphqlError \(position)", type: v1 + "GraphqlError", expected: ProtoJSON.error(error),
                    ourBytes: error.protobufBytes(), decodeOurs: { ProtoJSON.error(try GraphQLError(protobuf: $0)) }))
        }
        for (position, properties) in [Fixtures.listProperties, Fixtures.getProperties].enumerated() {
            checks.append(
                Check(
                    name: "DataConnectProperties \(position)", type: v1 + "DataConnectProperties",
                    expected: ProtoJSON.properties(properties), ourBytes: try properties.protobufBytes(),
                    decodeOurs: { ProtoJSON.properties(try DataConnectProperties(protobuf: $0)) }))
        }
        for (position, request) in Fixtures.streamRequests.enumerated() {
            checks.append(
                Check(
                    name: "StreamRequest \(position)", type: v1 + "StreamRequest",
                    expected: ProtoJSON.streamRequest(request), ourBytes: request.protobufBytes(),
                    decodeOurs: { ProtoJSON.streamRequest(try StreamRequest(protobuf: $0)) }))
        }
        for (position, response) in Fixtures.streamResponses.enumerated() {
            checks.append(
                Check(
                    name: "StreamResponse \(position)", type: v1 + "StreamResponse",
                    expected: ProtoJSON.streamResponse(response), ourBytes: try response.protobufBytes(),
                    decodeOurs: { ProtoJSON.streamResponse(try StreamResponse(protobuf: $0)) }))
        }
        checks.append(
            Check(
                name: "HealthCheckRequest", type: "grpc.health.v1.HealthCheckRequest",
                expected: ["service": "google.firebase.dataconnect.v1.ConnectorService"],
                ourBytes: HealthCheckRequest(service: "google.firebase.dataconnect.v1.ConnectorService")
                    .protobufBytes(),
                decodeOurs: { ["service": .string(try HealthCheckRequest(protobuf: $0).service)] }))
        checks.append(
            Check(
                name: "HealthCheckResponse", type: "grpc.health.v1.HealthCheckResponse",
                expected: ["status": "NOT_SERVING"],
                ourBytes: HealthCheckResponse(status: .notServing).protobufBytes(),
                decodeOurs: { bytes in
                    let names = ["UNKNOWN", "SERVING", "NOT_SERVING", "SERVICE_UNKNOWN"]
                    return ["status": .string(names[Int(try HealthCheckResponse(protobuf: bytes).status.rawValue)])]
                }))
        let index = ProtoDescriptorIndex.bundled
        let reflectionRequests: [ServerReflectionRequest] = [
            .init(host: "localhost", kind: .fileByFilename("google/protobuf/struct.proto")),
            .init(kind: .fileContainingSymbol("google.firebase.dataconnect.v1.ConnectorService")),
            .init(kind: .fileContainingExtension(containingType: "google.protobuf.Struct", extensionNumber: 7)),
            .init(kind: .allExtensionNumbersOfType("google.protobuf.Struct")),
            .init(kind: .listServices("*")),
        ]
        let reflectionResponses: [ServerReflectionResponse] = [
            .init(
                validHost: "localhost", originalRequest: reflectionRequests[0],
                kind: .fileDescriptors(index.filesWithDependencies(named: "google/protobuf/struct.proto") ?? [])),
            .init(
                originalRequest: reflectionRequests[3],
                kind: .extensionNumbers(baseTypeName: "google.protobuf.Struct", numbers: [1, 300, -2])),
            .init(originalRequest: reflectionRequests[4], kind: .listServices(index.serviceNames)),
            .init(originalRequest: reflectionRequests[1], kind: .error(code: 5, message: "symbol not found")),
        ]
        for version in ["v1", "v1alpha"] {
            for (position, request) in reflectionRequests.enumerated() {
                checks.append(
                    Check(
                        name: "ServerReflectionRequest \(version) \(position)",
                        type: "grpc.reflection.\(version).ServerReflectionRequest",
                        expected: ProtoJSON.reflectionRequest(request), ourBytes: request.protobufBytes(),
                        decodeOurs: { ProtoJSON.reflectionRequest(try ServerReflectionRequest(protobuf: $0)) }))
            }
            for (position, response) in reflectionResponses.enumerated() {
                checks.append(
                    Check(
                        name: "ServerReflectionResponse \(version) \(position)",
                        type: "grpc.reflection.\(version).ServerReflectionResponse",
                        expected: ProtoJSON.reflectionResponse(response), ourBytes: response.protobufBytes(),
                        decodeOurs: { ProtoJSON.reflectionResponse(try ServerReflectionResponse(protobuf: $0)) }))
            }
        }
        return checks
    }

    static func structChecks() -> [Check] {
        var generator = SeededGenerator(state: 20_261_201)
        return (0..<240).map { position in
            let object = RandomStructs.object(&generator)
            return Check(
                name: "random Struct \(position)", type: "google.protobuf.Struct", expected: .object(object),
                ourBytes: object.protobufStructBytes(), decodeOurs: { .object(try JSONObject(protobufStruct: $0)) })
        }
    }

    /// Runs checks in one Python process: decode ours, encode theirs, encode theirs with unknown fields.
    static func verify(_ checks: [Check]) throws {
        var cases: [PythonPeer.Case] = []
        for check in checks {
            cases.append(.decode(check.type, check.ourBytes))
            cases.append(.encode(check.type, check.expected))
            cases.append(.encode(check.type, check.expected, unknownFields: true))
        }
        let answers = try PythonPeer.run(cases)
        for (position, check) in checks.enumerated() {
            let comment = Comment(rawValue: check.name)
            switch answers[3 * position] {
            case .json(let decoded): #expect(decoded == check.expected, comment)
            case let other: Issue.record("Python did not decode our \(check.name): \(other)")
            }
            for answer in answers[(3 * position + 1)...(3 * position + 2)] {
                guard case .bytes(let theirs) = answer else {
                    Issue.record("Python did not encode \(check.name): \(answer)")
                    continue
                }
                #expect(try check.decodeOurs(theirs) == check.expected, comment)
            }
        }
    }

    @Test func everyMessageTravelsBothWays() throws {
        try Self.verify(Self.messageChecks())
    }

    @Test func randomStructsTravelBothWays() throws {
        try Self.verify(Self.structChecks())
    }

    /// Raw bytes both implementations must read alike: map entries without a key or a value, a repeated oneof
    /// (last wins), a negative int32 in ten bytes, an embedded message sent twice (merged).
    @Test func rawEdgeCasesReadAlike() throws {
        let subscribe = StreamRequest(requestId: "1", kind: .subscribe(.init(operationName: "A", variables: ["x": 1])))
        let execute = StreamRequest(requestId: "2", kind: .execute(.init(operationName: "B")))
        let v1 = Self.v1
        let cases: [(String, [UInt8], ([UInt8]) throws -> JSONValue)] = [
            // headers entries: key only, value only, then a repeated key.
            (
                v1 + "StreamRequest",
                [0x52, 0x03, 0x0A, 0x01, 0x6B, 0x52, 0x03, 0x12, 0x01, 0x76]
                    + [0x52, 0x06, 0x0A, 0x01, 0x6B, 0x12, 0x01, 0x77],
                { ProtoJSON.streamRequest(try StreamRequest(protobuf: $0)) }
            ),
            // subscribe then execute: execute wins.
            (
                v1 + "StreamRequest", subscribe.protobufBytes() + execute.protobufBytes(),
                { ProtoJSON.streamRequest(try StreamRequest(protobuf: $0)) }
            ),
            // execute then subscribe then subscribe again: the two subscribes merge.
            (
                v1 + "StreamRequest",
                execute.protobufBytes() + subscribe.protobufBytes()
                    + StreamRequest(requestId: nil, kind: .subscribe(.init(operationName: "", variables: ["y": "z"])))
                    .protobufBytes(),
                { ProtoJSON.streamRequest(try StreamRequest(protobuf: $0)) }
            ),
            // Struct entries: key without value (null), value without key (""), and a Value without a kind.
            (
                "google.protobuf.Struct",
                [0x0A, 0x03, 0x0A, 0x01, 0x61, 0x0A, 0x04, 0x12, 0x02, 0x20, 0x01]
                    + [0x0A, 0x05, 0x0A, 0x01, 0x62, 0x12, 0x00],
                { .object(try JSONObject(protobufStruct: $0)) }
            ),
            // SourceLocation.line = -1 in ten bytes.
            (
                "google.firebase.dataconnect.v1.GraphqlError",
                [0x12, 0x0D, 0x08] + [UInt8](repeating: 0xFF, count: 9) + [0x01, 0x10, 0x02],
                { ProtoJSON.error(try GraphQLError(protobuf: $0)) }
            ),
            // extensions twice: the two merge.
            (
                "google.firebase.dataconnect.v1.GraphqlError",
                GraphQLError(message: "m", extensions: .init(code: .notFound)).protobufBytes()
                    + GraphQLError(message: "", extensions: .init(debugDetails: "d")).protobufBytes(),
                { ProtoJSON.error(try GraphQLError(protobuf: $0)) }
            ),
        ]
        let answers = try PythonPeer.run(cases.map { PythonPeer.Case.decode($0.0, $0.1) })
        for (position, (type, bytes, decode)) in cases.enumerated() {
            guard case .json(let theirs) = answers[position] else {
                Issue.record("Python did not decode case \(position) (\(type)): \(answers[position])")
                continue
            }
            #expect(try decode(bytes) == theirs, "case \(position) (\(type))")
        }
    }
}
