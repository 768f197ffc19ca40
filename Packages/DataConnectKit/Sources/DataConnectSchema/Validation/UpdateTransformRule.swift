import GraphQLLanguage

extension OperationValidator {
    /// Rule: `_update` transforms (`inc`, `dec`, `append`, ...) read a row's current value, so only updates
    /// (`x_update`, `x_updateMany`) may carry them; an insert or upsert has no current value to transform.
    ///
    /// The emulator refuses such a field whenever it runs, whatever the variables hold, so it is refused here,
    /// where the operation is written. Only literal `data` objects are looked into: a `data: $data` variable
    /// cannot hold `_update` fields at all (its input type is checked against the variable's).
    mutating func checkUpdateTransforms(_ field: Field, parentType: String) {
        switch api.role(of: field.name.value, on: parentType) {
        case .insert?, .upsert?, .insertMany?, .upsertMany?: break
        default: return
        }
        guard let data = field.arguments.first(where: { $0.name.value == "data" }) else { return }
        let rows: [Value] = if case .list(let items, _) = data.value { items } else { [data.value] }
        for case .object(let fields, _) in rows {
            for item in fields where item.name.value.hasSuffix("_update") {
                error(
                    "\"\(item.name.value)\" transforms a stored value and applies only to updates; \"\(field.name.value)\" writes a new row (set \"\(item.name.value.dropLast(7))\" instead)",
                    at: item.location)
            }
        }
    }
}
