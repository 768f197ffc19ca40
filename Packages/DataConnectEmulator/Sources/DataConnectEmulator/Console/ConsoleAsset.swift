import DataConnectEncoding

/// A file of the browser console, compiled into the emulator (the package's `Console/` folder, embedded by the
/// ConsoleAssets plugin).
struct ConsoleAsset: Sendable {
    /// The file's bytes.
    let bytes: [UInt8]
    /// Its `Content-Type`.
    let contentType: String

    /// Every asset by file name, decoded once.
    static let all: [String: ConsoleAsset] = {
        var assets: [String: ConsoleAsset] = [:]
        for (name, base64) in ConsoleAssets.base64 {
            guard let bytes = Base64.standard.decode(base64) else { continue }
            assets[name] = ConsoleAsset(bytes: bytes, contentType: contentType(ofFile: name))
        }
        return assets
    }()

    /// The asset named `name` (a file name of the folder, e.g. `app.js`), if there is one.
    static func named(_ name: String) -> ConsoleAsset? { all[name] }

    /// The `Content-Type` for a file name's extension.
    static func contentType(ofFile name: String) -> String {
        switch name.split(separator: ".").last {
        case "html": "text/html; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "svg": "image/svg+xml"
        case "json": "application/json"
        default: "application/octet-stream"
        }
    }
}
