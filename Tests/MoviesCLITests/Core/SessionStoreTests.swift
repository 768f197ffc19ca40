import Foundation
import MoviesCLICore
import Testing

@Suite struct SessionStoreTests {
    @Test func findsTheFolderFromTheEnvironment() {
        #expect(
            SessionStore.directory(environment: ["MOVIES_CONFIG_DIR": "/tmp/m", "XDG_CONFIG_HOME": "/x"]).path
                == "/tmp/m")
        #expect(SessionStore.directory(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]).path == "/x/movies")
        #expect(SessionStore.directory(environment: ["XDG_CONFIG_HOME": "", "HOME": "/h"]).path == "/h/.config/movies")
    }

    @Test func savesLoadsAndClearsTheSession() throws {
        // given
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("movies-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = SessionStore(environment: ["MOVIES_CONFIG_DIR": folder.path])
        let session = Session(uid: "uid-a", email: "a@example.com", username: "alice")

        // when / then
        #expect(try store.load() == nil)
        try store.save(session)
        #expect(try store.load() == session)
        #expect(store.fileURL.lastPathComponent == "session.json")
        let permissions =
            try FileManager.default.attributesOfItem(atPath: store.fileURL.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        #expect(try store.clear())
        #expect(try store.load() == nil)
        #expect(try store.clear() == false)
    }

    @Test func aDamagedSessionFileIsAReadableFailure() throws {
        // given
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("movies-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = SessionStore(directory: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("not json".utf8).write(to: store.fileURL)

        // when
        let error = #expect(throws: MoviesFailure.self) { try store.load() }

        // then
        #expect(error?.exitStatus == .failure)
        #expect(error?.message.hasPrefix("cannot read the session in \(store.fileURL.path)") == true)
        #expect(try store.clear(), "logout still removes it")
    }
}
