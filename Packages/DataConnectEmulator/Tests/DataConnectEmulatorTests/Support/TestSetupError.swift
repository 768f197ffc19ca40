/// Why a test could not set up what it tests (a socket, a handshake, seed data): the test fails with this message.
struct TestSetupError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
