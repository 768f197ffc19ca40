import DataConnectEmulator
import Foundation
import Testing

/// `@refresh(onMutationExecuted:)` with a list of events: any of them re-runs the subscribed query.
@Suite(.onBothDatabases) struct RefreshEventListTests {
    static let queries =
        RealtimeFixture.queries + """

            query PokedOrNoted($tag: String!) @auth(level: PUBLIC)
              @refresh(onMutationExecuted: [
                {operation: "Poke", condition: "mutation.variables.tag == request.variables.tag"},
                {operation: "AddNote"}
              ]) {
              books(where: {title: {ne: $tag}}, orderBy: {title: ASC}) { title }
            }
            """

    @Test func everyEventOfTheListTriggersAndOthersDoNot() async throws {
        // given: a subscriber, and a change the hub cannot see (a write outside the engine)
        let fixture = try RealtimeFixture(queries: Self.queries)
        let client = try fixture.subscribe("PokedOrNoted", ["tag": "red"])
        #expect(try #require(client.nextData()).titles == ["Apples", "Bananas", "Cherries"])
        try fixture.writeDirectly("UPDATE \"book\" SET \"title\" = 'Avocados' WHERE \"title\" = 'Apples'")
        // when: the first event with its condition false
        try fixture.mutate("Poke", ["tag": "blue"])
        // then: nothing
        #expect(await fixture.nextIsHeartbeat(client))
        // when: the second event, which has no condition
        try fixture.mutate("AddNote", ["text": "hello"])
        // then
        #expect(client.nextData()?.titles == ["Avocados", "Bananas", "Cherries"])
        // when: the first event with its condition true
        try fixture.writeDirectly("UPDATE \"book\" SET \"title\" = 'Blueberries' WHERE \"title\" = 'Bananas'")
        try fixture.mutate("Poke", ["tag": "red"])
        // then
        #expect(client.nextData()?.titles == ["Avocados", "Blueberries", "Cherries"])
    }

    @Test func aSingleEventStillWorks() throws {
        // given a query with one event object (the fixture's TaggedBooks): it loads and subscribes
        let fixture = try RealtimeFixture(queries: Self.queries)
        let client = try fixture.subscribe("TaggedBooks", ["tag": "red"])
        #expect(try #require(client.nextData()).titles == ["Apples", "Bananas", "Cherries"])
    }
}
