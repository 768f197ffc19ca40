import Foundation
import PackagePlugin

/// Embeds the browser console (the package's `Console/` folder) into the target that serves it.
///
/// Every `.html`, `.js`, `.css` and `.svg` file of the folder becomes an entry of a generated `ConsoleAssets`
/// enum, so the emulator binary serves its console without reading files at run time: it works wherever the
/// binary is copied. The command reruns when any of those files changes.
@main
struct ConsoleAssetsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "Console")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false))) ?? []
        let inputs =
            names
            .filter { name in ["html", "js", "css", "svg"].contains((name as NSString).pathExtension) }
            .sorted()
            .map { folder.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "ConsoleAssets.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) console assets",
                executable: try context.tool(named: "ConsoleAssetsEmbedder").url,
                arguments: [output.path(percentEncoded: false)] + inputs.map { $0.path(percentEncoded: false) },
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }
}
