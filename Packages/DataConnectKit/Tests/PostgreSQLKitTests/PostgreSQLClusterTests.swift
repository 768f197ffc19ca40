import Foundation
import PostgreSQLKit
import PostgreSQLTesting
import Testing

@Suite struct PostgreSQLClusterTests {
    @Test func stopRemovesTheClusterDirectory() throws {
        // given a running throwaway cluster
        let cluster = try PostgreSQLCluster.start(name: "lifecycle")
        #expect(FileManager.default.fileExists(atPath: cluster.directory + "/owner.pid"))
        #expect(FileManager.default.fileExists(atPath: cluster.dataDirectory + "/PG_VERSION"))
        #expect(cluster.url == "postgres://postgres@127.0.0.1:\(cluster.port)/postgres?sslmode=disable")
        _ = try PGConnection(cluster.url)

        // when it stops
        cluster.stop()

        // then the server is gone and so is its directory
        #expect(!FileManager.default.fileExists(atPath: cluster.directory))
        #expect(throws: PGError.self) { try PGConnection(cluster.url) }
    }

    @Test func createsDatabases() throws {
        // given the shared cluster
        let cluster = try PostgreSQLCluster.shared()

        // when creating a database
        let name = "created_\(UInt32.random(in: 0...UInt32.max))"
        let url = try cluster.createDatabase(name)

        // then its URL connects to it
        #expect(url == cluster.url(database: name))
        #expect(try PGConnection(url).databaseName == name)
        #expect(try PostgreSQLCluster.shared() === cluster)
    }

    @Test func removesClustersOfDeadProcesses() throws {
        // given a cluster directory whose owner is gone (a process ID above any kernel's pid_max)
        let stale = PostgreSQLCluster.temporaryRoot + "/dataconnect-pg-stale-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: stale, withIntermediateDirectories: false)
        try "2147483646\n".write(toFile: stale + "/owner.pid", atomically: false, encoding: .utf8)

        // when another cluster starts
        let cluster = try PostgreSQLCluster.start(name: "sweeper")
        defer { cluster.stop() }

        // then the stale directory is gone
        #expect(!FileManager.default.fileExists(atPath: stale))
    }

    @Test func persistentClusterSurvivesStop() throws {
        // given an empty directory
        let directory = "/tmp/dataconnect-dev-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let port = try PostgreSQLCluster.freePort()

        // when a persistent cluster starts there, starts again, and stops twice
        let cluster = try PostgreSQLCluster.start(persistentAt: directory, port: port)
        try PGConnection(cluster.url).execute("CREATE TABLE survives(id int)")
        let again = try PostgreSQLCluster.start(persistentAt: directory, port: 1)
        let stopped = try PostgreSQLCluster.stop(persistentAt: directory)
        let stoppedAgain = try PostgreSQLCluster.stop(persistentAt: directory)

        // then the second start found the running server, and the data outlived the stop
        #expect(cluster.port == port)
        #expect(again.port == port)
        #expect(stopped)
        #expect(!stoppedAgain)
        #expect(FileManager.default.fileExists(atPath: directory + "/data/PG_VERSION"))
        let restarted = try PostgreSQLCluster.start(persistentAt: directory, port: port)
        #expect(try PGConnection(restarted.url).query("SELECT count(*) FROM survives").int64(row: 0, column: 0) == 0)
        try PostgreSQLCluster.stop(persistentAt: directory)
    }
}
