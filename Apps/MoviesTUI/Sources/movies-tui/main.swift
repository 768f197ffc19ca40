import FirebaseDataConnect
import Foundation

// The `movies-tui` executable: an ncurses browser for the movies catalogue. All logic that can be tested
// without a terminal lives in MoviesTUICore; this target only draws, maps keys and runs effects.

// Nothing may write to the terminal behind ncurses: failures show in the status bar, not as SDK warnings.
FirebaseConfiguration.shared.setLoggerLevel(.error)
exit(
    await TUIApp.main(
        arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
