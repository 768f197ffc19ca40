import ArgumentParsing
import DataConnectSchema
import Foundation

/// `dataconnect init`: write a new project from a template, generate its SDK, and print the next steps.
///
/// A template is a folder of files under `Templates/<name>/` in this repository; `Templates/common/` is
/// copied first into every project and the template's own files on top. File contents and paths may hold
/// placeholders such as `{{serviceId}}`, replaced by ``InitCommand/placeholders(options:name:locations:)``;
/// an unknown placeholder is an error, so a typo in a template cannot reach a project.
enum InitCommand {
    /// The templates `--template` accepts.
    static let templates = ["blank", "movies"]
    /// The template used without `--template`.
    static let defaultTemplate = "blank"

    /// An error that stops `init`: printed as `dataconnect init: error: ...`, exit status 1.
    struct Failure: Error {
        var message: String
    }

    /// Where the templates, the SDK and this tool are.
    struct Locations {
        /// The folder holding `common/` and one folder per template.
        var templates: String
        /// Where new projects get the SDK and the test harness from.
        var toolkit: Toolkit
        /// This `dataconnect` executable, absolute.
        var executable: String
    }

    /// Where a new project's SDK (`FirebaseDataConnect`) and test harness (`DataConnectTesting`) come from.
    enum Toolkit: Equatable {
        /// A package repository and an exact version: the installed toolkit
        /// (`file://PREFIX/share/dataconnect/DataConnect.git`), or `DATACONNECT_PACKAGE_URL`.
        case package(url: String, version: String)
        /// The source packages of a clone of this repository (`Packages/DataConnect`, `Packages/DataConnectTesting`),
        /// for a `dataconnect` run from its build folder; `DATACONNECT_SDK_PATH` names the first.
        case clone(coreSDK: String, testing: String)
    }

    /// Runs the command; returns the exit status.
    static func run(_ options: InitOptions) -> Int32 {
        do {
            try create(options)
            return 0
        } catch {
            DataConnectTool.printError("dataconnect init: error: \(error.message)")
            return 1
        }
    }

    static func create(_ options: InitOptions) throws(Failure) {
        let fileManager = FileManager.default
        let directory = absolute(options.directory)
        var isDirectory: ObjCBool = false
        if fileManager.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw Failure(message: "\(options.directory) exists and is not a directory")
            }
            let entries = (try? fileManager.contentsOfDirectory(atPath: directory)) ?? []
            guard entries.isEmpty else {
                throw Failure(
                    message:
                        "\(options.directory) is not empty (\(entries.count) item(s)); init writes a new project into an empty or missing directory"
                )
            }
        }
        let rawName = options.name ?? URL(fileURLWithPath: directory).lastPathComponent
        let name = sanitizedName(rawName) ?? sanitizedName(options.template)!
        let locations = try locate()
        let values = placeholders(template: options.template, name: name, locations: locations)

        let templateFolder = join(locations.templates, options.template)
        guard fileManager.fileExists(atPath: templateFolder) else {
            throw Failure(message: "no template folder \(templateFolder)")
        }
        let commonFolder = join(locations.templates, "common")
        var written = 0
        for source in [commonFolder, templateFolder] where fileManager.fileExists(atPath: source) {
            written += try copyTemplate(from: source, to: directory, values: values)
        }

        let backend = join(directory, "dataconnect")
        guard ValidateCommand.run(ValidateOptions(backend: backend)) == 0 else {
            throw Failure(message: "the \(options.template) template's backend does not validate; see above")
        }
        guard GenerateCommand.generateOnce(GenerateOptions(backend: backend)) == 0 else {
            throw Failure(message: "generating the SDK of \(backend) failed; see above")
        }

        let shown = options.directory
        print(
            """
            Created \(shown) from the "\(options.template)" template (\(written) files):
              dataconnect/    the backend: service "\(values["serviceId"]!)", connector "\(values["connectorId"]!)", seed data
              Generated/\(values["package"]!)/    the generated Swift SDK: DataConnect.\(values["connectorVar"]!)
              App/    \(values["app"]!), a command-line app using it

            Next steps:
              cd \(shown)
              make run     # start the emulator with the seed data, run the app against it, stop the emulator
              make test    # validate, check Generated/ is fresh, run the tests (in-process emulator)

            Edit dataconnect/schema/schema.gql and dataconnect/connector/*.gql, then `make generate`.
            \(toolkitSentence(locations.toolkit))
            It runs `dataconnect` from PATH, else \(locations.executable).
            """)
    }

    /// Where the project's SDK comes from, in a sentence.
    static func toolkitSentence(_ toolkit: Toolkit) -> String {
        switch toolkit {
        case .package(let url, let version):
            "The project is pinned to the dataconnect toolkit \(version) at \(url) (`dataconnect upgrade` re-pins it)."
        case .clone(let coreSDK, _):
            "The project uses the SDK sources of the clone at \(coreSDK) (run `make install` there to pin a version)."
        }
    }

    static func join(_ base: String, _ component: String) -> String {
        base.hasSuffix("/") ? base + component : base + "/" + component
    }

    // MARK: - Names

    /// A service or connector id from a free-form name: lowercase letters, digits and single dashes,
    /// starting with a letter, at most 63 characters; `nil` when nothing is left.
    static func sanitizedName(_ raw: String) -> String? {
        var result = ""
        for character in raw.lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber) {
                result.append(character)
            } else if !result.isEmpty && !result.hasSuffix("-") {
                result.append("-")
            }
        }
        while result.hasSuffix("-") { result.removeLast() }
        guard let first = result.first else { return nil }
        if !first.isLetter { result = "app-" + result }
        if result.count > 63 {
            result = String(result.prefix(63))
            while result.hasSuffix("-") { result.removeLast() }
        }
        return result
    }

    /// The Swift name of a connector id, as the generator derives it: `my-notes` → `MyNotes`.
    static func pascalName(_ connectorId: String) -> String {
        connectorId.split(whereSeparator: { $0 == "-" || $0 == "_" })
            .map { $0.prefix(1).uppercased() + $0.dropFirst() }
            .joined()
    }

    /// The values of the placeholders a template may use.
    static func placeholders(template: String, name: String, locations: Locations) -> [String: String] {
        let pascal = pascalName(name)
        return [
            "projectName": name,
            "template": template,
            "serviceId": name,
            "connectorId": name,
            "connectorVar": pascal.prefix(1).lowercased() + pascal.dropFirst() + "Connector",
            "package": pascal + "SDK",
            "app": pascal + "App",
            "dataconnectPath": locations.executable,
            "dataconnectVersion": ToolkitVersion.current,
            "coreSdkSettings": coreSdkSettings(locations.toolkit),
            "toolkitPin": toolkitPin(locations.toolkit),
            "toolkitDependencies": toolkitDependencies(locations.toolkit),
            "testingPackage": testingPackage(locations.toolkit),
        ]
    }

    /// The lines of `connector.yaml`'s `swiftSdk` entry that say where the generated package finds the SDK.
    static func coreSdkSettings(_ toolkit: Toolkit) -> String {
        switch toolkit {
        case .package(let url, let version):
            """
            # The SDK (module FirebaseDataConnect) comes from the dataconnect toolkit's package repository,
                # pinned to one version; `dataconnect upgrade` re-pins the project to the dataconnect you run.
                coreSdkPackageURL: "\(url)"
                coreSdkVersion: "\(version)"
            """
        case .clone(let coreSDK, _):
            """
            # The SDK (module FirebaseDataConnect) from the sources of the dataconnect clone this project was
                # made with (its executable was run from the clone's build folder; `make install` there gives a
                # versioned toolkit instead). If the clone moves, change this path and run `make generate`.
                coreSdkPackageLocation: "\(coreSDK)"
            """
        }
    }

    /// The declaration `App/Package.swift` starts with: the pinned toolkit version, or a note on the clone.
    static func toolkitPin(_ toolkit: Toolkit) -> String {
        switch toolkit {
        case .package(_, let version):
            """
            /// The dataconnect toolkit this project builds against (its SDK and test harness, from the package
            /// repository `make install` wrote). `dataconnect upgrade` changes this line.
            let dataconnectVersion: Version = "\(version)"
            """
        case .clone:
            "// The SDK and the test harness come from the sources of a dataconnect clone (see connector.yaml)."
        }
    }

    /// The dependencies of `App/Package.swift` that bring `FirebaseDataConnect` and `DataConnectTesting`.
    static func toolkitDependencies(_ toolkit: Toolkit) -> String {
        switch toolkit {
        case .package(let url, _):
            ".package(url: \(swiftLiteral(url)), exact: dataconnectVersion),"
        case .clone(let coreSDK, let testing):
            ".package(path: \(swiftLiteral(coreSDK))),\n        .package(path: \(swiftLiteral(testing))),"
        }
    }

    /// The package that vends `DataConnectTesting`, as `App/Package.swift` names it.
    static func testingPackage(_ toolkit: Toolkit) -> String {
        switch toolkit {
        case .package: "DataConnect"
        case .clone: "DataConnectTesting"
        }
    }

    /// `text` as a Swift string literal.
    static func swiftLiteral(_ text: String) -> String {
        var result = "\""
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            default: result.append(character)
            }
        }
        return result + "\""
    }

    // MARK: - Locations

    /// Finds the templates and the toolkit.
    ///
    /// An installed `dataconnect` (`PREFIX/lib/dataconnect/<version>/dataconnect`, see `make install`) uses its
    /// install: `PREFIX/share/dataconnect/<version>/templates` and the package repository
    /// `PREFIX/share/dataconnect/DataConnect.git` at its own version. One run from a clone's build folder uses the
    /// clone's `Templates/` and source packages. `DATACONNECT_TEMPLATES` overrides the templates,
    /// `DATACONNECT_PACKAGE_URL` the package repository (pinned to this tool's version), and `DATACONNECT_SDK_PATH`
    /// a local core SDK package.
    static func locate() throws(Failure) -> Locations {
        let environment = ProcessInfo.processInfo.environment
        let fileManager = FileManager.default
        let executable = executablePath()
        let installation = Installation(executable: executable)
        let root = installation == nil ? cloneRoot(executable: executable) : nil

        let templates: String
        if let override = environment["DATACONNECT_TEMPLATES"], !override.isEmpty {
            templates = absolute(override)
        } else if let installation {
            templates = installation.templates
        } else if let root {
            templates = root + "/Templates"
        } else {
            throw Failure(message: "cannot find the templates near \(executable); set DATACONNECT_TEMPLATES")
        }

        let toolkit: Toolkit
        if let override = environment["DATACONNECT_SDK_PATH"], !override.isEmpty {
            let coreSDK = absolute(override)
            let testing = ((coreSDK as NSString).deletingLastPathComponent as NSString)
                .appendingPathComponent("DataConnectTesting")
            toolkit = .clone(coreSDK: coreSDK, testing: testing)
        } else if let url = environment["DATACONNECT_PACKAGE_URL"], !url.isEmpty {
            toolkit = .package(url: url, version: ToolkitVersion.current)
        } else if let installation {
            toolkit = .package(url: installation.packageURL, version: ToolkitVersion.current)
        } else if let root {
            toolkit = .clone(coreSDK: root + "/Packages/DataConnect", testing: root + "/Packages/DataConnectTesting")
        } else {
            throw Failure(
                message:
                    "cannot find the dataconnect toolkit near \(executable): install it (`make install`), or set DATACONNECT_PACKAGE_URL"
            )
        }
        if case .clone(let coreSDK, _) = toolkit, !fileManager.fileExists(atPath: coreSDK + "/Package.swift") {
            throw Failure(
                message: "\(coreSDK) is not the core SDK package (no Package.swift); check DATACONNECT_SDK_PATH")
        }
        return Locations(templates: templates, toolkit: toolkit, executable: executable)
    }

    /// The clone of this repository `executable` was built in: the first folder above it (or above this source
    /// file's path at build time) with `Templates/` and `Packages/DataConnect/Package.swift`.
    static func cloneRoot(executable: String) -> String? {
        var roots: [String] = []
        var folder = (executable as NSString).deletingLastPathComponent
        while folder != "/" && !folder.isEmpty {
            roots.append(folder)
            folder = (folder as NSString).deletingLastPathComponent
        }
        // Tools/dataconnect/InitCommand.swift → the repository root.
        roots.append(
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().path)
        return roots.first {
            FileManager.default.fileExists(atPath: $0 + "/Templates")
                && FileManager.default.fileExists(atPath: $0 + "/Packages/DataConnect/Package.swift")
        }
    }

    /// The absolute, symlink-free path of the running executable.
    static func executablePath() -> String {
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return target
        }
        let argument0 = CommandLine.arguments.first ?? "dataconnect"
        return URL(fileURLWithPath: absolute(argument0)).resolvingSymlinksInPath().path
    }

    /// `path` made absolute against the current directory, with `.` and `..` removed.
    static func absolute(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return URL(fileURLWithPath: full).standardizedFileURL.path
    }

    // MARK: - Copying

    /// Copies every file under `source` into `destination`, substituting placeholders in paths and
    /// contents and keeping the executable bit; returns how many files were written.
    static func copyTemplate(
        from source: String, to destination: String, values: [String: String]
    ) throws(Failure)
        -> Int
    {
        let fileManager = FileManager.default
        guard let enumerator = fileManager.enumerator(atPath: source) else {
            throw Failure(message: "cannot read the template folder \(source)")
        }
        var relativePaths: [String] = []
        while let relative = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if fileManager.fileExists(atPath: source + "/" + relative, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                relativePaths.append(relative)
            }
        }
        for relative in relativePaths.sorted() {
            let from = source + "/" + relative
            let targetRelative = try substitute(relative, values: values, file: from)
            let to = destination + "/" + targetRelative
            guard let data = fileManager.contents(atPath: from) else {
                throw Failure(message: "cannot read \(from)")
            }
            let text = try substitute(String(decoding: data, as: UTF8.self), values: values, file: from)
            do {
                try fileManager.createDirectory(
                    atPath: (to as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try Data(text.utf8).write(to: URL(fileURLWithPath: to))
                if let permissions = try fileManager.attributesOfItem(atPath: from)[.posixPermissions] as? NSNumber,
                    permissions.intValue & 0o111 != 0
                {
                    try fileManager.setAttributes([.posixPermissions: NSNumber(value: 0o755)], ofItemAtPath: to)
                }
            } catch {
                throw Failure(message: "cannot write \(to): \(error.localizedDescription)")
            }
        }
        return relativePaths.count
    }

    /// Replaces each `{{name}}` in `text` with its value.
    ///
    /// - Throws: ``Failure`` naming the file when a placeholder has no value.
    static func substitute(_ text: String, values: [String: String], file: String) throws(Failure) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.range(of: "{{") {
            result += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: "}}") else {
                rest = rest[open.lowerBound...]
                break
            }
            let key = String(rest[open.upperBound..<close.lowerBound])
            guard let value = values[key] else {
                throw Failure(
                    message:
                        "\(file): unknown placeholder {{\(key)}}; known: \(values.keys.sorted().joined(separator: ", "))"
                )
            }
            result += value
            rest = rest[close.upperBound...]
        }
        return result + rest
    }
}

// MARK: - Options

/// Options of `dataconnect init`.
struct InitOptions: Equatable {
    /// The folder to create the project in; it must be missing or empty.
    var directory = ""
    /// The template: `blank` or `movies` (see `InitCommand.templates`).
    var template = InitCommand.defaultTemplate
    /// The service and connector name; the directory's last path component when `nil`.
    var name: String?
}

extension InitOptions {
    static func parse(_ reader: inout ArgumentReader) throws(UsageError) -> Command {
        let parsed = try UsageError.reading { () throws(ArgumentError) in
            try reader.parse([.value("--template", aliases: "-t"), .value("--name")], command: "init")
        }
        if parsed.helpRequested { return .help(topic: "init") }
        if parsed.positionals.count > 1 {
            throw UsageError(message: "init takes one directory, got \"\(parsed.positionals[1])\" too")
        }
        var options = InitOptions()
        options.template = parsed.value("--template") ?? options.template
        options.name = parsed.value("--name")
        guard InitCommand.templates.contains(options.template) else {
            throw UsageError(
                message:
                    "unknown template \"\(options.template)\"; templates: \(InitCommand.templates.joined(separator: ", "))"
            )
        }
        if let name = options.name, InitCommand.sanitizedName(name) == nil {
            throw UsageError(message: "--name needs letters or digits, got \"\(name)\"")
        }
        guard let directory = parsed.positionals.first else { throw UsageError(message: "init needs a directory") }
        options.directory = directory
        return .initProject(options)
    }
}
