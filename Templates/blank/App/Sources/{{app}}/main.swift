// {{app}}: lists the notes, adds one, and lists them again, through the generated {{package}} SDK.
//
// Run it with `make run`, which starts the emulator with the seed data first. On its own it talks to the
// emulator at FIREBASE_DATA_CONNECT_EMULATOR_HOST (host:port), or 127.0.0.1:9399 when that is not set.

import FirebaseDataConnect
import Foundation
import {{package}}

let connector = DataConnect.{{connectorVar}}
// A bare `useEmulator()` follows FIREBASE_DATA_CONNECT_EMULATOR_HOST.
connector.useEmulator()

/// Prints every note and returns their titles. `.serverOnly` skips the client cache, so the second
/// listing sees the note just added.
func listNotes() async throws -> [String] {
    let result = try await connector.listNotesQuery.execute(fetchPolicy: .serverOnly)
    let notes = result.data.notes
    print("\(notes.count) note(s):")
    for note in notes {
        print("  - \(note.title)" + (note.body.map { ": \($0)" } ?? ""))
    }
    return notes.map(\.title)
}

do {
    _ = try await listNotes()

    let title = "Hello from {{app}}"
    let created = try await connector.createNoteMutation.execute(title: title) { $0.body = "Added by the app." }
    print("added \"\(title)\" (id \(created.data.note_insert.id))")

    let titles = try await listNotes()
    guard titles.contains(title) else {
        print("error: the new note is missing from the list")
        exit(1)
    }
} catch {
    print("error: \(error)")
    print("Is the emulator running? `make run` starts one; `make emulator` runs one on its own.")
    exit(1)
}
