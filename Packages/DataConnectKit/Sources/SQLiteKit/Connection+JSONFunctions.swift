import CSQLite

extension Connection {
    /// The subtype SQLite's JSON functions give the JSON text they return (`'J'`): `json_object`, `json_array`
    /// and `json_group_array` embed an argument that carries it as JSON rather than quoting it as a string.
    public static let jsonSubtype: UInt32 = 74

    /// Registers `name(x)`: the JSON text `x`, returned as it is and marked as JSON, so that SQLite's JSON
    /// functions embed it without parsing and writing it again as `json(x)` does.
    ///
    /// SQLite drops the mark when a value leaves a subquery, so `json_object('a', (SELECT json_object(…)))`
    /// quotes the inner object; `json_object('a', name((SELECT json_object(…))))` embeds it.
    ///
    /// With `checked`, text is checked to be one JSON value first (RFC 8259, at most ``maximumJSONDepth``
    /// levels deep) without building anything, and text that is not is an SQL error, as `json(x)` makes it:
    /// use it for stored text. Without, the text is trusted: use it only for text SQLite's JSON functions
    /// wrote. `NULL` gives `NULL`; numbers pass unchanged; a blob is an error.
    ///
    /// ```swift
    /// try connection.createJSONTextFunction("embed_json", checked: false)
    /// // SELECT json_object('director', embed_json((SELECT json_object('name', name) FROM person …)))
    /// ```
    ///
    /// - Throws: ``SQLiteError`` when SQLite refuses the registration.
    public func createJSONTextFunction(_ name: String, checked: Bool) throws(SQLiteError) {
        let trusted: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
            context, _, arguments in
            guard let context, let argument = arguments?[0] else { return }
            sqlite3_result_value(context, argument)
            if sqlite3_value_type(argument) == SQLITE_TEXT { sqlite3_result_subtype(context, Connection.jsonSubtype) }
        }
        let checking: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
            context, _, arguments in
            guard let context, let argument = arguments?[0] else { return }
            // The check reads the whole text: it refuses to start once the connection was interrupted.
            if let signal = sqlite3_user_data(context),
                Unmanaged<InterruptSignal>.fromOpaque(signal).takeUnretainedValue().isRaised
            {
                sqlite3_result_error_code(context, SQLITE_INTERRUPT)
                return
            }
            switch sqlite3_value_type(argument) {
            case SQLITE_TEXT:
                let count = Int(sqlite3_value_bytes(argument))
                guard let text = sqlite3_value_text(argument),
                    JSONTextCheck.isValid(UnsafeBufferPointer(start: text, count: count))
                else {
                    sqlite3_result_error(context, "malformed JSON", -1)
                    return
                }
                sqlite3_result_value(context, argument)
                sqlite3_result_subtype(context, Connection.jsonSubtype)
            case SQLITE_BLOB:
                sqlite3_result_error(context, "JSON cannot hold BLOB values", -1)
            default:
                sqlite3_result_value(context, argument)
            }
        }
        // The checking function holds the connection's interrupt flag (released with the function).
        let signal = checked ? Unmanaged.passRetained(interruptSignal).toOpaque() : nil
        let code = sqlite3_create_function_v2(
            handle, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, signal, checked ? checking : trusted, nil, nil,
            { signal in
                if let signal { Unmanaged<InterruptSignal>.fromOpaque(signal).release() }
            })
        guard code == SQLITE_OK else {
            throw SQLiteError(extendedCode: ResultCode(rawValue: code), message: "cannot register SQL function \(name)")
        }
    }

    /// Registers `name(x)`: a number as the shortest JSON number that reads back as the same double (SQLite's
    /// own JSON keeps only 15 significant digits), marked as JSON for SQLite's JSON functions; `NULL` for
    /// `NULL`, text, blobs and non-finite values, which JSON cannot hold.
    ///
    /// - Throws: ``SQLiteError`` when SQLite refuses the registration.
    public func createJSONNumberFunction(_ name: String) throws(SQLiteError) {
        let code = sqlite3_create_function_v2(
            handle, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            { context, _, arguments in
                guard let context, let argument = arguments?[0] else { return }
                var text: String
                switch sqlite3_value_type(argument) {
                case SQLITE_INTEGER:
                    text = String(sqlite3_value_int64(argument))
                case SQLITE_FLOAT:
                    let value = sqlite3_value_double(argument)
                    guard value.isFinite else {
                        sqlite3_result_null(context)
                        return
                    }
                    text = value.description
                default:
                    sqlite3_result_null(context)
                    return
                }
                text.withUTF8 { bytes in
                    sqlite3_result_text(
                        context, UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self),
                        Int32(bytes.count), sqliteTransient)
                }
                sqlite3_result_subtype(context, Connection.jsonSubtype)
            }, nil, nil, nil)
        guard code == SQLITE_OK else {
            throw SQLiteError(extendedCode: ResultCode(rawValue: code), message: "cannot register SQL function \(name)")
        }
    }

    /// The deepest nesting of arrays and objects the checked JSON text function accepts.
    public static let maximumJSONDepth = 1000
}

/// A strict check that bytes are one JSON text (RFC 8259), building nothing: values, white space between
/// tokens, strings without raw control characters and with valid escapes, numbers in JSON's grammar.
enum JSONTextCheck {
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var reader = Reader(bytes: bytes)
        return reader.document()
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0
        /// The open containers, innermost last: `true` for an object.
        var containers: [Bool] = []

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        var current: UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func skipSpaces() {
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard current == byte else { return false }
            position += 1
            return true
        }

        mutating func document() -> Bool {
            while true {
                // A value is expected.
                skipSpaces()
                switch current {
                case UInt8(ascii: "{"):
                    // An empty container counts as a level too.
                    guard containers.count < Connection.maximumJSONDepth else { return false }
                    position += 1
                    skipSpaces()
                    if take(UInt8(ascii: "}")) { break }
                    guard member() else { return false }
                    containers.append(true)
                    continue
                case UInt8(ascii: "["):
                    guard containers.count < Connection.maximumJSONDepth else { return false }
                    position += 1
                    skipSpaces()
                    if take(UInt8(ascii: "]")) { break }
                    containers.append(false)
                    continue
                case UInt8(ascii: "\""):
                    guard string() else { return false }
                case UInt8(ascii: "t"):
                    guard literal("true") else { return false }
                case UInt8(ascii: "f"):
                    guard literal("false") else { return false }
                case UInt8(ascii: "n"):
                    guard literal("null") else { return false }
                default:
                    guard number() else { return false }
                }
                // A value ended: close what it ends, or go on to the next element or member.
                while true {
                    skipSpaces()
                    guard let isObject = containers.last else { return position == bytes.count }
                    if take(UInt8(ascii: ",")) {
                        if isObject {
                            skipSpaces()
                            guard member() else { return false }
                        }
                        break
                    }
                    guard take(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { return false }
                    containers.removeLast()
                }
            }
        }

        /// A member's name and its colon.
        mutating func member() -> Bool {
            guard current == UInt8(ascii: "\""), string() else { return false }
            skipSpaces()
            return take(UInt8(ascii: ":"))
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard bytes.count - position >= count else { return false }
            for index in 0..<count where bytes[position + index] != word.utf8Start[index] { return false }
            position += count
            return true
        }

        mutating func string() -> Bool {
            position += 1
            while let byte = current {
                position += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return true
                case UInt8(ascii: "\\"):
                    guard let escaped = current else { return false }
                    position += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                        UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        continue
                    case UInt8(ascii: "u"):
                        for _ in 0..<4 {
                            guard let hex = current, Self.isHexDigit(hex) else { return false }
                            position += 1
                        }
                    default:
                        return false
                    }
                case 0..<0x20:
                    return false
                default:
                    continue
                }
            }
            return false
        }

        static func isHexDigit(_ byte: UInt8) -> Bool {
            (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
        }

        mutating func digits() -> Bool {
            let start = position
            while let byte = current, byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") { position += 1 }
            return position > start
        }

        mutating func number() -> Bool {
            _ = take(UInt8(ascii: "-"))
            if take(UInt8(ascii: "0")) {
                // No leading zeros.
            } else if !digits() {
                return false
            }
            if take(UInt8(ascii: ".")), !digits() { return false }
            if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
                if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
                guard digits() else { return false }
            }
            return true
        }
    }
}
