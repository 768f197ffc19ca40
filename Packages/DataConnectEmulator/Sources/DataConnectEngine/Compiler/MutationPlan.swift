import DataConnectSchema

/// The compiled statements of one mutation root field for one argument shape.
///
/// Built once per shape by ``MutationCompiler``; ``MutationRunner`` only binds and steps them.
struct MutationPlan: Sendable {
    /// What the field does, which decides how its statements' rows become its result.
    enum Kind: Sendable {
        /// `_insert`/`_upsert`: one row, its key returned.
        case insertOne(upsert: Bool)
        /// `_insertMany`/`_upsertMany`: one statement per row, the keys returned in order.
        case insertMany(upsert: Bool)
        /// `_update`: the first matching row, its key returned (null when none matched).
        case updateOne
        /// `_delete`: the first matching row, its key returned (null when none matched).
        case deleteOne
        /// `_updateMany`: the number of rows changed.
        case updateMany
        /// `_deleteMany`: the number of rows deleted.
        case deleteMany
    }

    /// What the field does.
    let kind: Kind
    /// The table written.
    let table: Table
    /// The statements, run in order (one per row for `insertMany`).
    let statements: [SQLStatementPlan]
}
