import DataConnectEmulator
import DataConnectEngine
import DataConnectTestSupport
import DataConnectWire
import EmulatorTesting
import Foundation
import Testing

/// Subscriptions on the realtime stream over real sockets, one WebSocket per subscriber, fed by the
/// ``SubscriptionHub``.
///
/// Tests wait for events (a stream's next response, ``SubscriptionHub/waitUntilIdle()``,
/// ``SubscriptionHub/waitUntilSubscriberCount(is:)``) and move the hub's ``ManualClock``; they never sleep. The time
/// limit is a hang guard.
@Suite(.onBothDatabases, .serialized, .timeLimit(.minutes(3))) struct SubscriptionTests {
    @Test func firstEventIsTheCurrentResult() throws {
        // given
        let fixture = try RealtimeFixture()
        // when
        let client = try fixture.subscribe("ListBooks", requestId: "42")
        let event = try #require(client.nextData())
        // then
        #expect(client.client.status == 101)
        #expect(event.titles == ["Apples", "Bananas", "Cherries"])
        #expect(event["requestId"] == "42")
        #expect(event["cancelled"] == .bool(false))
        #expect(event["errors"]?.arrayValue == [])
        #expect(event["extensions"]?["dataConnect"] != nil)
        #expect(event["dataEtag"]?.stringValue?.count == 16)
    }

    @Test func knownEtagSkipsTheFirstEvent() async throws {
        // given
        let fixture = try RealtimeFixture()
        let first = try fixture.subscribe("ListBooks")
        let etag = try #require(first.nextData()?["dataEtag"]?.stringValue)
        // when
        let second = try fixture.subscribe("ListBooks", dataEtag: etag)
        // then
        #expect(await fixture.nextIsHeartbeat(second))
        try fixture.mutate("AddBook", ["title": "Dates", "year": 2020, "authorId": .string(RealtimeFixture.bob)])
        #expect(second.nextData()?.titles == ["Apples", "Bananas", "Cherries", "Dates"])
    }

    /// The push arrives; how fast is measured by `make bench-realtime`, not here: tests share a busy machine.
    @Test func mutationChangingTheResultPushesTheNewResult() throws {
        // given
        let fixture = try RealtimeFixture()
        let client = try fixture.subscribe("ListBooks")
        _ = try #require(client.nextData())
        // when
        try fixture.mutate("AddBook", ["title": "Dates", "year": 2020, "authorId": .string(RealtimeFixture.bob)])
        let event = try #require(client.nextData())
        // then
        #expect(event.titles == ["Apples", "Bananas", "Cherries", "Dates"])
    }

    @Test func mutationOfAnotherTableRunsNothingAndPushesNothing() async throws {
        // given
        let fixture = try RealtimeFixture()
        let client = try fixture.subscribe("ListBooks")
        _ = try #require(client.nextData())
        await fixture.hub.waitUntilIdle()
        #expect(fixture.hub.executionCount == 1)
        // when
        try fixture.mutate("AddNote", ["text": "unrelated"])
        // then
        #expect(await fixture.nextIsHeartbeat(client))
        #expect(fixture.hub.executionCount == 1)
    }

    @Test func mutationOfRowsNotShownPushesNothing() async throws {
        // given
        let fixture = try RealtimeFixture()
        let client = try fixture.subscribe("BooksBefore", ["year": 2000])
        #expect(client.nextData()?.titles == ["Apples"])
        // when: the same table, a row the filter excludes
        try fixture.mutate("AddBook", ["title": "Figs", "year": 2021, "authorId": .string(RealtimeFixture.alice)])
        // then: re-run, same bytes, no event
        #expect(await fixture.nextIsHeartbeat(client))
        #expect(fixture.hub.executionCount == 2)
    }

    @Test func filtersOnRelationsAndCascadesAreTracked() throws {
        // given
        let fixture = try RealtimeFixture()
        let byAuthor = try fixture.subscribe("BooksByAuthor", ["name": "Bob"])
        #expect(byAuthor.nextData()?.titles == ["Cherries"])
        // when: the author row (read only through the filter) changes
        try fixture.writeDirectly("UPDATE \"author\" SET \"name\" = 'Robert' WHERE \"name\" = 'Bob'")
        fixture.hub.tablesChanged(["Author"])
        // then
        #expect(byAuthor.nextData()?.titles == [])
        // when: deleting an author cascades to the books
        let list = try fixture.subscribe("ListBooks")
        _ = try #require(list.nextData())
        try fixture.mutate("DeleteAuthor", ["id": .string(RealtimeFixture.alice)])
        // then
        #expect(list.nextData()?.titles == ["Cherries"])
    }

    @Test func subscribersOfOneQueryShareOneExecutionPerChange() async throws {
        // given
        let fixture = try RealtimeFixture()
        let first = try fixture.subscribe("ListBooks")
        let second = try fixture.subscribe("ListBooks")
        _ = try #require(first.nextData())
        _ = try #require(second.nextData())
        #expect(fixture.hub.groupCount == 1)
        await fixture.hub.waitUntilIdle()
        let before = fixture.hub.executionCount
        // when
        try fixture.mutate("AddBook", ["title": "Dates", "year": 2020, "authorId": .string(RealtimeFixture.bob)])
        let a = try #require(first.nextData())
        let b = try #require(second.nextData())
        await fixture.hub.waitUntilIdle()
        // then
        #expect(a.titles == b.titles)
        #expect(fixture.hub.executionCount - before == 1)
    }

    @Test func aSubscriberJoiningAnUnchangedGroupIsAnsweredAlone() async throws {
        // given: a group with one subscriber that has its result
        let fixture = try RealtimeFixture()
        let first = try fixture.subscribe("ListBooks")
        _ = try #require(first.nextData())
        // when: a second joins (the group's query runs again and finds the same result)
        let second = try fixture.subscribe("ListBooks")
        let joined = try #require(second.nextData())
        // then: only the newcomer hears of it (the next event on either stream is the same heartbeat)
        #expect(joined.titles == ["Apples", "Bananas", "Cherries"])
        #expect(fixture.hub.groupCount == 1)
        #expect(await fixture.nextIsHeartbeat(first))
        #expect(second.next() == .ping)
        // and a change afterwards reaches both, once each
        try fixture.mutate("AddBook", ["title": "Dates", "year": 2020, "authorId": .string(RealtimeFixture.bob)])
        #expect(first.nextData()?.titles == ["Apples", "Bananas", "Cherries", "Dates"])
        #expect(second.nextData()?.titles == ["Apples", "Bananas", "Cherries", "Dates"])
        #expect(await fixture.nextIsHeartbeat(first))
        #expect(second.next() == .ping)
    }

    @Test func closingTheConnectionRemovesTheSubscriber() async throws {
        // given: the clock stands still, so no heartbeat is written and only the hang-up can tell
        let fixture = try RealtimeFixture()
        let client = try fixture.subscribe("ListBooks")
        _ = try #require(client.nextData())
        #expect(fixture.hub.subscriberCount == 1)
        // when
        client.close()
        // then
        await fixture.hub.waitUntilSubscriberCount(is: 0)
        #expect(fixture.hub.groupCount == 0)
    }

    @Test func authRefusalEndsTheSubscriptionAtOnce() throws {
        // given
        let fixture = try RealtimeFixture()
        // when
        let anonymous = try fixture.subscribe("MyNotes")
        let closed = try fixture.subscribe("ClosedNotes")
        let signedIn = try fixture.subscribe("MyNotes", token: TestEmulator.token(uid: "u1"))
        let refusedAnonymous = try #require(anonymous.nextData())
        let refusedClosed = try #require(closed.nextData())
        let accepted = try #require(signedIn.nextData())
        // then: one response each, with the status REST would answer, and the refusals end there
        #expect(refusedAnonymous.firstErrorCode == "UNAUTHENTICATED")
        #expect(refusedAnonymous["cancelled"] == .bool(true))
        #expect(refusedClosed.firstErrorCode == "PERMISSION_DENIED")
        #expect(refusedClosed["cancelled"] == .bool(true))
        #expect(accepted["errors"]?.arrayValue == [])
        #expect(accepted["cancelled"] == .bool(false))
        #expect(anonymous.ended())
        #expect(fixture.hub.subscriberCount == 1)
    }

    @Test func badRequestsAreOrdinaryErrors() throws {
        // given
        let fixture = try RealtimeFixture()
        // when
        let unknown = try #require(try fixture.subscribe("NoSuchQuery").nextData())
        let mutation = try #require(try fixture.subscribe("AddNote", ["text": "x"]).nextData())
        let badVariables = try #require(try fixture.subscribe("BooksBefore", ["year": "soon"]).nextData())
        let malformed = try fixture.openStream()
        malformed.send("not an object")
        let notARequest = try #require(malformed.next())
        // then: the statuses of `:executeQuery`, under the request id; a frame that is no request at all gets the
        // REST error body
        #expect(unknown.firstErrorCode == "NOT_FOUND")
        #expect(unknown["cancelled"] == .bool(true))
        #expect(mutation.firstErrorCode == "INVALID_ARGUMENT")
        #expect(badVariables.firstErrorCode == "INVALID_ARGUMENT")
        #expect(notARequest["error"]?["status"] == "INVALID_ARGUMENT")
        #expect(notARequest["error"]?["code"] == 400)
        #expect(fixture.hub.subscriberCount == 0)
    }

    @Test func perClientLimitAnswersResourceExhausted() async throws {
        // given: the limit counts subscriptions of one remote address, over all its connections
        let fixture = try RealtimeFixture(realtime: .init(maximumSubscriptionsPerClient: 2))
        let first = try fixture.subscribe("ListBooks")
        let second = try fixture.subscribe("ListAuthors")
        // when
        let third = try fixture.subscribe("ListBooks")
        let otherUser = try fixture.subscribe("ListBooks", token: TestEmulator.token(uid: "u2"))
        // then
        #expect(first.nextData()?["cancelled"] == .bool(false))
        #expect(second.nextData()?["cancelled"] == .bool(false))
        let refused = try #require(third.nextData())
        #expect(refused.firstErrorCode == "RESOURCE_EXHAUSTED")
        #expect(refused["cancelled"] == .bool(true))
        #expect(refused["errors"]?[0]?["message"]?.stringValue?.contains("limit is 2") == true)
        #expect(otherUser.nextData()?["cancelled"] == .bool(false))
        // when: one closes, there is room again
        first.close()
        await fixture.hub.waitUntilSubscriberCount(is: 2)
        #expect(try fixture.subscribe("ListBooks").nextData()?["cancelled"] == .bool(false))
    }

    @Test func onMutationExecutedFiresWhenTheConditionHolds() async throws {
        // given
        let fixture = try RealtimeFixture()
        let client = try fixture.subscribe("TaggedBooks", ["tag": "red"])
        _ = try #require(client.nextData())
        try fixture.writeDirectly("UPDATE \"book\" SET \"title\" = 'Avocados' WHERE \"title\" = 'Apples'")
        // when: another tag: the condition is false, and notes are not read
        try fixture.mutate("Poke", ["tag": "blue"])
        // then
        #expect(await fixture.nextIsHeartbeat(client))
        // when: the subscriber's tag
        try fixture.mutate("Poke", ["tag": "red"])
        // then
        #expect(client.nextData()?.titles == ["Avocados", "Bananas", "Cherries"])
    }

    @Test func reloadDroppingTheOperationCancels() async throws {
        // given
        let fixture = try RealtimeFixture()
        let dropped = try fixture.subscribe("ListBooks")
        let kept = try fixture.subscribe("ListAuthors")
        _ = try #require(dropped.nextData())
        _ = try #require(kept.nextData())
        // when
        let remaining = RealtimeFixture.queries.split(separator: "\n").filter { !$0.contains("query ListBooks") }
        try remaining.joined(separator: "\n").write(
            toFile: fixture.directory + "/connector/queries.gql", atomically: true, encoding: .utf8)
        fixture.emulator.reload()
        // then
        let final = try #require(dropped.nextData())
        #expect(final["cancelled"] == .bool(true))
        #expect(dropped.ended())
        #expect(await fixture.nextIsHeartbeat(kept))
        #expect(fixture.hub.subscriberCount == 1)
    }

    @Test func stopWithOpenStreamsReturnsAndCancels() throws {
        // given: open streams that the clients never close and the heartbeats keep alive
        let fixture = try RealtimeFixture()
        let clients = try (0..<5).map { _ in try fixture.subscribe("ListBooks") }
        for client in clients { _ = try #require(client.nextData()) }
        // when
        let stopped = DispatchSemaphore(value: 0)
        Thread { [emulator = fixture.emulator] in
            emulator.stop()
            stopped.signal()
        }.start()
        // then: stop returns without waiting for the streams (how fast is not judged: tests share a busy machine)
        #expect(
            stopped.wait(timeout: .now() + HangGuard.eventSeconds) == .success,
            "hang guard: stop did not return after \(HangGuard.event)")
        #expect(clients[0].nextData()?["cancelled"] == .bool(true))
    }
}
