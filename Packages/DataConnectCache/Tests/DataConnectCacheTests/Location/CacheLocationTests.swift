import Testing

@testable import DataConnectCache

@Suite struct CacheLocationTests {
    static let base = CacheLocation(
        storage: "persistent", projectID: "demo-project", appName: "[DEFAULT]", serviceID: "movies",
        connector: "default", location: "us-central1", host: "localhost:9399", userID: nil
    )

    @Test func buildsAStableReadableSafeName() {
        // given the same location twice
        let name = Self.base.fileName

        // then the name is stable, readable, and holds only safe characters
        #expect(name == Self.base.fileName)
        #expect(name.hasPrefix("demo-project-movies-default-"))
        #expect(name.hasSuffix(".sqlite3"))
        #expect(name.count == "demo-project-movies-default-".count + 16 + ".sqlite3".count)
        #expect(name.allSatisfy { $0.isLetter || $0.isNumber || "._-".contains($0) })
        #expect(
            Self.base.identity == "persistent-demo-project-[DEFAULT]-movies-default-us-central1-localhost:9399-anon")
    }

    @Test func differsPerUserAndPerField() {
        // given locations differing in one field each
        var signedIn = Self.base
        signedIn.userID = "uid/with spaces"
        var otherHost = Self.base
        otherHost.host = "example.com"

        // then every file name differs, and unsafe characters are replaced
        #expect(Set([Self.base.fileName, signedIn.fileName, otherHost.fileName]).count == 3)
        var unsafe = Self.base
        unsafe.projectID = "../../etc"
        #expect(!unsafe.fileName.contains("/"))
    }

    @Test func hashesWithFNV1a() {
        // the published 64-bit FNV-1a test vectors
        #expect(CacheLocation.fnv1a64("") == 0xcbf2_9ce4_8422_2325)
        #expect(CacheLocation.fnv1a64("a") == 0xaf63_dc4c_8601_ec8c)
    }

    @Test func defaultsToTheXDGCacheDirectory() {
        // given environments with and without XDG_CACHE_HOME
        let xdg = CacheLocation.defaultDirectory(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/u"])
        let home = CacheLocation.defaultDirectory(environment: ["HOME": "/home/u"])

        // then XDG wins, and HOME/.cache is the fallback
        #expect(xdg == "/x/cache/dataconnect")
        #expect(home == "/home/u/.cache/dataconnect")
        #expect(Self.base.filePath(in: xdg) == "/x/cache/dataconnect/" + Self.base.fileName)
    }
}
