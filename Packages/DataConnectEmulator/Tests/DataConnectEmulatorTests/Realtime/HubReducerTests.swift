import DataConnectWire
import Foundation
import Testing

@testable import DataConnectEmulator
@testable import DataConnectEngine

/// The hub's decisions, event by event, with no socket, thread or clock: each test feeds ``HubState/reduce(_:_:)``
/// a sequence of events and compares the effects with the ones expected (``HubHarness``, ``HubStep``).
@Suite struct HubReducerTests {
    let denied = RequestError(status: .permissionDenied, message: "no longer allowed")

    // MARK: Subscribing and grouping

    @Test func startingSchedulesTheHeartbeat() {
        var hub = HubHarness()
        #expect(hub.send(.started) == [.scheduleHeartbeat(after: .seconds(15))])
    }

    @Test func aFirstSubscriberOpensAGroupAndAsksForAFirstRun() {
        // given
        var hub = HubHarness()
        // when
        let subscribed = hub.subscribe("a", to: HubQueries.books)
        // then: a group, the fan-out started, one run, the result to the subscriber
        #expect(subscribed == [.groupsChanged, .startFanOut, .subscribed(1)])
        #expect(hub.send(.fanOutReady) == [.run(["ListBooks"])])
        #expect(
            hub.result(HubQueries.books, etag: "e1") == [
                .send(etag: "e1", full: ["a"], unchanged: []),
                .pushed(group: 1, subscribers: 1, pushes: 1, etag: "e1", reason: .initial),
            ])
        #expect(hub.send(.fanOutReady) == [])
        #expect(hub.state.isIdle)
    }

    @Test func identicalSubscribersShareOneGroupAndOneRun() {
        // given
        var hub = HubHarness()
        _ = hub.subscribe("a", to: HubQueries.books)
        // when: the same query, variables and caller, while the fan-out is on its way
        let joined = hub.subscribe("b", to: HubQueries.books)
        // then: no new group, no second start, one run for both
        #expect(joined == [.groupsChanged, .subscribed(2)])
        #expect(hub.state.groups.count == 1)
        #expect(
            hub.settle(etag: "e1") == [
                .run(["ListBooks"]),
                .send(etag: "e1", full: ["a", "b"], unchanged: []),
                .pushed(group: 1, subscribers: 2, pushes: 1, etag: "e1", reason: .initial),
            ])
    }

    @Test func aLaterJoinerIsAnsweredAloneWhenTheResultIsUnchanged() {
        // given
        var hub = HubHarness()
        _ = hub.subscribe("a", to: HubQueries.books)
        hub.settle(etag: "e1")
        // when
        let joined = hub.subscribe("b", to: HubQueries.books)
        // then: the group runs once for the newcomer's first result, which goes to it alone
        #expect(joined == [.groupsChanged, .startFanOut, .subscribed(2)])
        #expect(hub.settle(etag: "e1") == [.run(["ListBooks"]), .send(etag: "e1", full: ["b"], unchanged: [])])
    }

    @Test func otherVariablesOrCallersMakeOtherGroups() {
        // given
        var hub = HubHarness()
        let alice = AuthContext(uid: "alice", claims: ["sub": "alice"])
        // when
        _ = hub.subscribe("a", to: HubQueries.booksBefore(2000))
        _ = hub.subscribe("b", to: HubQueries.booksBefore(1990))
        _ = hub.subscribe("c", to: HubQueries.booksBefore(2000), auth: alice)
        // then
        #expect(
            hub.send(.fanOutReady) == [
                .run([
                    #"BooksBefore{"year":1990}"#, #"BooksBefore{"year":2000}"#, #"BooksBefore{"year":2000} as alice"#,
                ])
            ])
    }

    @Test func aKnownEtagSkipsTheFirstResult() {
        // given
        var hub = HubHarness()
        // when
        _ = hub.subscribe("a", to: HubQueries.books, knownEtag: "e1")
        // then: the group records its first result; the subscriber, which holds it, hears nothing
        #expect(
            hub.settle(etag: "e1") == [
                .run(["ListBooks"]), .pushed(group: 1, subscribers: 1, pushes: 1, etag: "e1", reason: .initial),
            ])
    }

    @Test func thePerClientLimitAndAStoppedHubRefuse() {
        // given
        var hub = HubHarness(SubscriptionHub.Configuration(maximumSubscriptionsPerClient: 2))
        _ = hub.subscribe("a", to: HubQueries.books, client: "address:x")
        _ = hub.subscribe("b", to: HubQueries.authors, client: "address:x")
        // when / then: a third of the same client is refused, another client is not
        #expect(hub.subscribe("c", to: HubQueries.books, client: "address:x") == [.refused(.resourceExhausted)])
        #expect(hub.subscribe("d", to: HubQueries.books, client: "uid:y") == [.groupsChanged, .subscribed(3)])
        // when / then: one leaves, there is room again
        #expect(hub.send(.unsubscribe(hub.id("a"))) == [.groupsChanged])
        #expect(hub.subscribe("e", to: HubQueries.notes, client: "address:x") == [.groupsChanged, .subscribed(4)])
        // when / then: stopped
        _ = hub.send(.shutdown)
        #expect(hub.subscribe("f", to: HubQueries.books, client: "address:z") == [.refused(.unavailable)])
    }

    // MARK: Changes

    @Test func aMutationRunsEachGroupReadingItsTablesOnceAndNoOther() {
        // given
        var hub = HubHarness()
        _ = hub.subscribe("a", to: HubQueries.books)
        _ = hub.subscribe("b", to: HubQueries.authors)
        _ = hub.subscribe("c", to: HubQueries.notes)
        hub.settle(etag: "e1")
        // when: books only
        #expect(
            hub.send(.changeCommitted(HubQueries.mutation("AddBook", tables: ["Book"]), elsewhere: false)) == [
                .publish("mutation AddBook"), .startFanOut,
            ])
        // then
        #expect(hub.send(.fanOutReady) == [.run(["ListBooks"])])
        #expect(
            hub.result(HubQueries.books, etag: "e2") == [
                .send(etag: "e2", full: ["a"], unchanged: []),
                .pushed(group: 1, subscribers: 1, pushes: 2, etag: "e2", reason: .change),
            ])
        #expect(hub.send(.fanOutReady) == [])
        // when: authors, which both the book list and the author list read
        _ = hub.send(.changeCommitted(.tables(["Author"]), elsewhere: false))
        // then
        #expect(hub.send(.fanOutReady) == [.run(["ListAuthors", "ListBooks"])])
    }

    @Test func aChangeNoGroupReadsRunsNothing() {
        // given
        var hub = HubHarness()
        _ = hub.subscribe("a", to: HubQueries.books)
        hub.settle(etag: "e1")
        // when
        _ = hub.send(.changeCommitted(HubQueries.mutation("AddNote", tables: ["Note"]), elsewhere: false))
        // then: an empty batch, then the fan-out stops
        #expect(hub.settle(etag: "e2") == [.run([])])
    }

    @Test func aChangeUnchangingTheResultSendsNothing() {
        // given
        var hub = HubHarness()
        _ = hub.subscribe("a", to: HubQueries.books)
        hub.settle(etag: "e1")
        // when
        _ = hub.send(.changeCommitted(.tables(["Book"]), elsewhere: false))
        // then: the group runs and finds the same bytes
        #expect(hub.settle(etag: "e1") == [.run(["ListBooks"])])
    }

    @Test func changesAreOnlyPublishedWhenCommittedHereAndRunNothingWithoutGroups() {
        // given
        var hub = HubHarness()
        // when / then: no group, nothing to run; a local change is still passed on
        #expect(hub.send(.changeCommitted(.tables(["Book"]), elsewhere: false)) == [.publish("tables Book")])
        #expect(hub.send(.changeCommitted(.tables(["Book"]), elsewhere: true)) == [])
        // when / then: with a group, a change from elsewhere runs it without being published again
        _ = hub.subscribe("a", to: HubQueries.books)
        hub.settle(etag: "e1")
        #expect(hub.send(.changeCommitted(.tables(["Book"]), elsewhere: true)) == [.startFanOut])
        #expect(hub.send(.fanOutReady) == [.run(["ListBooks"])])
    }

    @Test func changesDuringABatchAreRunOnceInTheNext() {
        // given: a batch is running
        var hub = HubHarness()
        _ = hub.subscribe("a", to: HubQueries.books)
        hub.settle(etag: "e1")
        _ = hub.send(.changeCommitted(HubQueries.mutation("AddBook", tables: ["Book"]), elsewhere: false))
        #expect(hub.send(.fanOutReady) == [.run(["ListBooks"])])
        // when: two more mutations before its result
        let second = hub.send(.changeCommitted(HubQueries.mutation("AddBook", tables: ["Book"]), elsewhere: false))
        let third = hub.send(.changeCommitted(HubQueries.mutation("AddBook", tables: ["Book"]), elsewhere: false))
        _ = hub.result(HubQueries.books, etag: "e2")
        // then: the running fan-out picks them up, as one run
        #expect(second == [.publish("mutation AddBook")])
        #expect(third == [.publish("mutation AddBook")])
        #expect(hub.send(.fanOutReady) == [.run(["ListBooks"])])
    }

    @Test func onMutationExecutedRunsOnlyTheGroupsWhoseConditionHolds() {
        // given: neither group reads the table `Poke` writes
        var hub = HubHarness()
        _ = hub.subscribe("red", to: HubQueries.tagged("red"))
        _ = hub.subscribe("blue", to: HubQueries.tagged("blue"))
        hub.settle(etag: "e1")
        // when / then
        let redPoke = HubQueries.mutation("Poke", tables: ["Note"], variables: ["tag": "red"])
        _ = hub.send(.changeCommitted(redPoke, elsewhere: false))
        #expect(hub.send(.fanOutReady) == [.run([#"TaggedBooks{"tag":"red"}"#])])
        _ = hub.result(HubQueries.tagged("red"), etag: "e1")
        #expect(hub.send(.fanOutReady) == [])
        // when / then
        let greenPoke = HubQueries.mutation("Poke", tables: ["Note"], variables: ["tag": "green"])
        _ = hub.send(.changeCommitted(greenPoke, elsewhere: false))
        #expect(hub.send(.fanOutReady) == [.run([])])
    }

    // MARK: Leaving, ending and failing

    @Test func unsubscribingTheLastMemberRemovesTheGroupAndCancelsItsTimer() {
        // given
        var hub = HubHarness(SubscriptionHub.Configuration(minimumRefreshInterval: .seconds(1)))
        let opened = hub.subscribe("a", to: HubQueries.polled)
        _ = hub.subscribe("b", to: HubQueries.polled)
        // when / then
        #expect(
            opened == [
                .groupsChanged, .scheduleRefresh("PolledBooks", group: 1, after: .seconds(1)), .startFanOut,
                .subscribed(1),
            ])
        #expect(hub.send(.unsubscribe(hub.id("a"))) == [.groupsChanged])
        #expect(hub.send(.unsubscribe(hub.id("b"))) == [.groupsChanged, .cancelRefresh(group: 1)])
        #expect(hub.send(.unsubscribe(hub.id("b"))) == [])
        #expect(hub.state.groups.isEmpty)
        #expect(hub.state.subscribers == 0)
        #expect(hub.state.clients.isEmpty)
    }

    @Test func aResultGoesOnlyToTheGroupsMembersOfTheMoment() {
        // given: a run in flight
        var hub = HubHarness()
        _ = hub.subscribe("a", to: HubQueries.books)
        _ = hub.subscribe("b", to: HubQueries.books)
        #expect(hub.send(.fanOutReady) == [.run(["ListBooks"])])
        // when: one leaves before the result
        _ = hub.send(.unsubscribe(hub.id("a")))
        // then
        #expect(
            hub.result(HubQueries.books, etag: "e1") == [
                .send(etag: "e1", full: ["b"], unchanged: []),
                .pushed(group: 1, subscribers: 1, pushes: 1, etag: "e1", reason: .initial),
            ])
        // when / then: every member gone, a late result reaches nobody
        _ = hub.send(.unsubscribe(hub.id("b")))
        #expect(hub.result(HubQueries.books, etag: "e2") == [])
    }

    @Test func cancellingEndsTheSubscriberWithItsError() {
        // given
        var hub = HubHarness()
        _ = hub.subscribe("a", to: HubQueries.books)
        _ = hub.subscribe("b", to: HubQueries.books)
        hub.settle(etag: "e1")
        // when / then
        #expect(hub.send(.cancel(hub.id("a"), denied)) == [.groupsChanged, .end(["a"], denied), .live(true)])
        #expect(hub.send(.cancel(hub.id("a"), denied)) == [.live(false)])
        #expect(hub.send(.cancel(hub.id("b"), denied)) == [.groupsChanged, .end(["b"], denied), .live(true)])
        #expect(hub.state.groups.isEmpty)
    }

    @Test func aFailedRunEndsItsGroupAndNoOther() {
        // given
        var hub = HubHarness()
        _ = hub.subscribe("a", to: HubQueries.books)
        _ = hub.subscribe("b", to: HubQueries.books)
        _ = hub.subscribe("c", to: HubQueries.authors)
        hub.settle(etag: "e1")
        // when
        let failed = hub.send(.runFailed(key: HubHarness.key(HubQueries.books), denied))
        // then
        #expect(failed == [.groupsChanged, .end(["a", "b"], denied)])
        #expect(hub.state.subscribers == 1)
        #expect(hub.send(.runFailed(key: HubHarness.key(HubQueries.books), denied)) == [])
        _ = hub.send(.changeCommitted(.tables(["Author", "Book"]), elsewhere: false))
        #expect(hub.send(.fanOutReady) == [.run(["ListAuthors"])])
    }

    @Test func resumingAnswersWithTheResultOrTheCurrentEtagAlone() {
        // given
        var hub = HubHarness()
        _ = hub.subscribe("a", to: HubQueries.books)
        _ = hub.subscribe("b", to: HubQueries.books)
        hub.settle(etag: "e1")
        // when / then: the client holds the current result
        #expect(hub.send(.resume(hub.id("a"), knownEtag: "e1")) == [.startFanOut, .live(true)])
        #expect(hub.settle(etag: "e1") == [.run(["ListBooks"]), .send(etag: "e1", full: [], unchanged: ["a"])])
        // when / then: it holds an older one
        _ = hub.send(.resume(hub.id("a"), knownEtag: "e0"))
        #expect(hub.settle(etag: "e1") == [.run(["ListBooks"]), .send(etag: "e1", full: ["a"], unchanged: [])])
        // when / then: gone
        _ = hub.send(.unsubscribe(hub.id("a")))
        #expect(hub.send(.resume(hub.id("a"), knownEtag: "e1")) == [.live(false)])
    }

    @Test func reauthorizationMovesTheSubscriberToTheGroupOfItsNewClaims() {
        // given
        var hub = HubHarness()
        let reader = AuthContext(uid: "u1", claims: ["sub": "u1", "role": "reader", "iat": 1])
        _ = hub.subscribe("a", to: HubQueries.books, auth: reader)
        hub.settle(etag: "e1")
        let old = hub.id("a")
        // when / then: a refreshed token with the same claims keeps the group
        let refreshed = AuthContext(uid: "u1", claims: ["sub": "u1", "role": "reader", "iat": 2, "exp": 3])
        #expect(hub.send(.reauthorize(old, target: HubQueries.books, auth: refreshed)) == [.reauthorized(1)])
        // when / then: other claims, another group; the result it holds is not sent again
        let editor = AuthContext(uid: "u1", claims: ["sub": "u1", "role": "editor"])
        #expect(
            hub.send(.reauthorize(old, target: HubQueries.books, auth: editor)) == [.startFanOut, .reauthorized(2)])
        #expect(
            hub.settle(etag: "e1") == [
                .run(["ListBooks as u1"]),
                .pushed(group: 2, subscribers: 1, pushes: 1, etag: "e1", reason: .initial),
            ])
        #expect(hub.state.groups.count == 1)
        // when / then: the old id is gone
        let admin = AuthContext(uid: "u1", claims: ["sub": "u1", "role": "admin"])
        #expect(hub.send(.reauthorize(old, target: HubQueries.books, auth: admin)) == [.reauthorized(nil)])
    }

    // MARK: Reloads

    @Test func replacingTheEngineRerunsTheKeptGroupsAndEndsTheOthers() {
        // given
        var hub = HubHarness()
        _ = hub.subscribe("a", to: HubQueries.books)
        _ = hub.subscribe("b", to: HubQueries.authors)
        hub.settle(etag: "e1")
        // when: the author list is kept, now reading books too; the book list is gone
        let reloaded = HubQueries.target("ListAuthors", tables: ["Author", "Book"])
        let replaced = hub.send(.engineReplaced(kept: [HubHarness.key(HubQueries.authors): reloaded]))
        // then
        let reload = RequestError(status: .cancelled, message: "the operation changed or was removed on reload")
        #expect(replaced == [.groupsChanged, .end(["a"], reload), .startFanOut])
        #expect(hub.settle(etag: "e1") == [.run(["ListAuthors"])])
        _ = hub.send(.changeCommitted(.tables(["Book"]), elsewhere: false))
        #expect(hub.send(.fanOutReady) == [.run(["ListAuthors"])])
    }

    @Test func aReloadEndingARefreshingGroupCancelsItsTimer() {
        // given
        var hub = HubHarness(SubscriptionHub.Configuration(minimumRefreshInterval: .seconds(1)))
        _ = hub.subscribe("a", to: HubQueries.polled)
        hub.settle(etag: "e1")
        // when
        let replaced = hub.send(.engineReplaced(kept: [:]))
        // then
        let reload = RequestError(status: .cancelled, message: "the operation changed or was removed on reload")
        #expect(replaced == [.groupsChanged, .cancelRefresh(group: 1), .end(["a"], reload), .startFanOut])
    }

    // MARK: Timers

    @Test func aDueRefreshRunsTheGroupAndConfirmsAnUnchangedResult() {
        // given
        var hub = HubHarness(SubscriptionHub.Configuration(minimumRefreshInterval: .seconds(1)))
        let key = HubHarness.key(HubQueries.polled)
        _ = hub.subscribe("a", to: HubQueries.polled)
        hub.settle(etag: "e1")
        // when / then: nothing changed: the etag alone
        #expect(
            hub.send(.refreshDue(key: key, group: 1)) == [
                .scheduleRefresh("PolledBooks", group: 1, after: .seconds(1)), .startFanOut,
            ])
        #expect(
            hub.settle(etag: "e1") == [
                .run(["PolledBooks (refresh)"]), .send(etag: "e1", full: [], unchanged: ["a"]),
            ])
        // when / then: new data
        _ = hub.send(.refreshDue(key: key, group: 1))
        #expect(
            hub.settle(etag: "e2") == [
                .run(["PolledBooks (refresh)"]), .send(etag: "e2", full: ["a"], unchanged: []),
                .pushed(group: 1, subscribers: 1, pushes: 2, etag: "e2", reason: .refresh),
            ])
    }

    @Test func aRefreshForARemovedGroupDoesNothing() {
        // given: the group of the timer is gone, and a new one lives under the same key
        var hub = HubHarness(SubscriptionHub.Configuration(minimumRefreshInterval: .seconds(1)))
        let key = HubHarness.key(HubQueries.polled)
        _ = hub.subscribe("a", to: HubQueries.polled)
        hub.settle(etag: "e1")
        _ = hub.send(.unsubscribe(hub.id("a")))
        // when / then
        #expect(hub.send(.refreshDue(key: key, group: 1)) == [])
        #expect(
            hub.subscribe("b", to: HubQueries.polled) == [
                .groupsChanged, .scheduleRefresh("PolledBooks", group: 2, after: .seconds(1)), .startFanOut,
                .subscribed(2),
            ])
        #expect(hub.send(.refreshDue(key: key, group: 1)) == [])
    }

    @Test func aReloadedQueryThatNoLongerRefreshesLetsItsTimerLapse() {
        // given
        var hub = HubHarness(SubscriptionHub.Configuration(minimumRefreshInterval: .seconds(1)))
        let key = HubHarness.key(HubQueries.polled)
        _ = hub.subscribe("a", to: HubQueries.polled)
        hub.settle(etag: "e1")
        _ = hub.send(.engineReplaced(kept: [key: HubQueries.target("PolledBooks", tables: ["Book"])]))
        hub.settle(etag: "e1")
        // when / then: the timer fires once more and is not renewed
        #expect(hub.send(.refreshDue(key: key, group: 1)) == [.cancelRefresh(group: 1)])
        #expect(hub.state.groups[key]?.hasRefreshTimer == false)
        #expect(hub.send(.unsubscribe(hub.id("a"))) == [.groupsChanged])
    }

    @Test func refreshIntervalsAreClamped() {
        // given: the defaults, 10 s to 1 h
        var hub = HubHarness()
        let fast = HubQueries.target("Fast", tables: ["Book"], every: .seconds(1))
        let slow = HubQueries.target("Slow", tables: ["Book"], every: .seconds(7_200))
        // when / then
        #expect(hub.subscribe("a", to: fast).contains(.scheduleRefresh("Fast", group: 1, after: .seconds(10))))
        #expect(hub.subscribe("b", to: slow).contains(.scheduleRefresh("Slow", group: 2, after: .seconds(3_600))))
    }

    @Test func heartbeatsBeatEachIntervalUntilTheHubStops() {
        // given
        var hub = HubHarness()
        #expect(hub.send(.addHeartbeat("ws1")) == [.heartbeat(1)])
        #expect(hub.send(.addHeartbeat("ws2")) == [.heartbeat(2)])
        // when / then
        #expect(hub.send(.heartbeatDue) == [.scheduleHeartbeat(after: .seconds(15)), .beat(["ws1", "ws2"])])
        #expect(hub.send(.removeHeartbeat(1)) == [])
        #expect(hub.send(.heartbeatDue) == [.scheduleHeartbeat(after: .seconds(15)), .beat(["ws2"])])
        #expect(hub.send(.removeHeartbeat(2)) == [])
        #expect(hub.send(.heartbeatDue) == [.scheduleHeartbeat(after: .seconds(15))])
        #expect(hub.send(.shutdown) == [.cancelHeartbeat])
        #expect(hub.send(.heartbeatDue) == [])
    }

    // MARK: Stopping

    @Test func stoppingEndsEverySubscriberAndTimerAndDropsPendingWork() {
        // given: subscribers whose first results have not run yet, one group refreshing
        var hub = HubHarness(SubscriptionHub.Configuration(minimumRefreshInterval: .seconds(1)))
        _ = hub.subscribe("a", to: HubQueries.polled)
        _ = hub.subscribe("b", to: HubQueries.books)
        _ = hub.subscribe("c", to: HubQueries.books)
        // when
        let stopped = hub.send(.shutdown)
        // then
        let stopping = RequestError(status: .cancelled, message: "the emulator is stopping")
        #expect(
            stopped == [.groupsChanged, .cancelHeartbeat, .cancelRefresh(group: 1), .end(["a", "b", "c"], stopping)])
        #expect(hub.send(.fanOutReady) == [])
        #expect(hub.state.isIdle)
        #expect(hub.send(.changeCommitted(.tables(["Book"]), elsewhere: false)) == [.publish("tables Book")])
        #expect(hub.send(.refreshDue(key: HubHarness.key(HubQueries.polled), group: 1)) == [])
    }

    // MARK: Keys

    @Test func groupKeysIgnoreTheTokensTimingClaims() {
        let early = AuthContext(uid: "u1", claims: ["sub": "u1", "iat": 1, "exp": 2, "auth_time": 1])
        let later = AuthContext(uid: "u1", claims: ["sub": "u1", "iat": 5, "exp": 6, "auth_time": 5])
        let other = AuthContext(uid: "u2", claims: ["sub": "u2", "iat": 1])
        #expect(HubHarness.key(HubQueries.books, auth: early) == HubHarness.key(HubQueries.books, auth: later))
        #expect(HubHarness.key(HubQueries.books, auth: early) != HubHarness.key(HubQueries.books, auth: other))
        #expect(HubHarness.key(HubQueries.books) != HubHarness.key(HubQueries.books, auth: .unauthenticated))
        #expect(HubHarness.key(HubQueries.booksBefore(2000)) != HubHarness.key(HubQueries.booksBefore(1990)))
    }
}
