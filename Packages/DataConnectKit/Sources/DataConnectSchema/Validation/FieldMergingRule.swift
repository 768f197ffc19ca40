import GraphQLLanguage

extension OperationValidator {
    /// Rule: fields that share a response key select the same field with the same arguments, at every
    /// depth once fragments are expanded (§5.3.2), and the merged selection is within the limits.
    ///
    /// Operations that spread a cyclic fragment are left out: the cycle is reported, and their selection
    /// has no finite merge.
    mutating func checkFieldMerging(_ operation: OperationDefinition) {
        guard transitiveFragments(of: operation.selectionSet).isDisjoint(with: cyclicFragments) else { return }
        let merged = MergedSelection(collecting: operation.selectionSet, fragments: fragments, limits: limits)
        diagnostics += merged.diagnostics
    }
}
