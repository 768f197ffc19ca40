import DataConnectTestSupport
import DataConnectTesting
import DataConnectWire
import Foundation
import Testing

/// The persistent cache across processes: written by one, read by the next with the emulator stopped, and
/// rebuilt when its file is damaged.
@Suite struct PersistentCacheTests {
    struct ProbeResult {
        var status: Int32
        var json: JSONValue
        var errors: String
    }

    /// Runs `CacheProbe` (built next to the test runner) and parses its JSON line.
    static func probe(
        _ folder: String, _ address: String, _ policy: String, maxAge: Int = 3600
    ) async throws -> ProbeResult {
        let result = try await ChildProcess.run(
            BuiltExecutable.require("CacheProbe"), [folder, address, policy, String(maxAge)])
        let json = (try? JSONValue(parsing: Array(result.standardOutput.utf8))) ?? .null
        return ProbeResult(status: result.exitStatus ?? -1, json: json, errors: result.standardError)
    }

    static func temporaryFolder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("dc-persist-\(UUID())").path
    }

    @Test func aCacheWrittenByOneProcessServesTheNextWithTheServerStopped() async throws {
        // given: processes fill two caches from a live emulator, one fresh for an hour, one stale at once;
        // then the emulator stops
        let fresh = Self.temporaryFolder()
        let stale = Self.temporaryFolder()
        defer { for folder in [fresh, stale] { try? FileManager.default.removeItem(atPath: folder) } }
        let backend = try RepositoryPaths.moviesBackend()
        var emulator: TestEmulator? = try TestEmulator(backend: backend, seedFile: backend + "/seed_data.gql")
        let address = "127.0.0.1:\(emulator!.port)"
        let first = try await Self.probe(fresh, address, "serverOnly")
        _ = try await Self.probe(stale, address, "serverOnly", maxAge: 0)
        emulator?.stop()
        emulator = nil

        // when: new processes ask with the server gone
        let cacheOnly = try await Self.probe(fresh, address, "cacheOnly")
        let preferFresh = try await Self.probe(fresh, address, "preferCache")
        let staleOffline = try await Self.probe(stale, address, "staleIfOffline", maxAge: 0)
        let preferStale = try await Self.probe(stale, address, "preferCache", maxAge: 0)

        // then
        #expect(first.json["source"] == "server", "\(first.errors)")
        let titles = try #require(first.json["titles"]?.arrayValue)
        #expect(titles.count > 3)
        #expect(cacheOnly.json["source"] == "cache")
        #expect(cacheOnly.json["titles"]?.arrayValue == titles)
        #expect(preferFresh.json["source"] == "cache" && preferFresh.json["isStale"] == false)
        #expect(staleOffline.json["source"] == "cache" && staleOffline.json["isStale"] == true)
        #expect(staleOffline.json["titles"]?.arrayValue == titles)
        #expect(preferStale.status == 1, "a stale result without the stale opt-in is a connection error")
        #expect(preferStale.json["error"]?.stringValue?.contains("unavailable") == true, "\(preferStale.json)")
    }

    @Test(arguments: ["truncated", "garbage"])
    func aDamagedCacheFileIsSetAsideAndRebuilt(damage: String) async throws {
        // given: a cache file, then damaged
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let backend = try RepositoryPaths.moviesBackend()
        let emulator = try TestEmulator(backend: backend, seedFile: backend + "/seed_data.gql")
        let address = "127.0.0.1:\(emulator.port)"
        _ = try await Self.probe(folder, address, "serverOnly")
        let file = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasSuffix(".sqlite3") })
        let path = folder + "/" + file
        let original = try #require(FileManager.default.contents(atPath: path))
        // The process ended without a checkpoint, so the rows sit in the WAL; losing it and cutting the main
        // file short leaves a header with a valid version and no schema.
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        if damage == "truncated" {
            try original.prefix(original.count / 3).write(to: URL(fileURLWithPath: path))
        } else {
            try Data((0..<original.count).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(
                to: URL(fileURLWithPath: path))
        }

        // when: the next process starts
        let afterDamage = try await Self.probe(folder, address, "cacheOnly")
        let refill = try await Self.probe(folder, address, "preferCache")
        let again = try await Self.probe(folder, address, "cacheOnly")

        // then: a warning, a miss, no crash; the rebuilt cache works; the damaged file is kept aside
        #expect(afterDamage.status == 0, "\(afterDamage.errors)")
        #expect(afterDamage.json["source"] == "cache" && afterDamage.json["hasData"] == false)
        #expect(afterDamage.errors.contains("warning"), "\(afterDamage.errors)")
        #expect(refill.json["source"] == "server")
        #expect(again.json["source"] == "cache" && again.json["hasData"] == true)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(names.contains { $0.contains(".corrupt-") }, "\(names)")
    }
}
