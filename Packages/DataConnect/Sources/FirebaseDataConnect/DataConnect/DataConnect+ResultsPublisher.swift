extension DataConnect {
    /// Returns the observable ref of the kind `publisher` asks for, for the query `name` with `variables`.
    ///
    /// This is upstream's signature, which generated code calls and then casts: `.observableObject` returns a
    /// ``QueryRefObservableObject``, `.auto` and `.observableMacro` a ``QueryRefObservation``. Both kinds for one
    /// operation name and variables share their state (see ``query(name:variables:resultsDataType:)``).
    ///
    /// ```swift
    /// let ref = dataConnect.query(
    ///     name: "listMoviesByGenre", variables: GenreVariables(genre: "Sci-Fi"), resultsDataType: MovieList.self,
    ///     publisher: .observableMacro)
    /// let typed = ref as! QueryRefObservation<MovieList, GenreVariables>
    /// ```
    ///
    /// - Parameters:
    ///   - name: The operation name in the connector.
    ///   - variables: The variables; unset ``OptionalVariable`` properties are left out of the request.
    ///   - resultsDataType: The decoded shape of `data`.
    ///   - publisher: Which kind of ref to return.
    /// - Returns: The ref, typed as upstream types it.
    public func query<ResultData: Decodable & Sendable, Variable: OperationVariable>(
        name: String, variables: Variable, resultsDataType: ResultData.Type, publisher: ResultsPublisherType
    ) -> any ObservableQueryRef {
        let observation = query(name: name, variables: variables, resultsDataType: resultsDataType)
        switch publisher {
        case .observableObject: return observation.observableObject()
        case .auto, .observableMacro: return observation
        }
    }
}
