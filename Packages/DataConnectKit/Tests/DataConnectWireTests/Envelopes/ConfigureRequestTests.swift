import DataConnectWire
import Testing

/// `POST /emulator/configure` bodies in both spellings, and the first-value reading their senders need.
@Suite struct ConfigureRequestTests {
    @Test func readsTheIntegrationSuitesSnakeCase() throws {
        // given: the body as the SDK's integration suite sends it, with a stray byte after the object
        let bytes = Array(#"{"service_id": "kitchen-sink", "config_directory": "/tmp/dc", "use_dummy": true}}"#.utf8)
        // when
        let (value, end) = try JSONReader().parseFirstValue(bytes)
        let request = try ConfigureRequest(json: value)
        // then
        #expect(end == bytes.count - 1)
        #expect(request == ConfigureRequest(serviceID: "kitchen-sink", configDirectory: "/tmp/dc", useDummy: true))
        #expect(try ConfigureRequest(json: request.toJSON()) == request)
    }

    @Test func readsFirebaseToolsCamelCase() throws {
        let request = try ConfigureRequest(
            json: ["serviceId": "movies", "connectionString": "postgresql://u@h/db", "database": "movies"])
        #expect(
            request
                == ConfigureRequest(serviceID: "movies", connectionString: "postgresql://u@h/db", database: "movies"))
    }

    @Test func wrongTypesAndNonObjectsAreRefusedByName() {
        #expect(throws: WireFormatError.self) { try ConfigureRequest(json: .array([])) }
        do {
            _ = try ConfigureRequest(json: ["use_dummy": "yes"])
            Issue.record("a string use_dummy was accepted")
        } catch {
            #expect(error.field == "use_dummy")
            #expect(error.message.contains("Boolean"))
        }
    }

    @Test func theFirstValueIsStillCheckedStrictly() {
        #expect(throws: JSONError.self) { try JSONReader().parseFirstValue(Array(#"{"a": 01}"#.utf8)) }
        #expect(throws: JSONError.self) { try JSONReader().parseFirstValue([]) }
        #expect(throws: JSONError.self) { try JSONReader().parseFirstValue(Array("   ".utf8)) }
        #expect(throws: JSONError.self) {
            try JSONReader(options: .init(maxInputSize: 4)).parseFirstValue(Array("[1,2,3]".utf8))
        }
    }
}
