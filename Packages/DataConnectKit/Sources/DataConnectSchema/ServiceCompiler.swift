import GraphQLLanguage

/// A service compiled end to end: its schema model, the generated API, and each connector's validated
/// operations.
public struct CompiledService: Sendable {
    /// The loaded project (configuration and sources).
    public var project: Project
    /// The generated API of the schema.
    public var api: GeneratedAPI
    /// Each connector with its validated operations, in `connectorDirs` order.
    public var connectors: [CompiledConnector]
}

/// One connector: its manifest, files and validated operations.
public struct CompiledConnector: Sendable {
    /// The connector's sources and `connector.yaml`.
    public var sources: ConnectorSources
    /// The validated document.
    public var validated: ValidatedConnector
}

/// Loads, compiles and validates a backend directory: the whole front end shared by `dataconnect
/// validate`, the code generator and the emulator.
///
/// The stages:
/// 1. **Load** `dataconnect.yaml`, `connector.yaml` files and the `.gql` sources (``ProjectLoader``).
/// 2. **Compile** the schema into tables and relations (``SchemaCompiler``).
/// 3. **Generate** the GraphQL API from the model (``GeneratedAPI``), merged with the custom resolver
///    schemas of `schemas:` (``RemoteSchemaCompiler``).
/// 4. **Validate** each connector's operations against that API (``OperationValidator``).
public enum ServiceCompiler {
    /// Compiles the backend in `directory`.
    ///
    /// - Parameters:
    ///   - directory: the folder holding `dataconnect.yaml`.
    ///   - limits: the bounds on each connector operation's merged selection.
    /// - Returns: the compiled service when the schema compiled (connectors may still have errors), and
    ///   every diagnostic in display order.
    public static func compile(
        backendDirectory directory: String, limits: OperationLimits = .default
    ) -> (service: CompiledService?, diagnostics: [Diagnostic]) {
        let (loaded, loadDiagnostics) = ProjectLoader.load(backendDirectory: directory)
        guard let project = loaded, !loadDiagnostics.containsErrors else {
            return (nil, loadDiagnostics.sortedForDisplay())
        }
        let (service, diagnostics) = compile(project: project, limits: limits)
        return (service, (loadDiagnostics + diagnostics).sortedForDisplay())
    }

    /// Compiles a loaded project: its schema, generated API and connectors.
    ///
    /// - Returns: the compiled service when the schema compiled, and every diagnostic in display order.
    public static func compile(
        project: Project, limits: OperationLimits = .default
    ) -> (service: CompiledService?, diagnostics: [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        let (model, schemaDiagnostics) = SchemaCompiler.compile(project.schemaSources)
        diagnostics += schemaDiagnostics
        guard let model else { return (nil, diagnostics.sortedForDisplay()) }
        var remoteSchemas: [RemoteSchema] = []
        for secondary in project.config.secondarySchemas {
            guard let id = secondary.id, case .httpGraphQL(let endpoint) = secondary.datasource else { continue }
            let (remote, remoteDiagnostics) = RemoteSchemaCompiler.compile(
                id: id, endpoint: endpoint, sources: project.secondarySchemaSources[id] ?? [])
            diagnostics += remoteDiagnostics
            if let remote { remoteSchemas.append(remote) }
        }
        let (api, mergeDiagnostics) = GeneratedAPI.merging(model: model, remoteSchemas: remoteSchemas)
        diagnostics += mergeDiagnostics
        if diagnostics.containsErrors { return (nil, diagnostics.sortedForDisplay()) }
        var connectors: [CompiledConnector] = []
        for connector in project.connectors {
            let validated = OperationValidator.validate(connector.files, api: api, limits: limits)
            diagnostics += validated.diagnostics
            connectors.append(CompiledConnector(sources: connector, validated: validated))
        }
        return (CompiledService(project: project, api: api, connectors: connectors), diagnostics.sortedForDisplay())
    }
}
