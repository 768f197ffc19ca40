/// The `CodingKeys`, `init(from:)`, `encode(to:)` and memberwise inits shared by every generated struct.
enum CodableRenderer {
    /// `enum CodingKeys: String, CodingKey { case a; case b }`.
    static func codingKeys(_ names: [String], into writer: inout SwiftWriter) {
        writer.block("enum CodingKeys: String, CodingKey") { writer in
            for name in names { writer.line("case \(SwiftNaming.identifier(name))") }
        }
    }

    /// A public memberwise init; `defaults` maps a property to its default argument.
    static func memberwiseInit(
        _ properties: [(name: String, type: String)], defaults: [String: String] = [:], into writer: inout SwiftWriter
    ) {
        let parameters = properties.map { property in
            "\(property.name): \(property.type)" + (defaults[property.name].map { " = \($0)" } ?? "")
        }
        writer.block("public init(\(parameters.joined(separator: ", ")))") { writer in
            for property in properties {
                writer.line("self.\(SwiftNaming.identifier(property.name)) = \(SwiftNaming.identifier(property.name))")
            }
        }
    }

    /// `init(from:)` decoding each property through `CodecHelper`.
    static func decoder(_ properties: [(name: String, type: String)], into writer: inout SwiftWriter) {
        writer.block("public init(from decoder: any Decoder) throws") { writer in
            writer.line("var container = try decoder.container(keyedBy: CodingKeys.self)")
            writer.line("let codecHelper = CodecHelper<CodingKeys>()")
            for property in properties {
                writer.line(
                    "self.\(SwiftNaming.identifier(property.name)) = try codecHelper.decode(\(property.type).self, "
                        + "forKey: .\(property.name), container: &container)")
            }
        }
    }

    /// The line encoding one value through `CodecHelper`.
    static func encodeLine(_ value: String, key: String) -> String {
        "try codecHelper.encode(\(value), forKey: .\(key), container: &container)"
    }

    /// The first two lines of an `encode(to:)`.
    static func encoderPrologue(into writer: inout SwiftWriter) {
        writer.line("var container = encoder.container(keyedBy: CodingKeys.self)")
        writer.line("let codecHelper = CodecHelper<CodingKeys>()")
    }
}
