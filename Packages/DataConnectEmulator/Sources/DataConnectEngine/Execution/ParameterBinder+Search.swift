import DataConnectSchema
import DataConnectWire

// Binding the vectors and query texts of similarity and search fields.
extension ParameterBinder {
    /// A `Vector` value: finite numbers, as many as the column's `@col(size:)`.
    func vector(_ json: JSONValue, column: Column) throws(ExecutionError) -> JSONValue {
        guard case .array(let items) = json else {
            throw .badInput("\"\(column.name)\": a Vector is a list of numbers, got \(json.jsonString())")
        }
        for item in items {
            guard case .number(let number) = item, number.doubleValue.isFinite else {
                throw .badInput("\"\(column.name)\": a Vector holds only finite numbers, got \(item.jsonString())")
            }
        }
        if let size = column.size, items.count != size {
            throw .badInput("\"\(column.name)\" is a Vector of size \(size); got \(items.count) numbers")
        }
        return json
    }

    /// The vector of a `Vector_Embed` value: the column's value for a stored text, a `compare` vector for a
    /// searched one.
    ///
    /// - Throws: ``ExecutionError``: 400 naming the field when the model's vectors do not have the column's
    ///   size; the provider's failure.
    func embeddingValue(
        _ json: JSONValue, column: Column, purpose: EmbeddingPurpose
    ) throws(ExecutionError) -> DatabaseValue {
        if case .null = json { return .null }
        let key = try EmbeddingKey(json, purpose: purpose)
        let numbers: [Double]
        if let known = embedded.vectors[key] {
            numbers = known
        } else {
            numbers = try Execution.embed(
                [key.text], model: key.model, purpose: purpose, with: embeddings, deadline: deadline)[0]
        }
        if let size = column.size, numbers.count != size {
            throw .badInput(
                "\"\(column.name)\" is a Vector of size \(size); the model \"\(key.model)\" gives vectors of "
                    + "\(numbers.count) numbers")
        }
        let vector = JSONValue.array(numbers.map { .number(JSONNumber($0)) })
        return try convert(vector, purpose == .document ? .column(column) : .vector(column))
    }

    /// The `compare` vector of a similarity field, as JSON text.
    func vectorValue(_ json: JSONValue, column: Column) throws(ExecutionError) -> DatabaseValue {
        .text(try vector(json, column: column).jsonString())
    }

    /// The `query` of a search field in the syntax the database reads.
    func searchQueryValue(
        _ json: JSONValue, format: SearchQueryFormat, syntax: SearchQuerySyntax
    ) throws(ExecutionError) -> DatabaseValue {
        var text = ""
        switch json {
        case .null: break
        case .string(let string): text = string
        default: throw .badInput("the search query must be a string, got \(json.jsonString())")
        }
        do throws(SearchQueryError) {
            switch syntax {
            case .text:
                guard text.count <= SearchQueryParser.maximumLength else {
                    throw SearchQueryError(
                        message: "the search query is longer than \(SearchQueryParser.maximumLength) characters")
                }
                return .text(text)
            case .fts5:
                // No word: an empty phrase, which matches no row.
                return .text(try SearchQueryParser.parse(text, format: format)?.fts5Expression() ?? "\"\"")
            case .tsquery:
                return .text(try SearchQueryParser.parse(text, format: format)?.tsquery() ?? "")
            }
        } catch {
            throw .badInput(error.message)
        }
    }
}
