import CLibPQ

/// Statement parameters laid out the way `PQexecParams`, `PQexecPrepared` and `PQsendQueryPrepared` read
/// them: one array of value pointers, one of lengths and one of formats.
///
/// Text values are copied once into a single NUL-separated buffer (libpq reads text parameters up to their
/// NUL); bytes go in binary format with their length.
struct PGParameterBuffer {
    /// The parameter count the wire protocol allows (a 16-bit field).
    static let maximumCount = 65_535

    private var storage: [UInt8] = []
    /// Start of each value in `storage`, or -1 for `NULL`.
    private var offsets: [Int] = []
    private var lengths: [Int32] = []
    private var formats: [Int32] = []

    /// Lays out `parameters`.
    ///
    /// - Throws: ``PGError/Kind/misuse`` for more than 65,535 parameters or text holding a NUL character.
    init(_ parameters: [PGValue]) throws(PGError) {
        guard parameters.count <= PGParameterBuffer.maximumCount else {
            throw PGError(
                kind: .misuse, sqlState: "54000",
                message: "\(parameters.count) parameters given; PostgreSQL accepts at most 65535")
        }
        guard !parameters.isEmpty else { return }
        var capacity = 0
        for parameter in parameters {
            switch parameter {
            case .null: break
            case .text(let text): capacity += text.utf8.count + 1
            case .bytes(let bytes): capacity += bytes.count
            }
        }
        storage.reserveCapacity(capacity)
        offsets.reserveCapacity(parameters.count)
        lengths.reserveCapacity(parameters.count)
        formats.reserveCapacity(parameters.count)
        for (index, parameter) in parameters.enumerated() {
            switch parameter {
            case .null:
                offsets.append(-1)
                lengths.append(0)
                formats.append(0)
            case .text(var text):
                let start = storage.count
                let hasNUL = text.withUTF8 { utf8 in
                    storage.append(contentsOf: utf8)
                    return utf8.contains(0)
                }
                guard !hasNUL else {
                    throw PGError(
                        kind: .misuse, sqlState: "22021",
                        message: "parameter $\(index + 1) contains a NUL character, which PostgreSQL text cannot hold")
                }
                storage.append(0)
                offsets.append(start)
                lengths.append(Int32(storage.count - start - 1))
                formats.append(0)
            case .bytes(let bytes):
                guard bytes.count <= Int(Int32.max) else {
                    throw PGError(kind: .misuse, sqlState: "54000", message: "parameter $\(index + 1) is too large")
                }
                offsets.append(storage.count)
                storage.append(contentsOf: bytes)
                lengths.append(Int32(bytes.count))
                formats.append(1)
            }
        }
    }

    /// Calls `body` with the count and the value, length and format arrays, valid only during the call.
    func withUnsafeArguments<Result>(
        _ body: (
            _ count: Int32, _ values: UnsafePointer<UnsafePointer<CChar>?>?, _ lengths: UnsafePointer<Int32>?,
            _ formats: UnsafePointer<Int32>?
        ) -> Result
    ) -> Result {
        guard !offsets.isEmpty else { return body(0, nil, nil, nil) }
        return storage.withUnsafeBytes { bytes in
            // A parameter of zero bytes needs a non-null pointer too; any valid address will do.
            let base = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
            let values = offsets.map { offset -> UnsafePointer<CChar>? in
                offset < 0 ? nil : (base + offset).assumingMemoryBound(to: CChar.self)
            }
            return values.withUnsafeBufferPointer { values in
                lengths.withUnsafeBufferPointer { lengths in
                    formats.withUnsafeBufferPointer { formats in
                        body(Int32(offsets.count), values.baseAddress, lengths.baseAddress, formats.baseAddress)
                    }
                }
            }
        }
    }
}
