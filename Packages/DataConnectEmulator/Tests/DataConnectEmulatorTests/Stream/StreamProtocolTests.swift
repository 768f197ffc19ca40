import DataConnectEmulator
import DataConnectEngine
import DataConnectWire
import EmulatorTesting
import Foundation
import Testing

/// The stream's messages: subscribe, execute, resume and cancel multiplexed on one socket, per-request refusals,
/// re-authentication, and results pushed by other clients' mutations.
@Suite(.onBothDatabases, .serialized, .timeLimit(.minutes(3))) struct StreamProtocolTests {
    @Test func subscribeUpdateCancel() async throws {
        // given
        let fixture = try RealtimeFixture()
        let client = try fixture.openStream()

        // when: subscribe
        client.send(RealtimeFixture.subscribe("1", "BooksBefore", ["year": 2000], first: true))
        let first = try #require(client.nextResult())

        // then
        #expect(first["requestId"] == "1")
        #expect(first.titles == ["Apples"])
        #expect(first["cancelled"] == .bool(false))
        let etag = try #require(first["dataEtag"]?.stringValue)

        // when: another client's REST mutation changes the result
        try fixture.mutate("AddBook", ["title": "Avocados", "year": 1980, "authorId": .string(RealtimeFixture.alice)])
        let update = try #require(client.nextResult())

        // then
        #expect(update.titles == ["Apples", "Avocados"])
        #expect(update["dataEtag"]?.stringValue != etag)

        // when: cancel, then a change
        client.send(["requestId": "1", "cancel": [:]])
        await fixture.hub.waitUntilSubscriberCount(is: 0)
        try fixture.mutate("AddBook", ["title": "Apricots", "year": 1970, "authorId": .string(RealtimeFixture.alice)])
        await fixture.hub.waitUntilIdle()

        // then: nothing more for request 1; the next frame is the heartbeat's ping
        fixture.clock.advance(by: fixture.hub.configuration.heartbeatInterval)
        #expect(client.readFrame()?.opcode == 9)
        if ProcessInfo.processInfo.environment["DATACONNECT_STREAM_TRANSCRIPT"] != nil {
            print(client.transcript.joined(separator: "\n"))
        }
    }

    @Test func manySubscriptionsShareOneConnection() async throws {
        // given: 20 subscriptions on one socket
        let fixture = try RealtimeFixture()
        let client = try fixture.openStream()
        for year in 0..<20 {
            client.send(
                RealtimeFixture.subscribe(
                    String(year), "BooksBefore", ["year": .number(JSONNumber(2000 + year))],
                    first: year == 0))
        }
        var firsts: [String: [String]] = [:]
        for _ in 0..<20 {
            let result = try #require(client.nextResult())
            firsts[result["requestId"]?.stringValue ?? ""] = result.titles
        }
        #expect(firsts.count == 20)
        #expect(firsts["0"] == ["Apples"])
        #expect(firsts["6"] == ["Apples", "Bananas"])
        #expect(firsts["19"] == ["Apples", "Bananas", "Cherries"])
        #expect(fixture.hub.subscriberCount == 20)

        // when: a book every one of them shows
        try fixture.mutate("AddBook", ["title": "Almonds", "year": 1900, "authorId": .string(RealtimeFixture.bob)])

        // then: each gets its update
        var updated: Set<String> = []
        for _ in 0..<20 {
            let result = try #require(client.nextResult())
            #expect(result.titles.first == "Almonds")
            updated.insert(result["requestId"]?.stringValue ?? "")
        }
        #expect(updated.count == 20)
    }

    @Test func aRefusedRequestGetsAnErrorAndTheOthersGoOn() throws {
        // given
        let fixture = try RealtimeFixture()
        let client = try fixture.openStream()
        client.send(RealtimeFixture.subscribe("1", "ListBooks", first: true))
        _ = try #require(client.nextResult())

        // when: a query for signed-in users, one nobody may run, and an unknown one
        client.send(RealtimeFixture.subscribe("2", "MyNotes"))
        let unauthenticated = try #require(client.nextResult())
        client.send(RealtimeFixture.subscribe("3", "ClosedNotes"))
        let denied = try #require(client.nextResult())
        client.send(RealtimeFixture.execute("4", "NoSuchQuery"))
        let missing = try #require(client.nextResult())

        // then
        #expect(unauthenticated["requestId"] == "2")
        #expect(unauthenticated.firstErrorCode == "UNAUTHENTICATED")
        #expect(unauthenticated["cancelled"] == .bool(true))
        #expect(unauthenticated["data"] == nil)
        #expect(denied.firstErrorCode == "PERMISSION_DENIED")
        #expect(missing.firstErrorCode == "NOT_FOUND")
        #expect(missing["cancelled"] == .bool(false))

        // and: the first subscription still gets its updates
        try fixture.mutate("AddBook", ["title": "Dates", "year": 2020, "authorId": .string(RealtimeFixture.bob)])
        #expect(client.nextResult()?.titles.contains("Dates") == true)
    }

    @Test func aRequestBeforeTheNameOrWithoutIdIsRefused() throws {
        // given
        let fixture = try RealtimeFixture()
        let client = try fixture.openStream()

        // when
        client.send(RealtimeFixture.subscribe("1", "ListAuthors"))
        let noName = try #require(client.nextResult())
        client.send(["subscribe": ["operationName": "ListAuthors"], "name": RealtimeFixture.connectorName])
        let noID = try #require(client.next())
        client.sendFrame(opcode: 1, payload: Array("not json".utf8))
        let notJSON = try #require(client.next())

        // then
        #expect(noName.firstErrorCode == "INVALID_ARGUMENT")
        #expect(noID["error"]?["status"] == "INVALID_ARGUMENT")
        #expect(notJSON["error"]?["code"] == 400)

        // and: the connection still serves
        client.send(RealtimeFixture.subscribe("2", "ListAuthors"))
        #expect(client.nextResult()?["requestId"] == "2")
    }

    @Test func aSubscriberSeesAnExecuteFromAnotherSocket() throws {
        // given
        let fixture = try RealtimeFixture()
        let watcher = try fixture.openStream()
        watcher.send(RealtimeFixture.subscribe("1", "ListBooks", first: true))
        _ = try #require(watcher.nextResult())
        let writer = try fixture.openStream()

        // when
        writer.send(
            RealtimeFixture.execute(
                "7", "AddBook", ["title": "Elderberries", "year": 2021, "authorId": .string(RealtimeFixture.bob)],
                first: true))

        // then: the writer's answer, and the watcher's update
        let answer = try #require(writer.nextResult())
        #expect(answer["requestId"] == "7")
        #expect(answer["data"]?["book_insert"] != nil)
        #expect(answer["errors"] == .array([]))
        #expect(watcher.nextResult()?.titles.contains("Elderberries") == true)
    }

    @Test func executeResumeAndDuplicateIDs() async throws {
        // given
        let fixture = try RealtimeFixture()
        let client = try fixture.openStream()

        // when: a one-off query
        client.send(RealtimeFixture.execute("1", "ListAuthors", first: true))
        let executed = try #require(client.nextResult())

        // then
        #expect(executed["data"]?["authors"]?.arrayValue?.count == 2)
        #expect(executed["dataEtag"]?.stringValue?.count == 16)

        // when: a subscription, resumed without and with its current etag
        client.send(RealtimeFixture.subscribe("2", "ListBooks"))
        let first = try #require(client.nextResult())
        client.send(["requestId": "2", "resume": [:]])
        let resumed = try #require(client.nextResult())
        client.send(["requestId": "2", "resume": [:], "dataEtag": first["dataEtag"] ?? .null])
        let current = try #require(client.nextResult())

        // then
        #expect(resumed["requestId"] == "2")
        #expect(resumed.titles == first.titles)
        #expect(current["dataEtag"] == first["dataEtag"])
        #expect(current["data"] == nil)

        // when: the id of a live subscription again, and a resume of nothing
        client.send(RealtimeFixture.subscribe("2", "ListAuthors"))
        let duplicate = try #require(client.nextResult())
        client.send(["requestId": "9", "resume": [:]])
        let unknown = try #require(client.nextResult())

        // then
        #expect(duplicate.firstErrorCode == "ALREADY_EXISTS")
        #expect(unknown.firstErrorCode == "NOT_FOUND")
        #expect(fixture.hub.subscriberCount == 1)
    }

    @Test func anEtagTheClientHoldsIsNotSentAgain() async throws {
        // given: the etag of the current result
        let fixture = try RealtimeFixture()
        let client = try fixture.openStream()
        client.send(RealtimeFixture.execute("1", "ListBooks", first: true))
        let etag = try #require(client.nextResult()?["dataEtag"])

        // when
        var request = RealtimeFixture.subscribe("2", "ListBooks")
        if case .object(var object) = request {
            object["dataEtag"] = etag
            request = .object(object)
        }
        client.send(request)
        await fixture.hub.waitUntilIdle()

        // then: no first result; the next frame is the heartbeat
        fixture.clock.advance(by: fixture.hub.configuration.heartbeatInterval)
        #expect(client.readFrame()?.opcode == 9)
    }

    @Test func headersReauthenticateAndEndSubscriptionsOfAnotherUser() async throws {
        // given: signed in as u1, a subscription only users may make
        let fixture = try RealtimeFixture()
        let client = try fixture.openStream()
        client.send(RealtimeFixture.subscribe("1", "MyNotes", first: true, token: TestEmulator.token(uid: "u1")))
        #expect(client.nextResult()?["data"]?["notes"] != nil)

        // when: a refreshed token of the same user
        client.send(["headers": ["X-Firebase-Auth-Token": .string(TestEmulator.token(uid: "u1"))]])
        client.send(RealtimeFixture.execute("2", "MyNotes"))

        // then: the subscription lives on, the execute runs as u1
        #expect(client.nextResult()?["requestId"] == "2")
        #expect(fixture.hub.subscriberCount == 1)

        // when: another user
        client.send(["headers": ["X-Firebase-Auth-Token": .string(TestEmulator.token(uid: "u2"))]])
        let ended = try #require(client.nextResult())

        // then: u1's subscription ends; u2 may subscribe
        #expect(ended["requestId"] == "1")
        #expect(ended["cancelled"] == .bool(true))
        client.send(RealtimeFixture.subscribe("3", "MyNotes"))
        #expect(client.nextResult()?["requestId"] == "3")

        // when: signed out (an empty token), then a bad token
        client.send(["headers": ["X-Firebase-Auth-Token": ""]])
        #expect(client.nextResult()?["cancelled"] == .bool(true))
        client.send(RealtimeFixture.subscribe("4", "MyNotes"))
        #expect(client.nextResult()?.firstErrorCode == "UNAUTHENTICATED")
        client.send(RealtimeFixture.execute("5", "ListAuthors", token: "not-a-jwt"))
        #expect(client.nextResult()?.firstErrorCode == "UNAUTHENTICATED")
    }

    @Test func aRefreshedTokenIsCheckedAgainstEachSubscriptionAsANewRequestWouldBe() async throws {
        // given: u1 with the claim a query's @auth(expr:) needs, subscribed to it and to a query for any user
        let fixture = try RealtimeFixture()
        let client = try fixture.openStream()
        func token(librarian: Bool?) -> String {
            var claims: JSONObject = [
                "sub": "u1", "user_id": "u1", "firebase": ["sign_in_provider": "password"], "email_verified": false,
            ]
            if let librarian { claims["librarian"] = .bool(librarian) }
            return AuthContext.unsignedToken(claims: claims)
        }
        client.send(RealtimeFixture.subscribe("1", "LibrarianNotes", first: true, token: token(librarian: true)))
        #expect(client.nextResult()?["data"]?["notes"] == .array([]))
        client.send(RealtimeFixture.subscribe("2", "MyNotes"))
        #expect(client.nextResult()?["requestId"] == "2")

        // when: a refreshed token that still carries the claim, then a change
        client.send(["headers": ["X-Firebase-Auth-Token": .string(token(librarian: true))]])
        client.send(RealtimeFixture.execute("3", "AddNote", ["text": "shelved"]))

        // then: both live on, and both see the change
        var pushed: [String: JSONValue] = [:]
        for _ in 0..<3 {
            let result = try #require(client.nextResult())
            pushed[result["requestId"]?.stringValue ?? ""] = result
        }
        #expect(pushed["1"]?["data"]?["notes"]?[0]?["text"] == "shelved")
        #expect(pushed["2"]?["data"]?["notes"]?[0]?["text"] == "shelved")
        #expect(fixture.hub.subscriberCount == 2)

        // when: the claim is gone from the next token
        client.send(["headers": ["X-Firebase-Auth-Token": .string(token(librarian: nil))]])
        let ended = try #require(client.nextResult())

        // then: the subscription it gated ends as a new request would be refused; the other lives on
        #expect(ended["requestId"] == "1")
        #expect(ended["cancelled"] == .bool(true))
        #expect(ended.firstErrorCode == "PERMISSION_DENIED")
        #expect(fixture.hub.subscriberCount == 1)

        // when: signed out
        client.send(["headers": ["X-Firebase-Auth-Token": ""]])
        let signedOut = try #require(client.nextResult())

        // then: the query for users ends with the code a signed-out request gets
        #expect(signedOut["requestId"] == "2")
        #expect(signedOut["cancelled"] == .bool(true))
        #expect(signedOut.firstErrorCode == "UNAUTHENTICATED")
        #expect(fixture.hub.subscriberCount == 0)
    }

    @Test func aReRunWithATokenPastItsExpiryPushesAsARequestWouldBeServed() async throws {
        // given: a subscription whose token expired long ago (`exp` in 2001): the emulator does not check expiry,
        // for requests nor for re-runs, so the re-run is served as a new request with that token would be
        let fixture = try RealtimeFixture()
        let client = try fixture.openStream()
        let expired = AuthContext.unsignedToken(claims: [
            "sub": "u1", "user_id": "u1", "firebase": ["sign_in_provider": "password"], "exp": 1_000_000_000,
        ])
        client.send(RealtimeFixture.subscribe("1", "MyNotes", first: true, token: expired))
        #expect(client.nextResult()?["data"]?["notes"] == .array([]))

        // when: a change re-runs it
        client.send(RealtimeFixture.execute("2", "AddNote", ["text": "late"]))
        var pushed: [String: JSONValue] = [:]
        for _ in 0..<2 {
            let result = try #require(client.nextResult())
            pushed[result["requestId"]?.stringValue ?? ""] = result
        }

        // then: pushed, not ended
        #expect(pushed["1"]?["data"]?["notes"]?[0]?["text"] == "late")
        #expect(pushed["1"]?["cancelled"] == .bool(false))
        #expect(fixture.hub.subscriberCount == 1)
    }

    @Test func theFlutterOpeningFrameIsAccepted() throws {
        // given: the Flutter SDK opens with name and headers, and no request id or kind
        let fixture = try RealtimeFixture()
        let client = try fixture.openStream(
            path: "/ws/google.firebase.dataconnect.v1.ConnectorStreamService/Connect/locations/us-central1")
        client.send([
            "name": RealtimeFixture.connectorName,
            "headers": ["x-goog-api-client": "gl-dart/ fire/0.2.0", "x-firebase-gmpid": "app"],
        ])

        // when
        client.send(["requestId": "ListAuthors_abc", "subscribe": ["operationName": "ListAuthors"]])

        // then: the opening frame got no answer; the subscription did
        #expect(client.nextResult()?["requestId"] == "ListAuthors_abc")
    }

    @Test func refreshEverySendsTheUnchangedEtagEachPeriod() async throws {
        // given
        let fixture = try RealtimeFixture(realtime: .init(minimumRefreshInterval: .seconds(1)))
        let client = try fixture.openStream()
        client.send(RealtimeFixture.subscribe("1", "PolledBooks", first: true))
        let first = try #require(client.nextResult())
        await fixture.hub.waitUntilIdle()

        // when: a period passes and nothing changed
        fixture.clock.advance(by: .seconds(1))
        await fixture.hub.waitUntilIdle()
        let unchanged = try #require(client.nextResult())

        // then
        #expect(unchanged["dataEtag"] == first["dataEtag"])
        #expect(unchanged["data"] == nil)
        #expect(unchanged["cancelled"] == .bool(false))

        // when: a change the hub does not hear about, then the next period
        try fixture.writeDirectly("UPDATE \"book\" SET \"title\" = 'Avocados' WHERE \"title\" = 'Apples'")
        fixture.clock.advance(by: .seconds(1))

        // then
        let changed = try #require(client.nextResult())
        #expect(changed.titles == ["Avocados", "Bananas", "Cherries"])
    }

    @Test func thePerClientLimitCountsStreamSubscriptions() throws {
        // given
        let fixture = try RealtimeFixture(realtime: .init(maximumSubscriptionsPerClient: 2))
        let client = try fixture.openStream()
        client.send(RealtimeFixture.subscribe("1", "ListBooks", first: true))
        client.send(RealtimeFixture.subscribe("2", "ListAuthors"))
        _ = try #require(client.nextResult())
        _ = try #require(client.nextResult())

        // when
        client.send(RealtimeFixture.subscribe("3", "ListBooks"))

        // then
        let refused = try #require(client.nextResult())
        #expect(refused.firstErrorCode == "RESOURCE_EXHAUSTED")
        #expect(refused["cancelled"] == .bool(true))
    }
}
