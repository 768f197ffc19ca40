/// Renders `<Connector>Client.swift`: the connector class and its shared instance on `DataConnect`.
struct ClientRenderer {
    let connector: SwiftConnector

    func render() -> String {
        let name = connector.className
        var writer = SwiftWriter()
        for line in GeneratedHeader.swift(from: connector.manifestPath) { writer.line(line) }
        writer.line()
        writer.line("import Foundation")
        writer.line()
        writer.line("import FirebaseDataConnect")
        writer.line()
        writer.block("public extension DataConnect") { writer in
            writer.doc(["The `\(connector.connectorId)` connector, shared."])
            writer.block("static let \(connector.sharedInstanceName): \(name) =", closing: "}()") { writer in
                writer.line("let dataConnect = DataConnect.dataConnect(")
                writer.indented { writer in
                    writer.line("connectorConfig: \(name).connectorConfig,")
                    if let cache = connector.options.clientCache {
                        // `maxSize` has no upstream Swift counterpart; ours honours it [ext].
                        let maxSize = cache.maxSize.map { ", maxSize: \($0.bytes)" } ?? ""
                        writer.line(
                            "settings: DataConnectSettings(cacheSettings: CacheSettings("
                                + "storage: .\(cache.storage.rawValue), maxAge: \(seconds(cache.maxAge.seconds))\(maxSize))),"
                        )
                    }
                    writer.line("callerSDKType: .generated")
                }
                writer.line(")")
                writer.line("return \(name)(dataConnect: dataConnect)")
            }
        }
        writer.line()
        for line in OperationsRenderer.uncheckedSendableReason { writer.line(line) }
        writer.doc(["The operations of the `\(connector.connectorId)` connector."])
        writer.block("public class \(name): @unchecked Sendable") { writer in
            writer.line("let dataConnect: DataConnect")
            writer.line()
            writer.doc(["The service, location and connector this class talks to."])
            writer.line("public static let connectorConfig = ConnectorConfig(")
            writer.indented { writer in
                writer.line("serviceId: \(GeneratedHeader.literal(connector.serviceId)),")
                writer.line("location: \(GeneratedHeader.literal(connector.location)),")
                writer.line("connector: \(GeneratedHeader.literal(connector.connectorId))")
            }
            writer.line(")")
            writer.line()
            writer.block("init(dataConnect: DataConnect)") { writer in
                writer.line("self.dataConnect = dataConnect")
                for operation in connector.operations {
                    writer.line("self.\(operation.propertyName) = \(operation.className)(dataConnect: dataConnect)")
                }
            }
            writer.line()
            writer.doc([
                "Sends this connector's requests to the local emulator: `127.0.0.1:9399` unless given, or",
                "`FIREBASE_DATA_CONNECT_EMULATOR_HOST` when that is set and the default address is.",
            ])
            writer.line("public func useEmulator(")
            writer.indented { writer in
                writer.line(
                    "host: String = DataConnect.EmulatorDefaults.host, port: Int = DataConnect.EmulatorDefaults.port")
            }
            writer.block(")") {
                $0.line("dataConnect.useEmulator(host: host, port: port)")
            }
            writer.line()
            writer.doc([
                "Sets where this connector's ID tokens come from, such as an `EmulatorAuth`; `nil` sends none."
            ])
            writer.block("public func setAuthTokenProvider(_ provider: (any AuthTokenProvider)?)") {
                $0.line("dataConnect.setAuthTokenProvider(provider)")
            }
            for operation in connector.operations {
                writer.line()
                writer.doc(["The `\(operation.name)` \(operation.kind.rawValue)."])
                writer.line("public let \(operation.propertyName): \(operation.className)")
            }
        }
        return writer.text
    }

    /// `60.0` → `60`, `1.5` → `1.5`.
    private func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
