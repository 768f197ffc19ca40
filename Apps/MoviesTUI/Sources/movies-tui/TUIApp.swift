import Foundation
import MoviesTUICore

/// The shell's main loop: multiplexes keys, signals and background results into the reducer, runs its effects
/// and draws its frames.
///
/// The loop runs on the main actor and only awaits: keys are read, and frames drawn, by the ``TerminalThread``,
/// so SDK work that needs the main actor (generated `execute` is `@MainActor`) runs while the app waits for a key.
@MainActor
enum TUIApp {
    /// How often the list is re-fetched from the server.
    /// The pause before subscribing again after the list's subscription ended with an error.
    static let resubscribeDelay = Duration.seconds(2)
    /// How long the app waits for a first list before giving up on an unreachable emulator.
    static let startupTimeout = Duration.seconds(15)

    /// Parses the arguments, runs the app and returns the exit status.
    ///
    /// - Returns: 0 after a normal quit (q, Ctrl-C, SIGTERM), 1 on a runtime error, 2 on a usage error.
    static func main(arguments: [String], environment: [String: String]) async -> Int32 {
        let options: LaunchOptions
        do {
            switch try LaunchCommand.parse(arguments, environment: environment) {
            case .help:
                FileHandle.standardOutput.write(Data(LaunchOptions.helpText.utf8))
                return 0
            case .run(let parsed):
                options = parsed
            }
        } catch {
            printError("\(error.message) (see movies-tui --help)")
            return 2
        }
        SignalFlag.install()
        let terminal: Terminal
        do {
            terminal = try Terminal()
        } catch {
            printError(String(describing: error))
            return 1
        }
        let size = terminal.size
        let thread = TerminalThread(terminal: terminal)
        do {
            try await run(options, size: size, thread: thread)
            thread.stop()
            terminal.end()
            return 0
        } catch {
            // Restore the terminal before printing, or the message would be lost in the alternate screen.
            thread.stop()
            terminal.end()
            printError(String(describing: error))
            return 1
        }
    }

    static func run(_ options: LaunchOptions, size: ScreenSize, thread: TerminalThread) async throws {
        let inbox = Inbox()
        let service = MoviesService(
            address: options.emulator, signInDirectory: options.signInDirectory, inbox: inbox)
        let feed: any MovieFeed = SubscribedMovieFeed(ref: service.listRef, retryDelay: resubscribeDelay)
        let feedTask = Task.detached {
            for await event in feed.events() {
                switch event {
                case .movies(let movies): inbox.post(.moviesLoaded(movies))
                case .failed(let message): inbox.post(.feedFailed(message))
                }
            }
        }
        defer { feedTask.cancel() }

        var state = AppState(emulator: options.emulator.description, size: size)
        if let kept = service.auth.currentUser {
            // Signed in by an earlier run (or by `movies login`): show it, then load the user's favorites.
            state.pendingSignIn = kept.email ?? kept.uid
            Task.detached {
                if let action = await service.restoreSignIn() { inbox.post(action) }
            }
        }
        let started = ContinuousClock.now
        thread.show(Screen.render(state))
        var events = thread.events.makeAsyncIterator()
        while !state.isQuitting {
            var actions: [Action] = []
            if SignalFlag.received != nil { actions.append(.interrupted) }
            switch await events.next() {
            case .key(let key): actions.append(.key(key))
            case .resized(let size): actions.append(.resized(size))
            case .interrupt: actions.append(.interrupted)
            case .tick: break
            case nil: actions.append(.interrupted)
            }
            actions += inbox.drain()
            guard !actions.isEmpty else { continue }
            let before = state
            for action in actions {
                let (next, effects) = reduce(state, action)
                state = next
                for effect in effects { service.run(effect) }
            }
            if !state.hasLoaded, let error = state.feedError, ContinuousClock.now - started > startupTimeout {
                throw DescribedError(
                    description: "cannot load movies from the emulator at \(options.emulator): \(error)")
            }
            if state != before || actions.contains(where: { if case .resized = $0 { true } else { false } }) {
                thread.show(Screen.render(state))
            }
        }
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data("movies-tui: error: \(message)\n".utf8))
    }
}
