import Foundation

/// Finds an executable SwiftPM built for the tests: the one lookup every process-running test target uses.
///
/// SwiftPM builds an executable product next to the test runner when the test target depends on it: the runner is
/// `.build/<triple>/debug/<Package>PackageTests.xctest` (an executable on Linux, a bundle on macOS), and the tool
/// is `.build/<triple>/debug/<name>`. An environment variable named after the tool overrides the search:
/// `DATACONNECT_EXECUTABLE`, `MOVIES_EXECUTABLE`, `MOVIES_TUI_EXECUTABLE`.
///
/// ```swift
/// let dataconnect = try BuiltExecutable.require("dataconnect")
/// let result = try await ChildProcess.run(dataconnect, ["--version"])
/// ```
public enum BuiltExecutable {
    /// Why a built executable is missing.
    public struct Missing: Error, CustomStringConvertible {
        /// What was looked for, and where.
        public var description: String
    }

    /// The environment variable that overrides the search for `name`: `movies-tui` gives `MOVIES_TUI_EXECUTABLE`.
    public static func overrideVariable(for name: String) -> String {
        name.uppercased().replacingOccurrences(of: "-", with: "_") + "_EXECUTABLE"
    }

    /// The built executable `name`, or `nil` when there is none.
    ///
    /// - Parameter name: The product's name, e.g. `dataconnect`.
    /// - Returns: The executable's URL.
    public static func find(_ name: String) -> URL? {
        let fileManager = FileManager.default
        if let override = ProcessInfo.processInfo.environment[overrideVariable(for: name)] {
            return fileManager.isExecutableFile(atPath: override) ? URL(fileURLWithPath: override) : nil
        }
        for start in [Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments.first ?? ".")] {
            // Walk up from the runner (or from inside a macOS `.xctest` bundle) to the build directory.
            var directory = start.standardizedFileURL
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent(name)
                var isDirectory: ObjCBool = false
                if fileManager.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                    fileManager.isExecutableFile(atPath: candidate.path)
                {
                    return candidate
                }
                directory = directory.deletingLastPathComponent()
            }
        }
        return nil
    }

    /// The built executable `name`.
    ///
    /// - Parameter name: The product's name.
    /// - Returns: The executable's URL.
    /// - Throws: ``Missing``, saying how to build it.
    public static func require(_ name: String) throws -> URL {
        guard let url = find(name) else {
            throw Missing(
                description: "no built `\(name)` next to \(Bundle.main.bundleURL.path) and no "
                    + "\(overrideVariable(for: name)); run `swift build --product \(name)` first")
        }
        return url
    }
}
