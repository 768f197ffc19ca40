import Testing

@testable import FirebaseDataConnect

/// A row that compares by id only, like a generated `Data` struct with its key selected.
struct Row: Identifiable, Hashable, Sendable {
    var id: Int
    var title: String
    var genre: String

    static func == (lhs: Row, rhs: Row) -> Bool { lhs.id == rhs.id }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

@Suite struct ListChangesTests {
    let a = Row(id: 1, title: "Alien", genre: "Sci-Fi")
    let b = Row(id: 2, title: "Brazil", genre: "Comedy")
    let c = Row(id: 3, title: "Cube", genre: "Sci-Fi")

    @Test func firstVersionIsAllInsertions() {
        #expect(ListChanges(from: [Row](), to: [a, b]) == ListChanges(insertions: [0, 1]))
    }

    @Test func unchangedListHasNoChanges() {
        #expect(ListChanges(from: [a, b, c], to: [a, b, c]).isEmpty)
    }

    @Test func insertionsUseNewIndicesAndDeletionsOldOnes() {
        // given
        let old = [a, b, c]
        let new = [a, Row(id: 9, title: "Zoo", genre: "Drama"), c]
        // when
        let changes = ListChanges(from: old, to: new)
        // then
        #expect(changes == ListChanges(deletions: [1], insertions: [1]))
    }

    @Test func editedContentsAreModificationsEvenWhenEqualityIsByKey() {
        // given: b's title changes; Row's == says the rows are equal
        var edited = b
        edited.title = "Brazil (Director's Cut)"
        #expect(edited == b)
        // when
        let changes = ListChanges(from: [a, b, c], to: [a, edited, c])
        // then
        #expect(changes == ListChanges(modifications: [1]))
    }

    @Test func aMoveIsADeletionAndAnInsertion() {
        let changes = ListChanges(from: [a, b, c], to: [b, c, a])
        #expect(changes.deletions.count == 1 && changes.insertions.count == 1)
        #expect(changes.modifications.isEmpty)
    }
}

@Suite struct SectionedChangesTests {
    let alien = Row(id: 1, title: "Alien", genre: "Sci-Fi")
    let brazil = Row(id: 2, title: "Brazil", genre: "Comedy")
    let cube = Row(id: 3, title: "Cube", genre: "Sci-Fi")

    func sections(_ rows: [Row]) -> [ResultsSection<String, Row>] {
        ObservedSectionedResults<String, Row>.group(rows.sorted { $0.title < $1.title }, by: \.genre)
    }

    @Test func groupsSortedRowsIntoSectionsByAscendingKey() {
        let grouped = sections([cube, brazil, alien])
        #expect(grouped.map(\.key) == ["Comedy", "Sci-Fi"])
        #expect(grouped.map { $0.map(\.title) } == [["Brazil"], ["Alien", "Cube"]])
    }

    @Test func anInsertIntoAnExistingSectionIsAnItemInsertion() {
        // given
        let arrival = Row(id: 4, title: "Arrival", genre: "Sci-Fi")
        // when
        let changes = SectionedChanges(
            from: sections([alien, brazil, cube]), to: sections([alien, brazil, cube, arrival]))
        // then: Sci-Fi is section 1; Arrival sorts after Alien
        #expect(changes == SectionedChanges(insertions: [SectionedIndex(section: 1, item: 1)]))
    }

    @Test func anInsertOfANewKeyInsertsASection() {
        let drama = Row(id: 5, title: "Dune", genre: "Drama")
        let changes = SectionedChanges(from: sections([alien, brazil]), to: sections([alien, brazil, drama]))
        #expect(changes == SectionedChanges(insertedSections: [1]))
    }

    @Test func deletingTheLastRowOfASectionDeletesTheSection() {
        let changes = SectionedChanges(from: sections([alien, brazil, cube]), to: sections([alien, cube]))
        #expect(changes == SectionedChanges(deletedSections: [0]))
    }

    @Test func changingTheSectionKeyMovesTheRowBetweenSections() {
        // given: Cube becomes a comedy
        var comedyCube = cube
        comedyCube.genre = "Comedy"
        // when
        let changes = SectionedChanges(
            from: sections([alien, brazil, cube]), to: sections([alien, brazil, comedyCube]))
        // then
        #expect(
            changes
                == SectionedChanges(
                    deletions: [SectionedIndex(section: 1, item: 1)], insertions: [SectionedIndex(section: 0, item: 1)])
        )
    }

    @Test func anEditedTitleInPlaceIsAModification() {
        var edited = alien
        edited.title = "Aliens"
        let changes = SectionedChanges(from: sections([alien, brazil, cube]), to: sections([edited, brazil, cube]))
        #expect(changes == SectionedChanges(modifications: [SectionedIndex(section: 1, item: 0)]))
    }
}
