/// The layering docs/architecture.md documents, as rules over the target graph.
///
/// A rule names a target or a package and what it must never reach, directly or through any chain of
/// dependencies (a module re-exported with `@_exported import` is a dependency too, so re-exports are covered).
struct LayeringRule: Sendable {
    /// What the rule constrains.
    enum Subject: Sendable {
        /// One target.
        case target(TargetID)
        /// Every target of a package but its tests and plugins.
        case package(String)
    }

    /// What the subject must not reach.
    enum Forbidden: Sendable {
        /// These targets.
        case targets([TargetID])
        /// Any target outside these packages.
        case packagesOtherThan(Set<String>)
    }

    var subject: Subject
    var forbidden: Forbidden
    /// Why, in a sentence: printed with a violation.
    var reason: String
}

/// A dependency chain that breaks a rule.
struct LayeringViolation: Sendable, CustomStringConvertible {
    var rule: String
    var path: [TargetID]

    var description: String { path.map(\.description).joined(separator: " -> ") + " (\(rule))" }
}

extension PackageGraph {
    /// The chains that break `rules`, one per subject target and forbidden target; a rule naming a target or
    /// package the graph lacks is a violation too, so a renamed target cannot silently switch its rule off.
    func violations(of rules: [LayeringRule]) -> [LayeringViolation] {
        var found: [LayeringViolation] = []
        let packages = Set(targets.map(\.package))
        for rule in rules {
            let subjects: [TargetID]
            switch rule.subject {
            case .target(let id):
                guard kinds[id] != nil else {
                    found.append(LayeringViolation(rule: "no target \(id): \(rule.reason)", path: []))
                    continue
                }
                subjects = [id]
            case .package(let name):
                guard packages.contains(name) else {
                    found.append(LayeringViolation(rule: "no package \(name): \(rule.reason)", path: []))
                    continue
                }
                subjects = targets.filter { $0.package == name && !["test", "plugin"].contains(kinds[$0]) }
            }
            for subject in subjects {
                let reached = closure(of: subject)
                let bad: [TargetID]
                switch rule.forbidden {
                case .targets(let forbidden):
                    for id in forbidden where kinds[id] == nil {
                        found.append(LayeringViolation(rule: "no target \(id): \(rule.reason)", path: []))
                    }
                    bad = forbidden.filter(reached.contains)
                case .packagesOtherThan(let allowed):
                    bad = reached.filter { !allowed.contains($0.package) }.sorted()
                }
                for target in bad {
                    found.append(LayeringViolation(rule: rule.reason, path: path(from: subject, to: target) ?? []))
                }
            }
        }
        return found
    }
}

/// The project's layering (docs/architecture.md, "Layering").
enum ProjectLayering {
    static let kit = "DataConnectKit"
    static let emulator = "DataConnectEmulator"
    static let support = "DataConnectTestSupport"

    static let rules: [LayeringRule] = [
        LayeringRule(
            subject: .target(TargetID(package: emulator, target: "DataConnectEngine")),
            forbidden: .targets(
                [
                    TargetID(package: kit, target: "SQLiteKit"), TargetID(package: kit, target: "CSQLite"),
                    TargetID(package: kit, target: "PostgreSQLKit"), TargetID(package: kit, target: "CLibPQ"),
                    TargetID(package: emulator, target: "EmulatorHTTP"),
                    TargetID(package: emulator, target: "CMicroHTTPD"), TargetID(package: emulator, target: "CNGHTTP2"),
                    TargetID(package: kit, target: "DataConnectProtobuf"),
                ]),
            reason: "the engine reaches databases only through the DataStore seam, and serves no HTTP (nor gRPC)"),
        LayeringRule(
            subject: .target(TargetID(package: kit, target: "DataConnectProtobuf")),
            forbidden: .targets([
                TargetID(package: kit, target: "SQLiteKit"), TargetID(package: kit, target: "PostgreSQLKit"),
                TargetID(package: kit, target: "GraphQLLanguage"), TargetID(package: kit, target: "DataConnectSchema"),
            ]),
            reason: "the protobuf codec maps the wire types and nothing else, so a client could link it alone"),
        LayeringRule(
            subject: .target(TargetID(package: emulator, target: "DataConnectSQLiteStore")),
            forbidden: .targets([
                TargetID(package: kit, target: "PostgreSQLKit"), TargetID(package: kit, target: "CLibPQ"),
            ]),
            reason: "each store links its own driver only"),
        LayeringRule(
            subject: .target(TargetID(package: emulator, target: "DataConnectPostgreSQLStore")),
            forbidden: .targets([
                TargetID(package: kit, target: "SQLiteKit"), TargetID(package: kit, target: "CSQLite"),
            ]),
            reason: "each store links its own driver only"),
        LayeringRule(
            subject: .package(kit), forbidden: .packagesOtherThan([kit, support]),
            reason: "the kit is the bottom layer (with the posix_spawn runner its PostgreSQL clusters start with)"),
        LayeringRule(
            subject: .package(support), forbidden: .packagesOtherThan([support]),
            reason: "the test support depends on nothing, so every package's tests may use it"),
        LayeringRule(
            subject: .package("DataConnectCache"), forbidden: .packagesOtherThan([kit, "DataConnectCache"]),
            reason: "the cache needs only the kit"),
        LayeringRule(
            subject: .package("DataConnect"), forbidden: .packagesOtherThan([kit, "DataConnectCache", "DataConnect"]),
            reason: "an app that depends on the SDK resolves only the kit and the cache"),
        LayeringRule(
            subject: .package("FirebaseDataConnectGenerated"),
            forbidden: .packagesOtherThan([kit, "DataConnectCache", "DataConnect", "FirebaseDataConnectGenerated"]),
            reason: "generated SDKs depend on the SDK alone"),
        LayeringRule(
            subject: .package(emulator), forbidden: .packagesOtherThan([kit, emulator, support]),
            reason: "the emulator does not depend on the SDK"),
        LayeringRule(
            subject: .package("DataConnectCodegen"), forbidden: .packagesOtherThan([kit, "DataConnectCodegen"]),
            reason: "the generator reads schemas with the kit and links no runtime"),
    ]
}
