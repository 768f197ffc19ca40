import AuthEmulator
import EmulatorHTTP
import Foundation

/// The Firebase Auth emulator beside the service: its storage follows the data store's, it imports and exports with
/// the data, and it can have a port of its own.
extension Emulator {
    /// The base URL of the Auth-only port (`http://127.0.0.1:9099`), when ``Options/authPort`` is set.
    public var authURL: String? {
        guard let authServer else { return nil }
        return "http://\(options.host):\(authServer.port)"
    }

    /// The URL clients give `useEmulator`/`connectAuthEmulator`: the Auth-only port when there is one, else the
    /// emulator's own; `nil` without Auth.
    public var authEmulatorURL: String? {
        guard auth != nil else { return nil }
        return authURL ?? url
    }

    /// Opens the Auth emulator the options ask for, with the storage that follows the data store: `auth.sqlite` in
    /// the data directory, the `dataconnect_auth` schema of the PostgreSQL database, else memory; then imports
    /// `<importDirectory>/auth_export` when there is one.
    static func openAuth(_ options: Options) throws(EmulatorError) -> AuthEmulator? {
        guard options.auth else { return nil }
        do {
            let storage: any AuthStorage
            if let connectionString = options.postgreSQL {
                storage = try PostgreSQLAuthStorage(connectionString: connectionString)
            } else if let directory = options.dataDirectory {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                storage = try SQLiteAuthStorage(path: (directory as NSString).appendingPathComponent("auth.sqlite"))
            } else {
                storage = MemoryAuthStorage()
            }
            let auth = try AuthEmulator(defaultProjectID: options.projectID, storage: storage)
            if let directory = options.importDirectory {
                let count = try auth.importData(from: directory)
                if count > 0 { options.log("imported \(count) Auth accounts from \(directory)") }
            }
            return auth
        } catch {
            throw EmulatorError("cannot start the Auth emulator: \(error)")
        }
    }

    /// The server of the Auth-only port, when one is asked for.
    static func authServer(
        _ auth: AuthEmulator?, options: Options, originPolicy: RequestOriginPolicy
    ) -> HTTPServer? {
        guard let auth, let port = options.authPort else { return nil }
        return HTTPServer(
            host: options.host, port: port, configuration: .init(threadPoolSize: max(1, min(options.threads, 4))),
            responder: AuthHTTPResponder(auth: auth, originPolicy: originPolicy))
    }
}
