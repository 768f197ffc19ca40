import DataConnectWire
import Foundation

/// Turns variables into a wire JSON object and a GraphQL response into decoded data.
enum OperationCodec {
    /// Encodes `variables` with `JSONEncoder`; the codecs of the variable types decide the wire form, and unset
    /// ``OptionalVariable`` properties are left out.
    ///
    /// - Parameter variables: The operation's variables.
    /// - Returns: The JSON object, or the error when the variables do not encode to an object.
    static func encode<Variables: Encodable>(_ variables: Variables) -> Result<JSONObject, DataConnectCodecError> {
        do {
            let bytes = try JSONEncoder().encode(variables)
            guard case .object(let object) = try JSONValue(parsing: [UInt8](bytes)) else {
                return .failure(
                    DataConnectCodecError(
                        code: .encodingFailed, message: "variables of type \(Variables.self) are not a JSON object"))
            }
            return .success(object)
        } catch {
            return .failure(
                DataConnectCodecError(
                    code: .encodingFailed, message: "cannot encode \(Variables.self)", underlyingError: error))
        }
    }

    /// The key for refs with `operationName` and `variables`.
    static func key(_ operationName: String, _ variables: Result<JSONObject, DataConnectCodecError>) -> OperationKey {
        switch variables {
        case .success(let object):
            OperationKey(operationName: operationName, variables: JSONValue.object(object).jsonString(canonical: true))
        case .failure(let error):
            OperationKey(operationName: operationName, variables: "!" + error.description)
        }
    }

    /// Decodes the response's `data`.
    ///
    /// - Parameters:
    ///   - response: The GraphQL response.
    ///   - type: The operation's `Data` type.
    /// - Returns: The decoded data, or `nil` when `data` is absent or `null`.
    /// - Throws: ``DataConnectOperationError`` when the response has errors (the partial data stays in it),
    ///   ``DataConnectCodecError`` when `data` does not decode as `type`.
    static func decode<Value: Decodable>(_ response: GraphQLResponse, as type: Value.Type) throws -> Value? {
        guard response.errors.isEmpty else { throw DataConnectOperationError(response) }
        guard let data = response.data, !data.isNull else { return nil }
        do {
            return try JSONValueDecoder().decode(Value.self, from: data)
        } catch {
            throw DataConnectCodecError(
                code: .decodingFailed, message: "cannot decode the data as \(Value.self)", underlyingError: error)
        }
    }
}
