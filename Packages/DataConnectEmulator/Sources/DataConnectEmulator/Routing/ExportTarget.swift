import DataConnectWire
import Foundation

/// The directory `POST /emulator/export` writes to, checked before anything is written.
///
/// An export is a directory (`<path>/dataconnect_export/sqlite.db` and `<path>/firebase-export-metadata.json`), so
/// a path that names a file, or lies under one, is the caller's mistake: it is answered 400 `INVALID_ARGUMENT`
/// with a message saying so, not 500 with the file system's error text.
///
/// ```swift
/// if let error = ExportTarget.problem(with: "/tmp/notes.txt") {
///     return EmulatorResponder.error(error)   // export path "/tmp/notes.txt" is a file; give a directory
/// }
/// ```
enum ExportTarget {
    /// Why `path` cannot be an export directory, or `nil` when it is one or can be created.
    ///
    /// - Parameter path: The `path` member of the request, absolute or relative to the emulator's working
    ///   directory.
    /// - Returns: A 400 `INVALID_ARGUMENT` error naming the path, or `nil`.
    static func problem(with path: String) -> RequestError? {
        guard !path.isEmpty else {
            return RequestError(status: .invalidArgument, message: "export path is empty; give a directory")
        }
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        if files.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                return RequestError(
                    status: .invalidArgument, message: "export path \"\(path)\" is a file; give a directory")
            }
            return nil
        }
        // A missing directory is created, unless a file stands where one of its parents should be.
        var parent = URL(fileURLWithPath: path).deletingLastPathComponent()
        while parent.path != "/" && !files.fileExists(atPath: parent.path, isDirectory: &isDirectory) {
            parent = parent.deletingLastPathComponent()
        }
        if !isDirectory.boolValue && parent.path != "/" {
            return RequestError(
                status: .invalidArgument,
                message: "export path \"\(path)\" is inside \"\(parent.path)\", which is a file; give a directory")
        }
        return nil
    }
}
