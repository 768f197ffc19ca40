import DataConnectEmulator
import DataConnectWire
import Testing

/// Heartbeats (the stream's pings) and `@refresh(every:)`, driven by the hub's ``ManualClock``: the test moves time, nothing waits for
/// it. The time limit is a hang guard.
@Suite(.onBothDatabases, .serialized, .timeLimit(.minutes(3))) struct HubTimerTests {
    @Test func heartbeatIsSentOncePerIntervalAndNotBefore() async throws {
        // given
        let fixture = try RealtimeFixture(realtime: .init(heartbeatInterval: .seconds(15)))
        let client = try fixture.subscribe("ListBooks")
        _ = try #require(client.nextData())

        // when: just short of the interval, then a change that pushes an event
        fixture.clock.advance(by: .seconds(15) - .milliseconds(1))
        try fixture.mutate("AddBook", ["title": "Dates", "year": 2020, "authorId": .string(RealtimeFixture.bob)])
        await fixture.hub.waitUntilIdle()
        fixture.clock.advance(by: .milliseconds(1))

        // then: no ping came before the change's event, then the interval's ping
        #expect(client.next().map(Self.kind) == "response")
        #expect(client.next() == .ping)

        // when: another interval (the connection answered the last ping, so it is still alive)
        fixture.clock.advance(by: .seconds(15))

        // then: one ping per interval
        #expect(client.next() == .ping)
    }

    @Test func everyStreamGetsTheHeartbeat() async throws {
        // given
        let fixture = try RealtimeFixture()
        let books = try fixture.subscribe("ListBooks")
        let authors = try fixture.subscribe("ListAuthors")
        _ = try #require(books.nextData())
        _ = try #require(authors.nextData())

        // when
        fixture.clock.advance(by: fixture.hub.configuration.heartbeatInterval)

        // then
        #expect(books.next() == .ping)
        #expect(authors.next() == .ping)
    }

    @Test func refreshEveryRunsOnScheduleAndConfirmsAnUnchangedResult() async throws {
        // given: the query refreshes every second, with the minimum lowered to let it
        let fixture = try RealtimeFixture(realtime: .init(minimumRefreshInterval: .seconds(1)))
        let client = try fixture.subscribe("PolledBooks")
        _ = try #require(client.nextData())
        await fixture.hub.waitUntilIdle()
        #expect(fixture.hub.executionCount == 1)

        // when: just short of the interval
        fixture.clock.advance(by: .milliseconds(999))
        await fixture.hub.waitUntilIdle()
        // then: no re-run yet
        #expect(fixture.hub.executionCount == 1)

        // when: the interval passes while nothing changed
        fixture.clock.advance(by: .milliseconds(1))
        await fixture.hub.waitUntilIdle()
        // then: a re-run, the same bytes: a response with the unchanged etag and no data
        #expect(fixture.hub.executionCount == 2)
        let unchanged = try #require(client.nextData())
        #expect(unchanged["data"] == nil)
        #expect(unchanged["dataEtag"] != nil)

        // when: a change the hub is not told about, then the next scheduled run
        await fixture.hub.waitUntilIdle()
        let runs = fixture.hub.executionCount
        try fixture.writeDirectly("UPDATE \"book\" SET \"title\" = 'Avocados' WHERE \"title\" = 'Apples'")
        fixture.clock.advance(by: .seconds(1))
        await fixture.hub.waitUntilIdle()

        // then: it is pushed
        #expect(fixture.hub.executionCount == runs + 1)
        #expect(client.nextData()?.titles == ["Avocados", "Bananas", "Cherries"])
    }

    @Test func refreshEveryIsClampedToTheMinimumInterval() async throws {
        // given: the query asks for 1 s; the default minimum is 10 s
        let fixture = try RealtimeFixture()
        let client = try fixture.subscribe("PolledBooks")
        _ = try #require(client.nextData())

        // when
        fixture.clock.advance(by: .seconds(9))
        await fixture.hub.waitUntilIdle()
        let beforeMinimum = fixture.hub.executionCount
        fixture.clock.advance(by: .seconds(1))
        await fixture.hub.waitUntilIdle()

        // then
        #expect(beforeMinimum == 1)
        #expect(fixture.hub.executionCount == 2)
    }

    @Test func refreshStopsWhenTheLastSubscriberLeaves() async throws {
        // given
        let fixture = try RealtimeFixture(realtime: .init(minimumRefreshInterval: .seconds(1)))
        let client = try fixture.subscribe("PolledBooks")
        _ = try #require(client.nextData())
        #expect(fixture.clock.pendingCount == 2, "the heartbeat and the group's refresh")

        // when
        client.close()
        await fixture.hub.waitUntilSubscriberCount(is: 0)
        fixture.clock.advance(by: .seconds(5))
        await fixture.hub.waitUntilIdle()

        // then
        #expect(fixture.hub.executionCount == 1)
        #expect(fixture.clock.pendingCount == 1, "only the heartbeat")
    }

    @Test func stoppingCancelsTheTimers() async throws {
        // given
        let fixture = try RealtimeFixture(realtime: .init(minimumRefreshInterval: .seconds(1)))
        let client = try fixture.subscribe("PolledBooks")
        _ = try #require(client.nextData())

        // when
        fixture.emulator.stop()

        // then
        #expect(fixture.clock.pendingCount == 0)
        #expect(client.nextData()?["cancelled"] == .bool(true))
    }

    static func kind(_ event: StreamSubscriber.Event) -> String {
        switch event {
        case .response: return "response"
        case .ping: return "ping"
        case .other: return "other"
        }
    }
}
