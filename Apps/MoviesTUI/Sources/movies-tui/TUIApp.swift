import Foundation
import MoviesTUICore

/// The shell's main loop: multiplexes keys (50 ms `get_wch` timeouts), signals and background results into
/// the reducer, runs its effects and draws its frames.
enum TUIApp {
    /// How often the list is re-fetched from the server.
    /// The pause before subscribing again after the list's subscription ended with an error.
    static let resubscribeDelay = Duration.seconds(2)
    /// How long the app waits for a first list before giving up on an unreachable emulator.
    static let startupTimeout = Duration.seconds(15)

    /// Parses the arguments, runs the app and returns the exit status.
    ///
    /// - Returns: 0 after a normal quit (q, Ctrl-C, SIGTERM), 1 on a runtime error, 2 on a usage error.
    static func main(arguments: [String], environment: [String: String]) -> Int32 {
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
        do {
            try run(options, terminal: terminal)
            terminal.end()
            return 0
        } catch {
            // Restore the terminal before printing, or the message would be lost in the alternate screen.
            terminal.end()
            printError(String(describing: error))
            return 1
        }
    }

    static func run(_ options: LaunchOptions, terminal: Terminal) throws {
        let inbox = Inbox()
        let service = MoviesService(address: options.emulator, inbox: inbox)
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

        var state = AppState(emulator: options.emulator.description, size: terminal.size)
        if let uid = options.uid {
            state.pendingSignIn = uid
            service.run(.signIn(uid: uid))
        }
        let started = ContinuousClock.now
        terminal.draw(Screen.render(state))
        while !state.isQuitting {
            var actions: [Action] = []
            if SignalFlag.received != nil { actions.append(.interrupted) }
            switch terminal.read() {
            case .key(let key): actions.append(.key(key))
            case .resize: actions.append(.resized(terminal.size))
            case .interrupt: actions.append(.interrupted)
            case nil: break
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
                terminal.draw(Screen.render(state))
            }
        }
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data("movies-tui: error: \(message)\n".utf8))
    }
}
