import DataConnectWire
import Foundation

/// Export, import and the read-only views the console and tests use.
extension AuthEmulator {
    /// The folder of an export that holds the Auth emulator's files.
    public static let exportFolder = "auth_export"

    /// Writes the default project's accounts and settings in firebase-tools' `auth_export` format:
    /// `<directory>/auth_export/accounts.json` (`{"kind": "identitytoolkit#DownloadAccountResponse", "users": […]}`)
    /// and `<directory>/auth_export/config.json`.
    ///
    /// ```swift
    /// try auth.export(to: "exports/latest")   // exports/latest/auth_export/accounts.json
    /// ```
    ///
    /// - Parameter directory: The export folder (created when missing).
    /// - Throws: File system errors.
    public func export(to directory: String) throws {
        let folder = URL(fileURLWithPath: directory).appendingPathComponent(Self.exportFolder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let state = projects.withLock { $0[defaultProjectID] } ?? ProjectState(projectID: defaultProjectID)
        let accounts: JSONValue = [
            "kind": "identitytoolkit#DownloadAccountResponse", "users": .array(state.usersByLocalID.map(\.json)),
        ]
        try Data(accounts.serialized()).write(to: folder.appendingPathComponent("accounts.json"))
        try Data(state.config.json.serialized()).write(to: folder.appendingPathComponent("config.json"))
    }

    /// Loads `<directory>/auth_export/` into the default project, as firebase-tools imports it: the settings, then the
    /// accounts through `accounts:batchCreate` (an account with the same user id is replaced).
    ///
    /// ```swift
    /// let imported = try auth.importData(from: "exports/latest")   // 12
    /// ```
    ///
    /// - Parameter directory: The export folder; nothing happens when it has no `auth_export`.
    /// - Returns: The number of accounts imported.
    /// - Throws: File system errors, a malformed file, or an ``AuthAPIError`` naming the first account refused.
    @discardableResult
    public func importData(from directory: String) throws -> Int {
        let folder = URL(fileURLWithPath: directory).appendingPathComponent(Self.exportFolder)
        let configFile = folder.appendingPathComponent("config.json")
        let accountsFile = folder.appendingPathComponent("accounts.json")
        var imported = 0
        if FileManager.default.fileExists(atPath: configFile.path) {
            let config = try JSONValue(parsing: Array(try Data(contentsOf: configFile)))
            _ = try call(.emulatorUpdateConfig, body: config.objectValue ?? [:])
        }
        if FileManager.default.fileExists(atPath: accountsFile.path) {
            let accounts = try JSONValue(parsing: Array(try Data(contentsOf: accountsFile)))
            let users = accounts["users"]?.arrayValue ?? []
            guard !users.isEmpty else { return 0 }
            let answer = try call(.batchCreate, body: ["users": .array(users), "allowOverwrite": true])
            if let failure = answer["error"]?.arrayValue?.first {
                throw AuthAPIError.badRequest(
                    "account \(failure["index"]?.intValue ?? 0): \(failure["message"]?.stringValue ?? "refused")")
            }
            imported = users.count
        }
        return imported
    }

    /// Runs an operation as an admin on the default project, outside HTTP.
    private func call(_ operation: AuthRoute.Operation, body: JSONObject) throws(AuthAPIError) -> JSONValue {
        let projectID = defaultProjectID
        var path = "/emulator/v1/projects/\(projectID)/config"
        if operation == .batchCreate {
            path = "/identitytoolkit.googleapis.com/v1/projects/\(projectID)/accounts:batchCreate"
        }
        var request = HTTPRequestBuilder.admin(path: path, method: operation == .batchCreate ? .post : .patch)
        request.body = JSONValue.object(body).serialized()
        guard let response = respond(to: request), let bytes = response.bodyBytes else { throw .notFound }
        let value = (try? JSONValue(parsing: bytes)) ?? .null
        if response.status.code != 200 {
            throw .badRequest(value["error"]?["message"]?.stringValue ?? "HTTP \(response.status.code)")
        }
        return value
    }

    /// A project's accounts, sorted by user id.
    ///
    /// - Parameter projectID: The project; the default one when `nil`.
    /// - Returns: The accounts.
    public func accounts(inProject projectID: String? = nil) -> [UserRecord] {
        projects.withLock { $0[projectID ?? defaultProjectID]?.usersByLocalID } ?? []
    }

    /// A project's settings.
    ///
    /// - Parameter projectID: The project; the default one when `nil`.
    /// - Returns: The settings (the defaults for a project never used).
    public func config(ofProject projectID: String? = nil) -> ProjectConfig {
        projects.withLock { $0[projectID ?? defaultProjectID]?.config } ?? ProjectConfig()
    }

    /// The out-of-band codes not yet applied in a project, oldest first.
    ///
    /// - Parameter projectID: The project; the default one when `nil`.
    /// - Returns: The codes, with their links.
    public func oobCodes(inProject projectID: String? = nil) -> [OobRecord] {
        projects.withLock { $0[projectID ?? defaultProjectID]?.oobCodes } ?? []
    }
}
