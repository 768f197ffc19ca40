/// Renders `<Connector>Keys.swift`: one `<Type>Key` per `@table` type (a `@view` has no key).
struct KeysRenderer {
    let connector: SwiftConnector

    func render() -> String {
        var writer = SwiftWriter()
        for line in GeneratedHeader.swift(from: connector.manifestPath) { writer.line(line) }
        writer.line()
        writer.line("import Foundation")
        writer.line()
        writer.line("import FirebaseCore")
        writer.line("import FirebaseDataConnect")
        for key in connector.keys {
            writer.line()
            render(key, into: &writer)
        }
        return writer.text
    }

    private func render(_ key: SwiftKey, into writer: inout SwiftWriter) {
        let properties = key.fields.map { (name: $0.name, type: $0.type) }
        writer.doc(["The primary key of a `\(key.name.dropLast(3))` row."])
        writer.block("public struct \(key.name)") { writer in
            for field in key.fields {
                writer.line("public private(set) var \(SwiftNaming.identifier(field.name)): \(field.type)")
            }
            writer.line()
            CodableRenderer.memberwiseInit(properties, into: &writer)
            writer.line()
            CodableRenderer.codingKeys(key.fields.map(\.name), into: &writer)
        }
        writer.line()
        writer.block("extension \(key.name): Codable") { writer in
            CodableRenderer.decoder(properties, into: &writer)
            writer.line()
            writer.block("public func encode(to encoder: any Encoder) throws") { writer in
                CodableRenderer.encoderPrologue(into: &writer)
                for field in key.fields {
                    writer.line(CodableRenderer.encodeLine(SwiftNaming.identifier(field.name), key: field.name))
                }
            }
        }
        writer.line()
        writer.line("extension \(key.name): Equatable {}")
        writer.line()
        writer.line("extension \(key.name): Hashable {}")
        writer.line()
        writer.line("extension \(key.name): Sendable {}")
    }
}
