import FirebaseCore
import FirebaseDataConnect
import Foundation

extension TestEmulator {
    /// A transport that reaches this emulator without a socket, whatever its mode.
    public var transport: InProcessTransport {
        InProcessTransport(responder: responder)
    }

    /// A realtime transport that subscribes on this emulator's hub without a socket, whatever its mode.
    public var subscriptionTransport: InProcessSubscriptionTransport {
        InProcessSubscriptionTransport(hub: responder.hub)
    }

    /// A new `DataConnect` for one of this emulator's connectors, reaching it as the emulator's mode says.
    ///
    /// In-process, operations go through ``transport`` and realtime subscriptions through
    /// ``subscriptionTransport``; live, through the SDK's own `URLSessionTransport` and WebSocket stream to this
    /// emulator's port. Each call makes a new
    /// instance on a new `FirebaseApp` of the `demo` project, so tests do not share caches or sign-ins.
    ///
    /// ```swift
    /// let emulator = try TestEmulator.inProcess(backend: "Backend/movies", seedFile: "Backend/movies/seed_data.gql")
    /// let dataConnect = emulator.dataConnect(connector: "movies")
    /// let movies = try await dataConnect.query(
    ///     name: "listMovies", variables: NoVariables(), resultsDataType: MovieList.self
    /// ).execute()
    /// ```
    ///
    /// - Parameters:
    ///   - connector: The connector id from its `connector.yaml`.
    ///   - settings: Cache settings; no cache by default.
    ///   - callerSDKType: `.generated` to send what generated code sends.
    /// - Returns: The instance.
    public func dataConnect(
        connector: String, settings: DataConnectSettings = DataConnectSettings(), callerSDKType: CallerSDKType = .base
    ) -> DataConnect {
        let name = "test-emulator-\(UUID().uuidString)"
        FirebaseApp.configure(name: name, options: FirebaseOptions(projectID: "demo"))
        guard let app = FirebaseApp.app(name: name) else {
            preconditionFailure("FirebaseApp.configure(name:options:) registers the app")
        }
        let config = ConnectorConfig(serviceId: serviceID, location: "us-central1", connector: connector)
        switch mode {
        case .inProcess:
            return DataConnect(
                app: app, connectorConfig: config, settings: settings, callerSDKType: callerSDKType,
                transport: transport, subscriptionTransport: subscriptionTransport)
        case .live:
            let dataConnect = DataConnect.dataConnect(
                app: app, connectorConfig: config, settings: settings, callerSDKType: callerSDKType)
            dataConnect.useEmulator(host: host, port: port)
            return dataConnect
        }
    }
}
