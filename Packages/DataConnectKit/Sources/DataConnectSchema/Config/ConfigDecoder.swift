import GraphQLLanguage

/// Reads typed values out of a ``YAMLNode`` tree and collects diagnostics with their places.
///
/// Every accessor takes the dotted key path it reads (`schema.datasource.postgresql.database`), so
/// messages name the key the user wrote: `expected a string for "serviceId", found a mapping`.
/// Optional keys whose value is YAML null (`key:` with nothing after it) count as absent.
struct ConfigDecoder {
    /// The file name printed in diagnostics.
    let file: String
    /// The document kind named in top-level messages, e.g. `dataconnect.yaml`.
    let documentName: String
    /// Everything reported so far, in reading order.
    private(set) var diagnostics: [Diagnostic] = []

    init(file: String, documentName: String) {
        self.file = file
        self.documentName = documentName
    }

    // MARK: Reporting

    mutating func error(_ message: String, at location: SourceLocation?) {
        diagnostics.append(Diagnostic(file: file, location: location, severity: .error, message: message))
    }

    mutating func warning(_ message: String, at location: SourceLocation?) {
        diagnostics.append(Diagnostic(file: file, location: location, severity: .warning, message: message))
    }

    mutating func append(_ diagnostic: Diagnostic) {
        diagnostics.append(diagnostic)
    }

    /// Whether an error was reported since `count` diagnostics existed.
    func hasErrors(since count: Int) -> Bool {
        diagnostics[count...].contains { $0.severity == .error }
    }

    // MARK: Paths

    static func path(_ parent: String, _ key: String) -> String {
        parent.isEmpty ? key : "\(parent).\(key)"
    }

    static func path(_ parent: String, index: Int) -> String {
        "\(parent)[\(index)]"
    }

    // MARK: Mappings

    /// The root of a document: a mapping, or an empty mapping for an empty document.
    mutating func root(_ node: YAMLNode) -> ConfigMapping? {
        if node.isNull {
            return ConfigMapping(path: "", location: node.location, entries: [])
        }
        guard node.pairs != nil else {
            error(
                "expected a mapping at the top level of \(documentName), found \(node.kindDescription)",
                at: node.location)
            return nil
        }
        return mapping(node, path: "")
    }

    /// The entries of a mapping node; reports anything else. Keys must be scalars.
    mutating func mapping(_ node: YAMLNode, path: String) -> ConfigMapping? {
        guard let pairs = node.pairs else {
            error("expected a mapping for \"\(path)\", found \(node.kindDescription)", at: node.location)
            return nil
        }
        var entries: [ConfigMapping.Entry] = []
        for pair in pairs {
            guard let key = pair.key.scalar else {
                let place = path.isEmpty ? documentName : "\"\(path)\""
                error("expected a string key in \(place), found \(pair.key.kindDescription)", at: pair.key.location)
                continue
            }
            entries.append(ConfigMapping.Entry(key: key, keyLocation: pair.key.location, value: pair.value))
        }
        return ConfigMapping(path: path, location: node.location, entries: entries)
    }

    /// Warns about every key not in `known`: `unknown key "foo" in dataconnect.yaml`.
    mutating func checkKeys(_ mapping: ConfigMapping, known: [String]) {
        for entry in mapping.entries where !known.contains(entry.key) {
            let place = mapping.path.isEmpty ? documentName : "\"\(mapping.path)\""
            warning("unknown key \"\(entry.key)\" in \(place)", at: entry.keyLocation)
        }
    }

    /// A nested mapping under `key`, or `nil` when absent, null or not a mapping (reported).
    mutating func optionalMapping(_ mapping: ConfigMapping, _ key: String) -> ConfigMapping? {
        guard let value = mapping.value(key) else { return nil }
        return self.mapping(value, path: Self.path(mapping.path, key))
    }

    // MARK: Scalars

    /// Reports a missing key at the mapping's place.
    mutating func missing(_ mapping: ConfigMapping, _ key: String) {
        let suffix = mapping.path.isEmpty ? "" : " in \"\(mapping.path)\""
        error("missing required key \"\(key)\"\(suffix)", at: mapping.location)
    }

    /// A required non-empty string.
    mutating func requiredString(_ mapping: ConfigMapping, _ key: String) -> String? {
        guard let value = mapping.rawValue(key) else {
            missing(mapping, key)
            return nil
        }
        return string(value, path: Self.path(mapping.path, key))
    }

    /// An optional non-empty string (null counts as absent).
    mutating func optionalString(_ mapping: ConfigMapping, _ key: String) -> String? {
        guard let value = mapping.value(key) else { return nil }
        return string(value, path: Self.path(mapping.path, key))
    }

    /// Any non-null scalar as text; collections and null are reported, and so is an empty string.
    mutating func string(_ node: YAMLNode, path: String) -> String? {
        guard let text = node.scalar, !node.isNull else {
            error("expected a string for \"\(path)\", found \(node.kindDescription)", at: node.location)
            return nil
        }
        if text.isEmpty {
            error("\"\(path)\" must not be empty", at: node.location)
            return nil
        }
        return text
    }

    /// An optional integer in `range` (quoted digits are accepted too).
    mutating func optionalInt(_ mapping: ConfigMapping, _ key: String, in range: ClosedRange<Int>) -> Int? {
        guard let value = mapping.value(key) else { return nil }
        let path = Self.path(mapping.path, key)
        guard let text = value.scalar else {
            error("expected an integer for \"\(path)\", found \(value.kindDescription)", at: value.location)
            return nil
        }
        guard let number = Int(text.trimmedForConfig) else {
            error("expected an integer for \"\(path)\", found \"\(text)\"", at: value.location)
            return nil
        }
        guard range.contains(number) else {
            error(
                "\"\(path)\" must be between \(range.lowerBound) and \(range.upperBound), got \(number)",
                at: value.location)
            return nil
        }
        return number
    }

    /// An optional value of a string enum; unknown values list the allowed ones.
    mutating func optionalEnum<Value: RawRepresentable & CaseIterable>(
        _ mapping: ConfigMapping, _ key: String, as type: Value.Type
    ) -> Value? where Value.RawValue == String {
        guard let value = mapping.value(key) else { return nil }
        let path = Self.path(mapping.path, key)
        guard let text = string(value, path: path) else { return nil }
        if let result = Value(rawValue: text) { return result }
        let allowed = Value.allCases.map(\.rawValue).joined(separator: ", ")
        error("\"\(path)\" must be one of \(allowed), got \"\(text)\"", at: value.location)
        return nil
    }

    /// An optional list of strings; a single string is reported (lists must be lists).
    mutating func optionalStringList(_ mapping: ConfigMapping, _ key: String) -> [String]? {
        guard let value = mapping.value(key) else { return nil }
        let path = Self.path(mapping.path, key)
        guard let items = value.items else {
            error("expected a list of strings for \"\(path)\", found \(value.kindDescription)", at: value.location)
            return nil
        }
        var result: [String] = []
        for (index, item) in items.enumerated() {
            if let text = string(item, path: Self.path(path, index: index)) {
                result.append(text)
            }
        }
        return result
    }

    /// An optional duration such as `"30s"` or `"1h30m"`; invalid text is reported at the value.
    mutating func optionalDuration(_ mapping: ConfigMapping, _ key: String) -> ConfigDuration? {
        guard let value = mapping.value(key) else { return nil }
        let path = Self.path(mapping.path, key)
        guard let text = string(value, path: path) else { return nil }
        switch ConfigDuration.parse(text) {
        case .success(let duration):
            return duration
        case .failure(let reason):
            error("invalid duration \"\(text)\" for \"\(path)\": \(reason.message)", at: value.location)
            return nil
        }
    }

    /// An optional byte size such as `"100MB"`; invalid text is reported at the value.
    mutating func optionalByteSize(_ mapping: ConfigMapping, _ key: String) -> ConfigByteSize? {
        guard let value = mapping.value(key) else { return nil }
        let path = Self.path(mapping.path, key)
        guard let text = string(value, path: path) else { return nil }
        switch ConfigByteSize.parse(text) {
        case .success(let size):
            return size
        case .failure(let reason):
            error("invalid size \"\(text)\" for \"\(path)\": \(reason.message)", at: value.location)
            return nil
        }
    }
}

/// A mapping being decoded: its entries with string keys, its path and its place.
struct ConfigMapping {
    struct Entry {
        var key: String
        var keyLocation: SourceLocation
        var value: YAMLNode
    }

    /// The dotted path of this mapping (empty for the document root).
    var path: String
    /// Where the mapping starts; missing keys are reported here.
    var location: SourceLocation
    var entries: [Entry]

    /// Where `key` is written, if present.
    func keyLocation(_ key: String) -> SourceLocation? {
        entries.first { $0.key == key }?.keyLocation
    }

    /// The value under `key`, including an explicit null.
    func rawValue(_ key: String) -> YAMLNode? {
        entries.first { $0.key == key }?.value
    }

    /// The value under `key`, treating an explicit null as absent.
    func value(_ key: String) -> YAMLNode? {
        guard let node = rawValue(key), !node.isNull else { return nil }
        return node
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs (no Foundation needed).
    var trimmedForConfig: String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
            let end = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })
        else { return "" }
        return String(scalars[start...end])
    }
}
