import DataConnectProtobuf
import Testing

@Suite struct ProtoDescriptorIndexTests {
    let index = ProtoDescriptorIndex.bundled

    @Test func holdsEveryProtoAndTheWellKnownTypes() {
        for name in [
            "google/firebase/dataconnect/v1/connector_service.proto",
            "google/firebase/dataconnect/v1beta/graphql_error.proto",
            "google/rpc/code.proto", "grpc/health/v1/health.proto", "grpc/reflection/v1/reflection.proto",
            "grpc/reflection/v1alpha/reflection.proto", "google/protobuf/struct.proto",
            "google/protobuf/duration.proto",
            "google/protobuf/empty.proto",
        ] {
            #expect(index.file(named: name) != nil, "\(name)")
        }
        #expect(index.file(named: "nope.proto") == nil)
    }

    @Test func listsServices() {
        #expect(
            Set(index.serviceNames) == [
                "google.firebase.dataconnect.v1.ConnectorService",
                "google.firebase.dataconnect.v1.ConnectorStreamService",
                "google.firebase.dataconnect.v1beta.ConnectorService",
                "google.firebase.dataconnect.v1beta.ConnectorStreamService", "grpc.health.v1.Health",
                "grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection",
            ])
    }

    @Test(arguments: [
        ("google.firebase.dataconnect.v1.ConnectorService", "google/firebase/dataconnect/v1/connector_service.proto"),
        (
            "google.firebase.dataconnect.v1.ConnectorService.ExecuteQuery",
            "google/firebase/dataconnect/v1/connector_service.proto"
        ),
        (
            "google.firebase.dataconnect.v1.StreamRequest",
            "google/firebase/dataconnect/v1/connector_stream_service.proto"
        ),
        (
            "google.firebase.dataconnect.v1.GraphqlErrorExtensions.Workaround",
            "google/firebase/dataconnect/v1/graphql_error.proto"
        ),
        (
            "google.firebase.dataconnect.v1.GraphqlErrorExtensions.WarningLevel",
            "google/firebase/dataconnect/v1/graphql_error.proto"
        ),
        ("google.firebase.dataconnect.v1.Action", "google/firebase/dataconnect/v1/graphql_response_extensions.proto"),
        ("google.protobuf.Struct.FieldsEntry", "google/protobuf/struct.proto"),
        ("google.rpc.Code", "google/rpc/code.proto"),
        ("grpc.health.v1.HealthCheckResponse.ServingStatus", "grpc/health/v1/health.proto"),
    ])
    func findsTheFileDefiningASymbol(symbol: String, file: String) {
        #expect(index.fileName(definingSymbol: symbol) == file)
        #expect(index.filesContaining(symbol: symbol)?.first == index.file(named: file))
    }

    @Test func answersWithTransitiveDependenciesOnce() throws {
        // connector_service.proto imports graphql_error (struct, code) and graphql_response_extensions (duration, struct)
        let files = try #require(index.filesContaining(symbol: "google.firebase.dataconnect.v1.ConnectorService"))
        let expected = [
            "google/firebase/dataconnect/v1/connector_service.proto",
            "google/firebase/dataconnect/v1/graphql_error.proto",
            "google/firebase/dataconnect/v1/graphql_response_extensions.proto", "google/protobuf/struct.proto",
            "google/rpc/code.proto", "google/protobuf/duration.proto",
        ]
        #expect(files.count == expected.count)
        #expect(Set(files.map { $0 }) == Set(expected.compactMap { index.file(named: $0) }))
        #expect(index.filesContaining(symbol: "no.Such.Symbol") == nil)
        #expect(index.filesWithDependencies(named: "google/protobuf/empty.proto")?.count == 1)
    }

    @Test func refusesMalformedSets() {
        #expect(throws: ProtobufError.self) { try ProtoDescriptorIndex(descriptorSet: [0x0A, 0x05, 0x0A]) }
    }
}
