import Foundation

/// A package's manifest as `swift package dump-package` prints it: the parts the layering needs.
struct Manifest: Decodable, Sendable {
    /// A target and what it depends on.
    struct Target: Decodable, Sendable {
        var name: String
        var type: String
        var dependencies: [Dependency]
    }

    /// A target's dependency, in the three forms a manifest writes.
    enum Dependency: Decodable, Sendable, Equatable {
        /// `"Name"`: a target of the same package, or a product of a dependency with that name.
        case byName(String)
        /// `.target(name:)`.
        case target(String)
        /// `.product(name:package:)`.
        case product(String, package: String)

        private enum Key: String, CodingKey { case byName, target, product }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            if var fields = try? container.nestedUnkeyedContainer(forKey: .byName) {
                self = .byName(try fields.decode(String.self))
            } else if var fields = try? container.nestedUnkeyedContainer(forKey: .target) {
                self = .target(try fields.decode(String.self))
            } else {
                var fields = try container.nestedUnkeyedContainer(forKey: .product)
                let name = try fields.decode(String.self)
                self = .product(name, package: try fields.decode(String.self))
            }
        }
    }

    /// A product: the targets it exports.
    struct Product: Decodable, Sendable {
        var name: String
        var targets: [String]
    }

    /// A package dependency by path.
    struct PackageDependency: Decodable, Sendable {
        var identity: String
        var path: String

        private enum Key: String, CodingKey { case fileSystem }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            var forms = try container.nestedUnkeyedContainer(forKey: .fileSystem)
            let fields = try forms.decode(Fields.self)
            identity = fields.identity
            path = fields.path
        }

        private struct Fields: Decodable {
            var identity: String
            var path: String
        }
    }

    var name: String
    var targets: [Target]
    var products: [Product]
    var dependencies: [PackageDependency]
}

/// A target of one package: the nodes of the graph.
struct TargetID: Hashable, Comparable, Sendable, CustomStringConvertible {
    var package: String
    var target: String

    var description: String { "\(package)/\(target)" }

    static func < (lhs: TargetID, rhs: TargetID) -> Bool { lhs.description < rhs.description }
}

/// The targets of a set of packages and their direct dependencies, products resolved to the targets they export.
///
/// Built from manifests, never from reading `Package.swift` text: ``load(root:dump:)`` asks SwiftPM for each
/// package's manifest as JSON and follows its path dependencies.
struct PackageGraph: Sendable {
    /// Why a manifest does not make a graph.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Each target's kind (`regular`, `system`, `test`, `executable`, `plugin`, …).
    private(set) var kinds: [TargetID: String] = [:]
    /// Each target's direct dependencies.
    private(set) var edges: [TargetID: Set<TargetID>] = [:]
    /// Each package's direct package dependencies (by package name).
    private(set) var packageEdges: [String: Set<String>] = [:]

    /// The graph of `manifests`, keyed by the package's folder; `root` is the first package's folder.
    ///
    /// - Throws: ``Failure`` when a dependency names a package, product or target the manifests do not have.
    init(manifests: [String: Manifest]) throws(Failure) {
        var byIdentity: [String: Manifest] = [:]
        for (path, manifest) in manifests {
            byIdentity[URL(fileURLWithPath: path).lastPathComponent.lowercased()] = manifest
        }
        for manifest in manifests.values {
            var packages: Set<String> = []
            for dependency in manifest.dependencies {
                guard let other = byIdentity[dependency.identity] else {
                    throw Failure(description: "\(manifest.name) depends on \(dependency.path), which was not loaded")
                }
                packages.insert(other.name)
            }
            packageEdges[manifest.name] = packages
            let local = Set(manifest.targets.map(\.name))
            for target in manifest.targets {
                let id = TargetID(package: manifest.name, target: target.name)
                kinds[id] = target.type
                var direct: Set<TargetID> = []
                for dependency in target.dependencies {
                    switch dependency {
                    case .target(let name):
                        direct.insert(TargetID(package: manifest.name, target: name))
                    case .byName(let name) where local.contains(name):
                        direct.insert(TargetID(package: manifest.name, target: name))
                    case .byName(let name):
                        let owners = manifest.dependencies.compactMap { byIdentity[$0.identity] }
                            .filter { $0.products.contains { $0.name == name } }
                        guard let owner = owners.first else {
                            throw Failure(description: "\(id): no target or product named \(name)")
                        }
                        direct.formUnion(try Self.exports(of: name, in: owner))
                    case .product(let name, let package):
                        guard let owner = byIdentity[package.lowercased()] else {
                            throw Failure(description: "\(id): no package \(package)")
                        }
                        direct.formUnion(try Self.exports(of: name, in: owner))
                    }
                }
                edges[id] = direct
            }
        }
    }

    private static func exports(of product: String, in manifest: Manifest) throws(Failure) -> [TargetID] {
        guard let found = manifest.products.first(where: { $0.name == product }) else {
            throw Failure(description: "\(manifest.name) has no product \(product)")
        }
        return found.targets.map { TargetID(package: manifest.name, target: $0) }
    }

    /// Every target, in a stable order.
    var targets: [TargetID] { kinds.keys.sorted() }

    /// Adds a dependency: for the cases that show a rule failing.
    mutating func addEdge(from source: TargetID, to destination: TargetID) {
        edges[source, default: []].insert(destination)
    }

    /// A shortest path from `source` to `destination` through dependencies, both ends included; `nil` when
    /// `destination` is not among `source`'s transitive dependencies.
    func path(from source: TargetID, to destination: TargetID) -> [TargetID]? {
        var previous: [TargetID: TargetID] = [:]
        var queue = [source]
        var seen: Set<TargetID> = [source]
        var index = 0
        while index < queue.count {
            let current = queue[index]
            index += 1
            if current == destination {
                var path = [current]
                while let before = previous[path[0]] { path.insert(before, at: 0) }
                return path
            }
            for next in (edges[current] ?? []).sorted() where seen.insert(next).inserted {
                previous[next] = current
                queue.append(next)
            }
        }
        return nil
    }

    /// The targets `source` depends on, directly or not.
    func closure(of source: TargetID) -> Set<TargetID> {
        var seen: Set<TargetID> = []
        var stack = Array(edges[source] ?? [])
        while let next = stack.popLast() {
            guard seen.insert(next).inserted else { continue }
            stack.append(contentsOf: edges[next] ?? [])
        }
        return seen
    }
}

extension PackageGraph {
    /// Loads the manifests of `root` and of every package it reaches through path dependencies.
    ///
    /// - Parameter dump: prints one package's manifest as JSON (`swift package dump-package`).
    static func load(root: String, dump: (String) async throws -> Data) async throws -> [String: Manifest] {
        var manifests: [String: Manifest] = [:]
        var pending = [URL(fileURLWithPath: root).standardizedFileURL.path]
        while let path = pending.popLast() {
            guard manifests[path] == nil else { continue }
            let manifest = try JSONDecoder().decode(Manifest.self, from: try await dump(path))
            manifests[path] = manifest
            pending.append(
                contentsOf: manifest.dependencies.map { URL(fileURLWithPath: $0.path).standardizedFileURL.path })
        }
        return manifests
    }
}
