import Testing

@testable import FirebaseDataConnect

@Suite struct ServerSentEventParserTests {
    @Test func eventsAndCommentsInOneChunk() {
        var parser = ServerSentEventParser()
        let items = parser.feed(Array("data: {\"a\":1}\n\n: ping\n\ndata: two\n\n".utf8))
        #expect(items == [.event("{\"a\":1}"), .comment(" ping"), .event("two")])
    }

    @Test func anEventSplitAcrossChunksAndLineEndings() {
        // given: CRLF and CR line ends, a multi-line event, and chunk boundaries inside a line and a CRLF
        var parser = ServerSentEventParser()
        var items: [ServerSentEventParser.Item] = []
        for chunk in ["da", "ta: first\r", "\ndata:second\r\r", "\nevent: x\nid: 3\ndata: third\n", "\n"] {
            items += parser.feed(Array(chunk.utf8))
        }
        #expect(items == [.event("first\nsecond"), .event("third")])
    }

    @Test func blankLinesWithoutDataAreNotEvents() {
        var parser = ServerSentEventParser()
        #expect(parser.feed(Array("\n\n\nretry: 10\n\n".utf8)).isEmpty)
    }
}

@Suite struct ReconnectPolicyTests {
    @Test func delaysGrowByTheMultiplierUpToTheCapWithJitter() {
        let policy = ReconnectPolicy()
        #expect(policy.delay(attempt: 0, random: 0.5) == 1)
        #expect(abs(policy.delay(attempt: 1, random: 0.5) - 1.3) < 1e-9)
        #expect(abs(policy.delay(attempt: 5, random: 0.5) - 3.71293) < 1e-5)
        #expect(policy.delay(attempt: 40, random: 0.5) == 30)
        #expect(policy.delay(attempt: 0, random: 0) == 0.9)
        #expect(abs(policy.delay(attempt: 40, random: 1) - 33) < 1e-9)
    }
}
