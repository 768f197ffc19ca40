import DataConnectProtobuf
import DataConnectWire
import Testing

@Suite struct RequestMessageTests {
    @Test func executeRequestRoundTrips() throws {
        let bytes = Fixtures.request.protobufBytes()
        #expect(try GraphQLRequest(protobuf: bytes) == Fixtures.request)
    }

    @Test func absentVariablesReadAsEmpty() throws {
        var writer = ProtobufWriter()
        writer.writeString(2, "ListMovies")
        #expect(try GraphQLRequest(protobuf: writer.bytes) == GraphQLRequest(name: "", operationName: "ListMovies"))
    }

    @Test func emptyOperationNameIsRefused() {
        #expect(throws: ProtobufError(.invalidValue, "operation_name must not be empty", path: ["operation_name"])) {
            try GraphQLRequest(protobuf: [0x0A, 0x01, 0x6E])
        }
    }

    @Test func errorsNameTheField() {
        // variables { fields { key: "title" value { string_value: <invalid UTF-8> } } }
        let bytes: [UInt8] =
            [0x12, 0x01, 0x51, 0x1A, 0x0F, 0x0A, 0x0D, 0x0A, 0x05] + Array("title".utf8)
            + [0x12, 0x04, 0x1A, 0x02, 0xC3, 0x28]
        do {
            _ = try GraphQLRequest(protobuf: bytes)
            Issue.record("invalid UTF-8 was accepted")
        } catch {
            #expect(error.description == #"string field is not valid UTF-8 at variables.fields["title"].string_value"#)
        }
    }

    @Test(arguments: Fixtures.streamRequests)
    func streamRequestRoundTrips(request: StreamRequest) throws {
        #expect(try StreamRequest(protobuf: request.protobufBytes()) == request)
    }

    @Test func iOSOpeningMessageHasNoKind() throws {
        var writer = ProtobufWriter()
        writer.writeString(1, Fixtures.connector)
        writer.writeString(2, "7")
        let request = try StreamRequest(protobuf: writer.bytes)
        #expect(request == StreamRequest(requestId: "7", kind: nil, name: Fixtures.connector))
    }

    @Test func tokenRefreshCarriesOnlyHeaders() throws {
        var writer = ProtobufWriter()
        writer.message(10) { entry in
            entry.writeString(1, "X-Firebase-Auth-Token")
            entry.writeString(2, "fresh")
        }
        let request = try StreamRequest(protobuf: writer.bytes)
        #expect(request == StreamRequest(requestId: nil, kind: nil, headers: ["X-Firebase-Auth-Token": "fresh"]))
        #expect(request.authToken == "fresh")
    }

    @Test func lastOneofWins() throws {
        let subscribe = StreamRequest(requestId: "1", kind: .subscribe(.init(operationName: "A")))
        let cancel = StreamRequest(requestId: "1", kind: .cancel)
        #expect(try StreamRequest(protobuf: subscribe.protobufBytes() + cancel.protobufBytes()).kind == .cancel)
        #expect(try StreamRequest(protobuf: cancel.protobufBytes() + subscribe.protobufBytes()) == subscribe)
    }

    @Test func emptyStreamOperationNameIsRefused() {
        let request = StreamRequest(requestId: "1", kind: .execute(.init(operationName: "")))
        #expect(
            throws: ProtobufError(
                .invalidValue, "operation_name must not be empty", path: ["execute", "operation_name"])
        ) {
            try StreamRequest(protobuf: request.protobufBytes())
        }
    }

    @Test func defaultsWriteNothing() {
        #expect(StreamRequest(requestId: nil, kind: nil).protobufBytes() == [])
        #expect(StreamRequest(requestId: "", kind: nil, name: "", dataEtag: "").protobufBytes() == [])
        #expect(HealthCheckRequest().protobufBytes() == [])
        #expect(HealthCheckResponse(status: .unknown).protobufBytes() == [])
    }
}

@Suite struct ResponseMessageTests {
    @Test func executeResponseRoundTrips() throws {
        let decoded = try GraphQLResponse(protobuf: Fixtures.response.protobufBytes())
        #expect(decoded == Fixtures.response)
    }

    @Test func defaultsWriteNothing() throws {
        #expect(try GraphQLResponse(data: nil).protobufBytes() == [])
        #expect(try GraphQLResponse(data: .null).protobufBytes() == [])
        #expect(try GraphQLResponse(protobuf: []) == GraphQLResponse(data: nil))
        #expect(GraphQLError(message: "").protobufBytes() == [])
        #expect(try DataConnectProperties(path: [], entityIds: [], action: .unspecified).protobufBytes() == [])
    }

    @Test func emptyExtensionsStayPresent() throws {
        let error = GraphQLError(message: "m", extensions: .init())
        #expect(error.protobufBytes() == [0x0A, 0x01, 0x6D, 0x22, 0x00])
        #expect(try GraphQLError(protobuf: error.protobufBytes()) == error)
    }

    @Test func errorCodeTravelsAsItsNumber() throws {
        let bytes = Fixtures.bareError.protobufBytes()
        // extensions { code: NOT_FOUND (5) }
        #expect(bytes.suffix(4) == [0x22, 0x02, 0x10, 0x05])
        var unknownCode = ProtobufWriter()
        unknownCode.message(4) { $0.writeUInt64(2, 99) }
        #expect(try GraphQLError(protobuf: unknownCode.bytes).extensions?.code == .unknown)
    }

    @Test func dataMustBeAnObject() {
        #expect(throws: ProtobufError.self) { try GraphQLResponse(data: [1, 2]).protobufBytes() }
    }

    @Test func maxAgeMustBeADuration() {
        let response = GraphQLResponse(data: [:], extensions: .init(dataConnect: [.init(path: [], maxAge: "soon")]))
        do {
            _ = try response.protobufBytes()
            Issue.record("a malformed max age was written")
        } catch {
            #expect(
                error.description
                    == #"max age "soon" is not a duration such as "30s" at extensions.data_connect[0].max_age"#)
        }
    }

    @Test func pathElementsMustBeStringsOrIntegers() {
        var writer = ProtobufWriter()
        writer.message(3) { list in
            list.message(1) { $0.writeDouble(2, 1.5) }
        }
        do {
            _ = try GraphQLError(protobuf: writer.bytes)
            Issue.record("a fractional path index was accepted")
        } catch {
            #expect(error.kind == .invalidValue)
            #expect(error.fieldPath == "path.values[0]")
        }
    }

    @Test(arguments: Fixtures.streamResponses)
    func streamResponseRoundTrips(response: StreamResponse) throws {
        #expect(try StreamResponse(protobuf: response.protobufBytes()) == response)
    }

    @Test func streamResponsePartsShareEverythingButTheRequestId() throws {
        // given
        let parts = try StreamResponseParts(response: Fixtures.getAnswer, dataEtag: "e1", cancelled: false)
        // when
        let first = parts.message(requestId: "1")
        let second = parts.message(requestId: "22")
        // then
        #expect(first == [0x0A, 0x01, 0x31] + parts.sharedFields)
        #expect(second == [0x0A, 0x02, 0x32, 0x32] + parts.sharedFields)
        let expected = StreamResponse(
            requestId: "22", data: Fixtures.getAnswer.data, extensions: Fixtures.getAnswer.extensions, dataEtag: "e1")
        #expect(try StreamResponse(protobuf: second) == expected)
        #expect(try expected.protobufBytes() == second)
    }
}

@Suite struct HealthAndReflectionMessageTests {
    @Test func healthMessagesRoundTrip() throws {
        let request = HealthCheckRequest(service: "grpc.health.v1.Health")
        #expect(try HealthCheckRequest(protobuf: request.protobufBytes()) == request)
        for status in HealthCheckResponse.ServingStatus.allCases {
            #expect(
                try HealthCheckResponse(protobuf: HealthCheckResponse(status: status).protobufBytes()).status == status)
        }
        #expect(try HealthCheckResponse(protobuf: [0x08, 0x09]).status == .unknown)
    }

    @Test func reflectionMessagesRoundTrip() throws {
        let requests: [ServerReflectionRequest] = [
            .init(host: "h", kind: .fileByFilename("a.proto")),
            .init(kind: .fileContainingSymbol("pkg.Service.Method")),
            .init(kind: .fileContainingExtension(containingType: "pkg.M", extensionNumber: -3)),
            .init(kind: .allExtensionNumbersOfType("pkg.M")),
            .init(kind: .listServices("")),
            .init(kind: nil),
        ]
        for request in requests {
            #expect(try ServerReflectionRequest(protobuf: request.protobufBytes()) == request)
        }
        let responses: [ServerReflectionResponse] = [
            .init(validHost: "h", originalRequest: requests[0], kind: .fileDescriptors([[1, 2], [], [3]])),
            .init(originalRequest: requests[3], kind: .extensionNumbers(baseTypeName: "pkg.M", numbers: [1, -1, 500])),
            .init(originalRequest: requests[4], kind: .listServices(["a.B", "c.D"])),
            .init(originalRequest: nil, kind: .error(code: 5, message: "not found")),
        ]
        for response in responses {
            #expect(try ServerReflectionResponse(protobuf: response.protobufBytes()) == response)
        }
    }

    @Test func lastReflectionRequestKindWins() throws {
        let first = ServerReflectionRequest(kind: .fileByFilename("a.proto")).protobufBytes()
        let second = ServerReflectionRequest(kind: .listServices("*")).protobufBytes()
        #expect(try ServerReflectionRequest(protobuf: first + second).kind == .listServices("*"))
    }
}
