import DataConnectTestSupport
import Foundation
import Testing

@testable import OutboundHTTP

/// RS256 signatures checked by the `openssl` command, and the keys the signer refuses.
@Suite struct RS256SignerTests {
    @Test(arguments: ["genpkey", "genrsa"])
    func signaturesVerifyWithThePublicKey(command: String) throws {
        // given an RSA key in PKCS #8 (genpkey) or PKCS #1 (genrsa) PEM, and its public half
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rs256-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        if command == "genpkey" {
            try runTool(
                "openssl", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "key.pem"],
                in: directory)
        } else {
            try runTool("openssl", ["genrsa", "-traditional", "-out", "key.pem", "2048"], in: directory)
        }
        try runTool("openssl", ["pkey", "-in", "key.pem", "-pubout", "-out", "public.pem"], in: directory)
        let pem = try String(contentsOf: directory.appendingPathComponent("key.pem"), encoding: .utf8)
        let message = Array("eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJ4In0".utf8)

        // when
        let signature = try RS256Signer(privateKeyPEM: pem).sign(message)

        // then the signature is as long as the modulus and openssl verifies it
        #expect(signature.count == 256)
        try Data(message).write(to: directory.appendingPathComponent("message"))
        try Data(signature).write(to: directory.appendingPathComponent("signature"))
        try runTool(
            "openssl", ["dgst", "-sha256", "-verify", "public.pem", "-signature", "signature", "message"], in: directory
        )
    }

    @Test func refusesAKeyThatIsNotRSA() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rs256-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try runTool(
            "openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-out", "key.pem"],
            in: directory)
        let pem = try String(contentsOf: directory.appendingPathComponent("key.pem"), encoding: .utf8)
        #expect(throws: SigningError("the private key is not an RSA key")) {
            try RS256Signer(privateKeyPEM: pem)
        }
    }

    @Test func refusesTextThatHoldsNoKey() {
        #expect {
            try RS256Signer(privateKeyPEM: "-----BEGIN PRIVATE KEY-----\nnot base64\n-----END PRIVATE KEY-----\n")
        } throws: { error in
            (error as? SigningError)?.description.hasPrefix("the private key cannot be read") == true
        }
    }
}
