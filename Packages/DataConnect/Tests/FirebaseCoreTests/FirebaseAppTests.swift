import Foundation
import Testing

@testable import FirebaseCore

@Suite struct FirebaseAppTests {
    @Test func configuresNamedAppsAndDeletesThem() async {
        // given
        let name = "app-\(UUID().uuidString)"

        // when
        FirebaseApp.configure(name: name, options: FirebaseOptions(projectID: "movies"))
        FirebaseApp.configure(name: name, options: FirebaseOptions(projectID: "ignored"))

        // then
        let app = FirebaseApp.app(name: name)
        #expect(app?.options.projectID == "movies")
        #expect(app?.isDefaultApp == false)
        #expect(FirebaseApp.allApps?[name] === app)
        #expect(await app?.delete() == true)
        #expect(FirebaseApp.app(name: name) == nil)
        #expect(await app?.delete() == false)
    }

    @Test func configuresTheDefaultApp() {
        // when
        FirebaseApp.configure()

        // then
        #expect(FirebaseApp.app()?.isDefaultApp == true)
        #expect(FirebaseApp.app()?.options.projectID != nil)
    }

    @Test func configuresConcurrently() async {
        // given
        let prefix = "concurrent-\(UUID().uuidString)-"

        // when
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask {
                    FirebaseApp.configure(name: prefix + "\(index % 10)", options: FirebaseOptions(projectID: "p"))
                }
            }
        }

        // then
        let names = FirebaseApp.allApps?.keys.filter { $0.hasPrefix(prefix) } ?? []
        #expect(names.count == 10)
    }
}

@Suite struct FirebaseOptionsTests {
    @Test func defaultsToTheDemoProject() {
        // when
        let options = FirebaseOptions(environment: [:])

        // then
        #expect(options.projectID == "demo-project")
        #expect(options.apiKey == nil)
        #expect(options.googleAppID == FirebaseOptions.demoAppID)
    }

    @Test func readsEnvironmentVariables() {
        // when
        let options = FirebaseOptions(environment: [
            "GCLOUD_PROJECT": "gcloud", "FIREBASE_API_KEY": "key", "FIREBASE_APP_ID": "1:1:web:1",
        ])
        let preferred = FirebaseOptions(environment: ["GCLOUD_PROJECT": "gcloud", "FIREBASE_PROJECT_ID": "firebase"])

        // then
        #expect(options.projectID == "gcloud")
        #expect(options.apiKey == "key")
        #expect(options.googleAppID == "1:1:web:1")
        #expect(preferred.projectID == "firebase")
    }

    @Test func readsConfigFromInlineJSONOrFile() {
        // given
        let json = #"{"projectId": "from-json", "apiKey": "json-key", "appId": "1:2:web:3"}"#

        // when
        let inline = FirebaseOptions(environment: ["FIREBASE_CONFIG": json])
        let file = FirebaseOptions(
            environment: ["FIREBASE_CONFIG": "/etc/firebase.json", "FIREBASE_API_KEY": "override"],
            readFile: { $0 == "/etc/firebase.json" ? Data(json.utf8) : nil }
        )

        // then
        #expect(inline.projectID == "from-json")
        #expect(inline.googleAppID == "1:2:web:3")
        #expect(file.projectID == "from-json")
        #expect(file.apiKey == "override")
    }

    @Test func upstreamInitializerLeavesProjectUnset() {
        // given
        let options = FirebaseOptions(googleAppID: "1:123:web:abc", gcmSenderID: "123")

        // when
        options.projectID = "set-later"

        // then
        #expect(options.projectID == "set-later")
        #expect(options.gcmSenderID == "123")
        #expect(options == FirebaseOptions(projectID: "set-later", googleAppID: "1:123:web:abc", gcmSenderID: "123"))
    }
}
