/// One normalized entity as the storage keeps it: its fields shared by every query that shows it.
///
/// ```swift
/// let record = EntityRecord(id: "Movie/m1", fields: Array(#"{"title":"Alien"}"#.utf8))
/// ```
public struct EntityRecord: Hashable, Sendable {
    /// The entity id from `extensions.dataConnect`, for example `Movie/m1`.
    public var id: String
    /// The entity's non-entity fields by response key, as a JSON object in bytes.
    public var fields: [UInt8]

    /// Creates a record.
    public init(id: String, fields: [UInt8]) {
        self.id = id
        self.fields = fields
    }

    /// The bytes the record counts for against the size cap.
    public var byteSize: Int {
        id.utf8.count + fields.count + 16
    }

    /// The table an entity id belongs to: the part before the first `/`, or the whole id when it has none.
    ///
    /// ```swift
    /// EntityRecord.table(ofEntity: "Review/m1/u1")  // "Review"
    /// ```
    public static func table(ofEntity id: String) -> String {
        if let slash = id.firstIndex(of: "/") {
            return String(id[..<slash])
        }
        return id
    }
}
