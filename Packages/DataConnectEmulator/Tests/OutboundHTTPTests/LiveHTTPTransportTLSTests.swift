import DataConnectTestSupport
import DataConnectWire
import Foundation
import Testing

@testable import OutboundHTTP

/// The live transport over HTTPS, against a local TLS server whose certificate a test CA signed: what verifies,
/// what does not, and how each failure reads.
@Suite(.serialized) final class LiveHTTPTransportTLSTests {
    let certificates: TestCertificates
    let server: TLSTestServer

    init() throws {
        certificates = try TestCertificates()
        server = try TLSTestServer(certificates: certificates)
    }

    deinit {
        server.stop()
        certificates.remove()
    }

    @Test func speaksHTTPSToAServerTheExtraCAVouchesFor() throws {
        // given a transport that trusts the test CA besides the system's
        let transport = LiveHTTPTransport(additionalCAFile: certificates.caFile)

        // when a POST goes to the server by its name
        let response = try transport.send(
            OutboundRequest(url: "https://localhost:\(server.port)/v1/embeddings?x=1", body: Array("{}".utf8)),
            deadline: HangGuard.deadline)

        // then the server got the request over TLS, with the name as SNI and the port in Host
        #expect(response.status == 200)
        let seen = try JSONValue(parsing: response.body)
        #expect(seen["method"] == "POST")
        #expect(seen["path"] == "/v1/embeddings?x=1")
        #expect(seen["body"] == "{}")
        #expect(seen["sni"] == "localhost")
        #expect(seen["host"]?.stringValue == "localhost:\(server.port)")
    }

    @Test func reusesItsTLSSettingsAcrossRequests() throws {
        let transport = LiveHTTPTransport(additionalCAFile: certificates.caFile)
        for _ in 0..<3 {
            let response = try transport.send(
                OutboundRequest(method: "GET", url: "https://localhost:\(server.port)/"), deadline: HangGuard.deadline)
            #expect(response.status == 200)
        }
    }

    @Test func refusesACertificateAnotherCASigned() {
        // given a transport that trusts another CA (and the system's, which know neither)
        let transport = LiveHTTPTransport(additionalCAFile: certificates.otherCAFile)

        // when / then the handshake fails, saying the certificate does not verify and why
        #expect {
            try transport.send(OutboundRequest(url: "https://localhost:\(server.port)/"), deadline: HangGuard.deadline)
        } throws: { error in
            guard case .broken(let reason) = error as? OutboundHTTPError else { return false }
            return reason.contains("localhost:\(server.port)") && reason.contains("certificate does not verify")
                && reason.contains("unable to get local issuer certificate")
        }
    }

    @Test func theSystemStoreAloneDoesNotVouchForATestCA() {
        #expect {
            try LiveHTTPTransport().send(
                OutboundRequest(url: "https://localhost:\(server.port)/"), deadline: HangGuard.deadline)
        } throws: { error in
            guard case .broken(let reason) = error as? OutboundHTTPError else { return false }
            return reason.contains("certificate does not verify")
        }
    }

    @Test func refusesACertificateThatDoesNotNameTheHost() {
        // given the trusted certificate, which names localhost only, reached by its address
        let transport = LiveHTTPTransport(additionalCAFile: certificates.caFile)

        // when / then
        #expect {
            try transport.send(OutboundRequest(url: "https://127.0.0.1:\(server.port)/"), deadline: HangGuard.deadline)
        } throws: { error in
            guard case .broken(let reason) = error as? OutboundHTTPError else { return false }
            return reason.contains("certificate does not verify") && reason.contains("mismatch")
        }
    }

    @Test func aCAFileThatCannotBeLoadedIsUnsupported() {
        let transport = LiveHTTPTransport(additionalCAFile: certificates.directory.appendingPathComponent("none").path)
        #expect {
            try transport.send(OutboundRequest(url: "https://localhost:\(server.port)/"), deadline: HangGuard.deadline)
        } throws: { error in
            guard case .unsupported(let reason) = error as? OutboundHTTPError else { return false }
            return reason.contains("cannot load the CA file")
        }
    }

    @Test func aPlainHTTPServerFailsTheHandshake() throws {
        // given a server that speaks plain HTTP at once
        let plain = try ScriptedServer(.blurt(Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8)))
        defer { plain.stop() }

        // when / then
        #expect {
            try LiveHTTPTransport().send(
                OutboundRequest(url: "https://127.0.0.1:\(plain.port)/"), deadline: HangGuard.deadline)
        } throws: { error in
            guard case .broken(let reason) = error as? OutboundHTTPError else { return false }
            return reason.contains("TLS handshake with 127.0.0.1:\(plain.port) failed")
        }
    }

    @Test func aServerThatNeverShakesHandsTimesOut() throws {
        // given a server that takes the connection and never answers
        let silent = try ScriptedServer(.silence)
        defer { silent.stop() }

        // when / then the handshake gives up at the deadline
        #expect(throws: OutboundHTTPError.timedOut) {
            try LiveHTTPTransport().send(
                OutboundRequest(url: "https://127.0.0.1:\(silent.port)/"), deadline: .now + .milliseconds(200))
        }
    }
}
