import CSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A distance between two vectors, as pgvector defines it.
public enum VectorDistance: Int, Sendable, CaseIterable {
    /// The Euclidean distance (pgvector's `<->`).
    case euclidean
    /// One minus the cosine similarity (pgvector's `<=>`); undefined (NULL) for a zero vector.
    case cosine
    /// The inner product, negated so that smaller is closer (pgvector's `<#>`).
    case negativeInnerProduct
}

extension Connection {
    /// Registers a scalar SQL function `name(a, b)`: the distance between two vectors, each a JSON array of
    /// numbers (`'[1, 2.5, -3]'`); the first may also be a blob from ``createVectorBlobFunction(_:)``.
    ///
    /// The function answers NULL when either argument is NULL, when the two have different sizes, when one
    /// is not an array of numbers, or when the distance is undefined (the cosine of a zero vector). The
    /// second argument is parsed once per statement when it is a constant or a bound parameter (SQLite's
    /// auxiliary data); the first is read in place, number by number, without building an array.
    ///
    /// ```swift
    /// try connection.createVectorDistanceFunction("vector_l2", distance: .euclidean)
    /// // SELECT vector_l2(embedding, ?1) FROM movie ORDER BY 1
    /// ```
    ///
    /// - Parameters:
    ///   - name: The SQL name.
    ///   - distance: The distance the function computes.
    /// - Throws: ``SQLiteError`` when SQLite refuses the registration.
    public func createVectorDistanceFunction(_ name: String, distance: VectorDistance) throws(SQLiteError) {
        let userData = Unmanaged.passRetained(VectorFunctionData(distance, interrupt: interruptSignal)).toOpaque()
        let code = sqlite3_create_function_v2(
            handle, name, 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, userData,
            { context, _, arguments in
                guard let context, let arguments, let first = arguments[0], let second = arguments[1] else { return }
                let data = Unmanaged<VectorFunctionData>.fromOpaque(sqlite3_user_data(context)!).takeUnretainedValue()
                if data.interrupt.isRaised {
                    sqlite3_result_error_code(context, SQLITE_INTERRUPT)
                    return
                }
                let kind = data.distance
                var compared = sqlite3_get_auxdata(context, 1)?.assumingMemoryBound(to: Double.self)
                var owned: UnsafeMutablePointer<Double>?
                defer { owned.map { free($0) } }
                if compared == nil {
                    guard sqlite3_value_type(second) == SQLITE_TEXT, let text = sqlite3_value_text(second),
                        let parsed = VectorText.parse(text)
                    else {
                        sqlite3_result_null(context)
                        return
                    }
                    sqlite3_set_auxdata(context, 1, parsed, { $0.map { free($0) } })
                    // SQLite may free the data at once when it cannot keep it: then parse it for this call only.
                    compared = sqlite3_get_auxdata(context, 1)?.assumingMemoryBound(to: Double.self)
                    if compared == nil {
                        owned = VectorText.parse(text)
                        compared = owned
                    }
                }
                guard let compared else {
                    sqlite3_result_null(context)
                    return
                }
                let value: Double?
                switch sqlite3_value_type(first) {
                case SQLITE_BLOB:
                    let bytes = Int(sqlite3_value_bytes(first))
                    if let blob = sqlite3_value_blob(first), bytes % 8 == 0 {
                        value = VectorBlob.distance(UnsafeRawPointer(blob), count: bytes / 8, compared, kind)
                    } else {
                        value = nil
                    }
                case SQLITE_TEXT:
                    value = sqlite3_value_text(first).flatMap { VectorText.distance($0, compared, kind) }
                default:
                    value = nil
                }
                guard let value else {
                    sqlite3_result_null(context)
                    return
                }
                sqlite3_result_double(context, value)
            }, nil, nil,
            { data in
                if let data { Unmanaged<VectorFunctionData>.fromOpaque(data).release() }
            })
        guard code == SQLITE_OK else {
            throw SQLiteError(
                extendedCode: ResultCode(rawValue: code), message: "cannot register SQL function \(name)")
        }
    }
}

extension Connection {
    /// Registers a scalar SQL function `name(a)`: the JSON array of numbers `a` as a blob of little-endian
    /// IEEE 754 doubles, which the distance functions read without parsing text; NULL when `a` is NULL or not
    /// an array of numbers.
    ///
    /// A stored blob copy of a vector column makes a similarity scan read 8 bytes per element instead of
    /// parsing its decimal text on every query.
    ///
    /// ```swift
    /// try connection.createVectorBlobFunction("vector_blob")
    /// // UPDATE movie SET embedding_blob = vector_blob(embedding)
    /// ```
    ///
    /// - Parameter name: The SQL name.
    /// - Throws: ``SQLiteError`` when SQLite refuses the registration.
    public func createVectorBlobFunction(_ name: String) throws(SQLiteError) {
        let code = sqlite3_create_function_v2(
            handle, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            { context, _, arguments in
                guard let context, let arguments, let first = arguments[0],
                    sqlite3_value_type(first) == SQLITE_TEXT, let text = sqlite3_value_text(first),
                    let parsed = VectorText.parse(text)
                else {
                    if let context { sqlite3_result_null(context) }
                    return
                }
                defer { free(parsed) }
                let count = Int(parsed[0])
                let bytes = count * 8
                guard let blob = malloc(max(bytes, 1)) else {
                    sqlite3_result_error_nomem(context)
                    return
                }
                for index in 0..<count {
                    blob.storeBytes(
                        of: parsed[index + 1].bitPattern.littleEndian, toByteOffset: index * 8, as: UInt64.self)
                }
                sqlite3_result_blob(context, blob, Int32(bytes), { $0.map { free($0) } })
            }, nil, nil, nil)
        guard code == SQLITE_OK else {
            throw SQLiteError(
                extendedCode: ResultCode(rawValue: code), message: "cannot register SQL function \(name)")
        }
    }
}

/// The running sums of one pass over two vectors, and the distance they give.
private struct DistanceSums {
    let kind: VectorDistance
    var sum = 0.0
    var normA = 0.0
    var normB = 0.0

    init(kind: VectorDistance) {
        self.kind = kind
    }

    @inline(__always)
    mutating func add(_ a: Double, _ b: Double) {
        switch kind {
        case .euclidean:
            sum += (a - b) * (a - b)
        case .cosine:
            sum += a * b
            normA += a * a
            normB += b * b
        case .negativeInnerProduct:
            sum += a * b
        }
    }

    /// The distance; `nil` for the cosine of a zero vector.
    var distance: Double? {
        switch kind {
        case .euclidean: return sum.squareRoot()
        case .negativeInnerProduct: return -sum
        case .cosine:
            let norms = (normA * normB).squareRoot()
            guard norms > 0 else { return nil }
            return 1 - sum / norms
        }
    }
}

/// Reads vectors stored as blobs of little-endian doubles.
private enum VectorBlob {
    /// The distance between the `count` doubles at `blob` and `compared` (a buffer from ``VectorText/parse(_:)``).
    @inline(__always)
    static func distance(
        _ blob: UnsafeRawPointer, count: Int, _ compared: UnsafePointer<Double>, _ kind: VectorDistance
    ) -> Double? {
        guard count == Int(compared[0]) else { return nil }
        var sums = DistanceSums(kind: kind)
        for index in 0..<count {
            let a = Double(
                bitPattern: UInt64(littleEndian: blob.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)))
            sums.add(a, compared[index + 1])
        }
        return sums.distance
    }
}

/// Reads JSON arrays of numbers in place.
private enum VectorText {
    /// A `malloc`ed buffer: the element count, then the elements; `nil` when the text is not an array of numbers.
    static func parse(_ text: UnsafePointer<UInt8>) -> UnsafeMutablePointer<Double>? {
        var values: [Double] = []
        guard scan(text, { values.append($0) }) else { return nil }
        guard let buffer = malloc((values.count + 1) * MemoryLayout<Double>.stride) else { return nil }
        let doubles = buffer.bindMemory(to: Double.self, capacity: values.count + 1)
        doubles[0] = Double(values.count)
        for (index, value) in values.enumerated() { doubles[index + 1] = value }
        return doubles
    }

    /// The distance between the array in `text` and `compared` (a buffer from ``parse(_:)``).
    static func distance(
        _ text: UnsafePointer<UInt8>, _ compared: UnsafePointer<Double>, _ kind: VectorDistance
    )
        -> Double?
    {
        let count = Int(compared[0])
        var index = 0
        var sums = DistanceSums(kind: kind)
        var fits = true
        let parsed = scan(text) { a in
            guard index < count else {
                fits = false
                return
            }
            sums.add(a, compared[index + 1])
            index += 1
        }
        guard parsed, fits, index == count else { return nil }
        return sums.distance
    }

    /// Calls `element` with each number of the JSON array in `text`; `false` when it is not one.
    @inline(__always)
    static func scan(_ text: UnsafePointer<UInt8>, _ element: (Double) -> Void) -> Bool {
        var p = text
        @inline(__always) func skipSpaces() {
            while p.pointee == 0x20 || p.pointee == 0x0A || p.pointee == 0x0D || p.pointee == 0x09 { p += 1 }
        }
        skipSpaces()
        guard p.pointee == UInt8(ascii: "[") else { return false }
        p += 1
        skipSpaces()
        if p.pointee == UInt8(ascii: "]") { return true }
        while true {
            guard let value = number(&p), value.isFinite else { return false }
            element(value)
            skipSpaces()
            if p.pointee == UInt8(ascii: ",") {
                p += 1
                skipSpaces()
            } else if p.pointee == UInt8(ascii: "]") {
                return true
            } else {
                return false
            }
        }
    }

    /// The exact powers of ten a `Double` holds.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
        1e19, 1e20, 1e21, 1e22,
    ]

    /// Reads the JSON number at `p` and moves past it; `nil` when there is none.
    ///
    /// A number of at most 15 significant digits whose decimal exponent is within ±22 (every vector element
    /// written by a program in practice) is computed exactly as one multiplication or division of two exact
    /// `Double`s (Clinger's fast path), so it is the correctly rounded value `strtod` gives; any other number
    /// is read by `strtod`.
    @inline(__always)
    static func number(_ p: inout UnsafePointer<UInt8>) -> Double? {
        let start = p
        var cursor = p
        let negative = cursor.pointee == UInt8(ascii: "-")
        if negative { cursor += 1 }
        var mantissa: UInt64 = 0
        var significant = 0
        var exponent = 0
        var digits = 0
        while case let digit = cursor.pointee &- 48, digit < 10 {
            if mantissa != 0 || digit != 0 { significant += 1 }
            mantissa = mantissa &* 10 &+ UInt64(digit)
            digits += 1
            cursor += 1
        }
        if cursor.pointee == UInt8(ascii: ".") {
            cursor += 1
            while case let digit = cursor.pointee &- 48, digit < 10 {
                if mantissa != 0 || digit != 0 { significant += 1 }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                exponent -= 1
                digits += 1
                cursor += 1
            }
        }
        guard digits > 0 else { return nil }
        let fast = significant <= 15
        if cursor.pointee == UInt8(ascii: "e") || cursor.pointee == UInt8(ascii: "E") {
            cursor += 1
            let negativeExponent = cursor.pointee == UInt8(ascii: "-")
            if negativeExponent || cursor.pointee == UInt8(ascii: "+") { cursor += 1 }
            var written = 0
            var count = 0
            while case let digit = cursor.pointee &- 48, digit < 10 {
                if written < 10_000 { written = written * 10 + Int(digit) }
                count += 1
                cursor += 1
            }
            guard count > 0 else { return nil }
            exponent += negativeExponent ? -written : written
        }
        if fast && exponent >= -22 && exponent <= 22 {
            var value = Double(mantissa)
            value = exponent < 0 ? value / powersOfTen[-exponent] : value * powersOfTen[exponent]
            p = cursor
            return negative ? -value : value
        }
        return start.withMemoryRebound(to: CChar.self, capacity: 1) { chars -> Double? in
            var end: UnsafeMutablePointer<CChar>?
            let value = strtod(chars, &end)
            guard let end, end != UnsafeMutablePointer(mutating: chars) else { return nil }
            p = UnsafeRawPointer(end).assumingMemoryBound(to: UInt8.self)
            return value
        }
    }
}

/// What a distance function's calls need: the distance, and the connection's interrupt flag (a scan of long vectors
/// stops at its next row once the statement was told to stop).
private final class VectorFunctionData {
    let distance: VectorDistance
    let interrupt: InterruptSignal

    init(_ distance: VectorDistance, interrupt: InterruptSignal) {
        self.distance = distance
        self.interrupt = interrupt
    }
}
