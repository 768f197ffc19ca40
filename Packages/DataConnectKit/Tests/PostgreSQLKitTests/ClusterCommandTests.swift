import Testing

@testable import PGCluster

@Suite struct ClusterCommandTests {
    @Test func parsesStartWithAndWithoutAPort() throws {
        #expect(try ClusterCommand.parse(["start", "db"]) == .start(directory: "db", port: 5432))
        #expect(try ClusterCommand.parse(["start", "db", "--port", "5433"]) == .start(directory: "db", port: 5433))
        #expect(try ClusterCommand.parse(["start", "--port=6000", "db"]) == .start(directory: "db", port: 6000))
    }

    @Test func parsesStopAndHelp() throws {
        #expect(try ClusterCommand.parse(["stop", "db"]) == .stop(directory: "db"))
        #expect(try ClusterCommand.parse(["--help"]) == .help)
    }

    @Test(arguments: [
        [], ["start"], ["start", "a", "b"], ["start", "db", "--port"], ["start", "db", "--port", "0"], ["stop"],
        ["launch", "db"],
    ])
    func rejectsMalformedArguments(_ arguments: [String]) {
        #expect(throws: UsageError.self) { try ClusterCommand.parse(arguments) }
    }
}
