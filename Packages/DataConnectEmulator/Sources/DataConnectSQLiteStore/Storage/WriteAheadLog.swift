import DataConnectEngine
import Foundation

/// What an SQLite write-ahead log (`FILE-wal`) holds, read without SQLite and without changing the file.
///
/// The log starts with a 32-byte header (magic number, format version, page size, checkpoint sequence, two
/// salts, a checksum of the first 24 bytes) and continues with frames: a 24-byte frame header (page number,
/// the database size after commit, non-zero on the last frame of a transaction, the header's salts, a
/// cumulative checksum) and one page. As SQLite does when it recovers a log, the frames count while their salts
/// match the header and their checksums chain; a transaction counts once its commit frame is valid.
///
/// ```swift
/// if let log = WriteAheadLog.read(file + "-wal"), log.transactions > 0 {
///     print("\(log.transactions) committed transactions, \(log.frames) pages")
/// }
/// ```
struct WriteAheadLog: Hashable, Sendable {
    /// The committed transactions the log holds since the last checkpoint.
    var transactions: Int
    /// The page images those transactions wrote (frames up to the last commit frame).
    var frames: Int
    /// The distinct pages those transactions wrote.
    var pages: Int

    static let headerSize = 32
    static let frameHeaderSize = 24

    /// Reads the log at `path`; `nil` when there is none or it does not start with a valid header.
    static func read(_ path: String) -> WriteAheadLog? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return parse([UInt8](data))
    }

    /// Parses the bytes of a log; `nil` when they do not start with a valid header.
    static func parse(_ bytes: [UInt8]) -> WriteAheadLog? {
        guard bytes.count >= headerSize else { return nil }
        let magic = word(bytes, 0)
        guard magic == 0x377f_0682 || magic == 0x377f_0683 else { return nil }
        // The low bit of the magic number: checksums read the data as big-endian words when set.
        let bigEndian = magic & 1 == 1
        let pageSize = Int(word(bytes, 8)) == 1 ? 65_536 : Int(word(bytes, 8))
        guard word(bytes, 4) == 3_007_000, pageSize >= 512, pageSize & (pageSize - 1) == 0 else { return nil }
        var sums = checksum(bytes, 0..<24, bigEndian: bigEndian, from: (0, 0))
        guard sums == (word(bytes, 24), word(bytes, 28)) else { return nil }
        let salts = (word(bytes, 16), word(bytes, 20))
        var log = WriteAheadLog(transactions: 0, frames: 0, pages: 0)
        var offset = headerSize
        var framesSinceCommit = 0
        var pages = Set<UInt32>()
        var pending = Set<UInt32>()
        while offset + frameHeaderSize + pageSize <= bytes.count {
            guard (word(bytes, offset + 8), word(bytes, offset + 12)) == salts else { break }
            sums = checksum(bytes, offset..<(offset + 8), bigEndian: bigEndian, from: sums)
            let page = offset + frameHeaderSize
            sums = checksum(bytes, page..<(page + pageSize), bigEndian: bigEndian, from: sums)
            guard sums == (word(bytes, offset + 16), word(bytes, offset + 20)) else { break }
            framesSinceCommit += 1
            pending.insert(word(bytes, offset))
            if word(bytes, offset + 4) != 0 {
                log.transactions += 1
                log.frames += framesSinceCommit
                framesSinceCommit = 0
                pages.formUnion(pending)
                pending.removeAll()
            }
            offset = page + pageSize
        }
        log.pages = pages.count
        return log
    }

    /// A big-endian 32-bit word.
    static func word(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }

    /// SQLite's WAL checksum over `range` (a multiple of 8 bytes), continuing from `sums`.
    static func checksum(
        _ bytes: [UInt8], _ range: Range<Int>, bigEndian: Bool, from sums: (UInt32, UInt32)
    ) -> (UInt32, UInt32) {
        var (s0, s1) = sums
        var index = range.lowerBound
        while index < range.upperBound {
            var x0 = word(bytes, index)
            var x1 = word(bytes, index + 4)
            if !bigEndian {
                x0 = x0.byteSwapped
                x1 = x1.byteSwapped
            }
            s0 = s0 &+ x0 &+ s1
            s1 = s1 &+ x1 &+ s0
            index += 8
        }
        return (s0, s1)
    }

    /// What a refusal to open a damaged database says about its log: the committed transactions it still
    /// holds and how to keep them, or that it holds none.
    static func refusalNote(forDatabase file: String) -> String {
        let path = file + "-wal"
        guard FileManager.default.fileExists(atPath: path) else {
            return "There is no write-ahead log (\(path)) beside it."
        }
        guard let log = read(path), log.transactions > 0 else {
            return "The write-ahead log \(path) holds no committed transaction that is not in the file."
        }
        let transactions =
            log.transactions == 1 ? "1 committed transaction" : "\(log.transactions) committed transactions"
        let pages = log.pages == 1 ? "1 page" : "\(log.pages) pages"
        let notLost = log.transactions == 1 ? "it is not lost yet" : "they are not lost yet"
        return "The write-ahead log \(path) still holds \(transactions) (\(pages)) written after the last "
            + "checkpoint; \(notLost): copy \(file) and \(path) aside before anything else, then "
            + "recover with `sqlite3 \(file) .recover`."
    }
}
