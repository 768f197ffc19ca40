import Foundation
import Testing

@testable import FirebaseCore

@Suite struct FirebaseOptionsConfigFileTests {
    private func fixture(_ name: String) throws -> URL {
        try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"))
    }

    @Test func readsEveryKeyOfGoogleServiceInfoPlist() throws {
        // given
        let path = try fixture("GoogleService-Info.plist").path

        // when
        let options = try #require(FirebaseOptions(contentsOfFile: path))

        // then
        #expect(options.googleAppID == "1:123456789012:ios:0123456789abcdef")
        #expect(options.gcmSenderID == "123456789012")
        #expect(options.apiKey == "AIzaSyA-plist-key-0000000000000000000000")
        #expect(options.projectID == "movies-prod")
        #expect(options.bundleID == "com.example.movies")
        #expect(options.clientID == "123456789012-abcdefghijklmnopqrstuvwxyz012345.apps.googleusercontent.com")
        #expect(options.storageBucket == "movies-prod.appspot.com")
        #expect(options.databaseURL == "https://movies-prod-default-rtdb.firebaseio.com")
    }

    @Test func readsGoogleServicesJSON() throws {
        // given
        let path = try fixture("google-services.json").path

        // when
        let options = try #require(FirebaseOptions(contentsOfGoogleServicesFile: path))

        // then
        #expect(options.googleAppID == "1:123456789012:android:fedcba9876543210")
        #expect(options.gcmSenderID == "123456789012")
        #expect(options.projectID == "movies-prod")
        #expect(options.apiKey == "AIzaSyA-json-key-00000000000000000000000")
        #expect(options.storageBucket == "movies-prod.appspot.com")
        #expect(options.databaseURL == "https://movies-prod-default-rtdb.firebaseio.com")
    }

    @Test func rejectsMissingOrIncompleteFiles() {
        #expect(FirebaseOptions(contentsOfFile: "/nonexistent/GoogleService-Info.plist") == nil)
        #expect(FirebaseOptions(googleServiceInfoPlist: Data("<plist><dict></dict></plist>".utf8)) == nil)
        #expect(FirebaseOptions(googleServicesJSON: Data(#"{"project_info":{}}"#.utf8)) == nil)
    }

    @Test func defaultOptionsPreferTheEnvironmentThenThePlistThenTheJSON() throws {
        // given
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        // when / then: nothing at all names the demo project
        #expect(
            FirebaseOptions.defaultOptions(environment: [:], currentDirectory: folder.path).projectID == "demo-project")

        // when / then: google-services.json alone
        try FileManager.default.copyItem(
            at: fixture("google-services.json"), to: folder.appendingPathComponent("google-services.json"))
        let fromJSON = FirebaseOptions.defaultOptions(environment: [:], currentDirectory: folder.path)
        #expect(fromJSON.googleAppID == "1:123456789012:android:fedcba9876543210")

        // when / then: the plist wins over the JSON
        try FileManager.default.copyItem(
            at: fixture("GoogleService-Info.plist"), to: folder.appendingPathComponent("GoogleService-Info.plist"))
        let fromPlist = FirebaseOptions.defaultOptions(environment: [:], currentDirectory: folder.path)
        #expect(fromPlist.googleAppID == "1:123456789012:ios:0123456789abcdef")

        // when / then: any variable wins over the files
        let fromEnvironment = FirebaseOptions.defaultOptions(
            environment: ["GCLOUD_PROJECT": "from-env"], currentDirectory: folder.path)
        #expect(fromEnvironment.projectID == "from-env")
        #expect(fromEnvironment.apiKey == nil)
    }
}
