import FirebaseDataConnect
import Foundation
import MoviesCLICore

// The `movies` executable: parses the command line, runs it against the movies connector, and exits with
// the documented status. All logic that can be tested without a process lives in MoviesCLICore.

// The CLI reports every failure itself, on one line; the SDK's own warnings would repeat it.
FirebaseConfiguration.shared.setLoggerLevel(.error)
let status = await MoviesApp.run(
    arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
exit(status.rawValue)
