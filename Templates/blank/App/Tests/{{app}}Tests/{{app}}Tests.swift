// Full-stack tests of {{app}}: the generated {{package}} SDK against the Data Connect emulator, run inside the
// test process (no socket, no port), on an in-memory database seeded from ../dataconnect/seed_data.gql.
//
// `emulator.attach { }` points every DataConnect the code inside uses (the generated accessor
// `DataConnect.{{connectorVar}}` included) at this test's emulator, with a client cache of its own, so tests
// that run in parallel do not see each other's data.

import DataConnectTesting
import FirebaseDataConnect
import Foundation
import Testing
import {{package}}

/// The project's `dataconnect/` folder, found from this file's path.
let backend = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("dataconnect").path

@Suite struct NoteTests {
    @Test func aNewNoteIsListed() async throws {
        // given: the seeded notes
        let emulator = try TestEmulator.inProcess(backend: backend, seedFile: backend + "/seed_data.gql")
        try await emulator.attach {
            let connector = DataConnect.{{connectorVar}}
            let before = try await connector.listNotesQuery.execute(fetchPolicy: .serverOnly)

            // when
            let created = try await connector.createNoteMutation.execute(title: "Buy milk") { $0.body = "Two litres." }

            // then
            let after = try await connector.listNotesQuery.execute(fetchPolicy: .serverOnly)
            #expect(after.data.notes.count == before.data.notes.count + 1)
            let note = try #require(after.data.notes.first { $0.id == created.data.note_insert.id })
            #expect(note.title == "Buy milk")
            #expect(note.body == "Two litres.")
        }
    }
}
