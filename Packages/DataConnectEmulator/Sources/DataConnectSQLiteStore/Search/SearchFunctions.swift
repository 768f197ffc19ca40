import DataConnectEngine
import SQLiteKit

/// The SQL functions of vector similarity on SQLite, registered on every connection the engine uses.
enum SearchFunctions {
    /// Registers `dataconnect_vector_l2`, `dataconnect_vector_cosine`,
    /// `dataconnect_vector_negative_inner_product` and `dataconnect_vector_blob`.
    static func register(on connection: Connection) throws {
        try connection.createVectorBlobFunction(SQLiteSearchDialect.blobFunction)
        for (method, distance) in [
            (VectorDistanceMethod.l2, VectorDistance.euclidean), (.cosine, .cosine),
            (.innerProduct, .negativeInnerProduct),
        ] {
            try connection.createVectorDistanceFunction(
                SQLiteSearchDialect.functionName(method), distance: distance)
        }
    }
}
