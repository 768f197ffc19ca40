import CSQLite

/// The Swift body of an SQL function, boxed for SQLite's `void *` user data.
private final class FunctionBox {
    let body: @Sendable ([SQLiteValue]) throws -> SQLiteValue
    let interrupt: InterruptSignal

    init(_ body: @escaping @Sendable ([SQLiteValue]) throws -> SQLiteValue, interrupt: InterruptSignal) {
        self.body = body
        self.interrupt = interrupt
    }
}

extension Connection {
    /// Registers a scalar SQL function implemented in Swift.
    ///
    /// The function receives its arguments as ``SQLiteValue``s and returns one; a thrown error becomes an
    /// SQL error whose message is the error's description.
    ///
    /// ```swift
    /// try connection.createFunction("reverse", argumentCount: 1) { arguments in
    ///     guard case .text(let text) = arguments[0] else { return .null }
    ///     return .text(String(text.reversed()))
    /// }
    /// ```
    ///
    /// Once ``interrupt()`` is called, the function fails with `SQLITE_INTERRUPT` instead of running, until
    /// ``clearInterrupt()``: a function that is expensive on one call stops the statement at its next call.
    ///
    /// - Parameters:
    ///   - name: The SQL name.
    ///   - argumentCount: The number of arguments, or -1 for any.
    ///   - deterministic: Whether equal arguments always give equal results (lets SQLite use it in indexes).
    ///   - body: The implementation; it may be called on any thread that uses this connection.
    /// - Throws: ``SQLiteError`` when SQLite refuses the registration.
    public func createFunction(
        _ name: String, argumentCount: Int32, deterministic: Bool = true,
        _ body: @escaping @Sendable ([SQLiteValue]) throws -> SQLiteValue
    ) throws(SQLiteError) {
        let box = Unmanaged.passRetained(FunctionBox(body, interrupt: interruptSignal)).toOpaque()
        var flags = SQLITE_UTF8
        if deterministic { flags |= SQLITE_DETERMINISTIC }
        let code = sqlite3_create_function_v2(
            handle, name, argumentCount, flags, box,
            { context, count, arguments in
                let box = Unmanaged<FunctionBox>.fromOpaque(sqlite3_user_data(context)!).takeUnretainedValue()
                if box.interrupt.isRaised {
                    sqlite3_result_error_code(context, SQLITE_INTERRUPT)
                    return
                }
                var values: [SQLiteValue] = []
                values.reserveCapacity(Int(count))
                for index in 0..<Int(count) {
                    let value = arguments![index]
                    switch sqlite3_value_type(value) {
                    case SQLITE_INTEGER: values.append(.integer(sqlite3_value_int64(value)))
                    case SQLITE_FLOAT: values.append(.real(sqlite3_value_double(value)))
                    case SQLITE_TEXT: values.append(.text(String(cString: sqlite3_value_text(value))))
                    case SQLITE_BLOB:
                        let count = Int(sqlite3_value_bytes(value))
                        let bytes = sqlite3_value_blob(value).map {
                            Array(UnsafeRawBufferPointer(start: $0, count: count))
                        }
                        values.append(.blob(bytes ?? []))
                    default: values.append(.null)
                    }
                }
                do {
                    switch try box.body(values) {
                    case .null: sqlite3_result_null(context)
                    case .integer(let i): sqlite3_result_int64(context, i)
                    case .real(let d): sqlite3_result_double(context, d)
                    case .text(let s): sqlite3_result_text(context, s, -1, sqliteTransient)
                    case .blob(let b):
                        b.withUnsafeBytes {
                            sqlite3_result_blob(context, $0.baseAddress, Int32($0.count), sqliteTransient)
                        }
                    }
                } catch {
                    sqlite3_result_error(context, "\(error)", -1)
                }
            }, nil, nil,
            { box in
                if let box { Unmanaged<FunctionBox>.fromOpaque(box).release() }
            })
        guard code == SQLITE_OK else {
            throw SQLiteError(
                extendedCode: ResultCode(rawValue: code), message: "cannot register SQL function \(name)")
        }
    }
}

extension Connection {
    /// Registers `name()`: 1 while the connection is not interrupted, an `SQLITE_INTERRUPT` error once
    /// ``interrupt()`` was called (until ``clearInterrupt()``).
    ///
    /// SQLite notices an interrupt only between virtual-machine steps that loop (the next row, mostly); an
    /// expression that is expensive within one row (hundreds of `LIKE`s over megabytes of text) runs to its end.
    /// Calling `name()` before each expensive term (`name() AND title LIKE ?1`) stops the row at the next term.
    /// The call costs a few nanoseconds; it is not deterministic, so SQLite evaluates it every time.
    ///
    /// ```swift
    /// try connection.createInterruptCheckFunction("go_on")
    /// // SELECT id FROM movie WHERE (go_on() AND title LIKE ?1) OR (go_on() AND title LIKE ?2)
    /// ```
    ///
    /// - Parameter name: The SQL name.
    /// - Throws: ``SQLiteError`` when SQLite refuses the registration.
    public func createInterruptCheckFunction(_ name: String) throws(SQLiteError) {
        let signal = Unmanaged.passRetained(interruptSignal).toOpaque()
        let code = sqlite3_create_function_v2(
            handle, name, 0, SQLITE_UTF8, signal,
            { context, _, _ in
                guard let context, let signal = sqlite3_user_data(context) else { return }
                if Unmanaged<InterruptSignal>.fromOpaque(signal).takeUnretainedValue().isRaised {
                    sqlite3_result_error_code(context, SQLITE_INTERRUPT)
                } else {
                    sqlite3_result_int(context, 1)
                }
            }, nil, nil,
            { signal in
                if let signal { Unmanaged<InterruptSignal>.fromOpaque(signal).release() }
            })
        guard code == SQLITE_OK else {
            throw SQLiteError(
                extendedCode: ResultCode(rawValue: code), message: "cannot register SQL function \(name)")
        }
    }
}
