import Foundation
import PostgreSQLKit
import PostgreSQLTesting
import Testing

@Suite struct NotificationTests {
    @Test func deliversANotificationToAListener() throws {
        // given a listener on a channel whose name needs quoting
        let url = try PostgreSQLCluster.shared().url
        let listener = try PGConnection(url)
        let sender = try PGConnection(url)
        let channel = "Movies Changed \(UInt32.random(in: 0...UInt32.max))"
        try listener.listen(channel)

        // when another connection notifies it
        try sender.notify(channel, payload: #"{"table":"movies"}"#)

        // then the wait returns the notification with its channel, payload and sender
        let received = try listener.waitForNotifications(timeout: .seconds(60))
        #expect(received == [PGNotification(channel: channel, payload: #"{"table":"movies"}"#, pid: sender.backendPID)])
    }

    @Test func wakesAWaiterBlockedInPoll() throws {
        // given a listener and a sender on another thread
        let url = try PostgreSQLCluster.shared().url
        let listener = try PGConnection(url)
        let sender = try PGConnection(url)
        let channel = "wake_\(UInt32.random(in: 0...UInt32.max))"
        try listener.listen(channel)
        Thread {
            for index in 1...3 {
                try? sender.notify(channel, payload: "\(index)")
            }
        }.start()

        // when waiting until all three arrived
        var payloads: [String] = []
        while payloads.count < 3 {
            let received = try listener.waitForNotifications(timeout: .seconds(60))
            try #require(!received.isEmpty, "no notification within the hang guard")
            payloads += received.map(\.payload)
        }

        // then they arrived in order
        #expect(payloads == ["1", "2", "3"])
    }

    @Test func zeroTimeoutOnlyCollectsWhatArrived() throws {
        // given a listener with nothing sent
        let listener = try TestDatabase.connect()
        try listener.listen("quiet")

        // when polling without waiting
        let received = try listener.waitForNotifications(timeout: .zero)

        // then nothing comes back
        #expect(received.isEmpty)
    }

    @Test func notificationsInARolledBackTransactionAreNotSent() throws {
        // given a listener
        let url = try PostgreSQLCluster.shared().url
        let listener = try PGConnection(url)
        let sender = try PGConnection(url)
        let channel = "tx_\(UInt32.random(in: 0...UInt32.max))"
        try listener.listen(channel)

        // when one notification rolls back and the next commits
        try sender.execute("BEGIN")
        try sender.notify(channel, payload: "rolled back")
        try sender.execute("ROLLBACK")
        try sender.notify(channel, payload: "committed")

        // then only the committed one arrives
        let received = try listener.waitForNotifications(timeout: .seconds(60))
        #expect(received.map(\.payload) == ["committed"])
    }

    @Test func brokenConnectionThrowsAConnectionError() throws {
        // given a listener whose session another connection terminates
        let url = try PostgreSQLCluster.shared().url
        let listener = try PGConnection(url)
        try listener.listen("doomed")
        try PGConnection(url).query("SELECT pg_terminate_backend($1)", [.int(Int64(listener.backendPID))])

        // when waiting for notifications
        let error = #expect(throws: PGError.self) { try listener.waitForNotifications(timeout: .seconds(60)) }

        // then the wait fails as a broken connection
        #expect(error?.isConnectionFailure == true)
        #expect(error?.description.contains("\n") == false)
        #expect(!listener.isConnected)
    }
}
