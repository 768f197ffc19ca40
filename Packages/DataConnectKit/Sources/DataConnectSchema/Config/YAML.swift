import CYAML
import GraphQLLanguage

/// One node of a YAML document: a scalar, a sequence or a mapping, with the place it starts at.
///
/// The tree is deliberately small: it keeps what configuration loading needs (text, order, places)
/// and drops what it does not (tags, comments, anchors, which are resolved while parsing).
/// Scalars stay text: a configuration key decides whether `"9399"` is a number.
///
/// ```swift
/// let root = try YAMLParser.parse("serviceId: movies\n", file: "dataconnect.yaml")
/// root["serviceId"]?.scalar        // "movies"
/// root["serviceId"]?.location      // 1:12
/// ```
public struct YAMLNode: Hashable, Sendable {
    /// How a scalar was written. Only plain scalars can mean `null`, `true` or a number.
    public enum ScalarStyle: Hashable, Sendable {
        /// Written without quotes (`movies`, `30s`, `~`).
        case plain
        /// Written in single or double quotes, or as a `|` / `>` block scalar.
        case quoted
    }

    /// One entry of a mapping, in document order.
    public struct Pair: Hashable, Sendable {
        /// The key (a scalar in every configuration file, though YAML allows any node).
        public var key: YAMLNode
        /// The value.
        public var value: YAMLNode

        /// Creates a pair.
        public init(key: YAMLNode, value: YAMLNode) {
            self.key = key
            self.value = value
        }
    }

    /// The shape and content of a node.
    public enum Kind: Hashable, Sendable {
        /// A scalar's text and how it was written.
        case scalar(String, ScalarStyle)
        /// A sequence (`- a` or `[a, b]`).
        case sequence([YAMLNode])
        /// A mapping (`a: 1` or `{a: 1}`), keys in document order.
        case mapping([Pair])
    }

    /// The shape and content.
    public var kind: Kind
    /// Where the node starts (1-based line and column; for quoted scalars, the opening quote).
    public var location: SourceLocation

    /// Creates a node.
    public init(_ kind: Kind, at location: SourceLocation) {
        self.kind = kind
        self.location = location
    }

    /// The text of a scalar node, `nil` for collections (a `null` scalar returns its text, e.g. `"~"`).
    public var scalar: String? {
        if case .scalar(let text, _) = kind { return text }
        return nil
    }

    /// The elements of a sequence node, `nil` otherwise.
    public var items: [YAMLNode]? {
        if case .sequence(let items) = kind { return items }
        return nil
    }

    /// The entries of a mapping node, `nil` otherwise.
    public var pairs: [Pair]? {
        if case .mapping(let pairs) = kind { return pairs }
        return nil
    }

    /// Whether the node is YAML's null: a plain `~`, `null`, `Null`, `NULL` or nothing at all.
    public var isNull: Bool {
        guard case .scalar(let text, .plain) = kind else { return false }
        return text.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL"
    }

    /// The value of the first entry whose key is the scalar `key`; `nil` for non-mappings and missing keys.
    public subscript(key: String) -> YAMLNode? {
        pairs?.first { $0.key.scalar == key }?.value
    }

    /// A short description for messages: `a mapping`, `a list`, `null`, `a number`, `a boolean` or `a string`.
    public var kindDescription: String {
        switch kind {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .scalar(let text, let style):
            if isNull { return "null" }
            guard style == .plain else { return "a string" }
            if ["true", "false", "True", "False", "TRUE", "FALSE"].contains(text) { return "a boolean" }
            if Int(text) != nil
                || (Double(text) != nil && text.first.map { $0.isNumber || $0 == "-" || $0 == "." } == true)
            {
                return "a number"
            }
            return "a string"
        }
    }
}

/// Reads YAML text into a ``YAMLNode`` tree through libyaml's event API.
///
/// JSON is flow-style YAML, so the same parser reads `firebase.json` and keeps line numbers.
/// Anchors and aliases are resolved (an alias becomes a copy of its anchored node, placed at the
/// alias); expansion is bounded, so alias bombs fail with an error instead of exhausting memory.
///
/// ```swift
/// let root = try YAMLParser.parse(text, file: "Backend/movies/dataconnect.yaml")
/// ```
public enum YAMLParser {
    /// The deepest nesting accepted (also after expanding aliases).
    public static let maximumDepth = 200
    /// The largest number of nodes accepted (also after expanding aliases).
    public static let maximumNodeCount = 1_000_000

    /// Parses one YAML document.
    ///
    /// An empty document (or one holding only comments) gives a null scalar at 1:1. A stream with more
    /// than one document, duplicate keys in a mapping, an unknown alias, nesting deeper than
    /// ``maximumDepth`` and any libyaml error are reported as a `Diagnostic` whose message starts `yaml: `.
    ///
    /// - Parameters:
    ///   - text: The document's text.
    ///   - file: The file name used in diagnostics.
    /// - Returns: The root node.
    /// - Throws: A `Diagnostic` pointing at the problem.
    public static func parse(_ text: String, file: String) throws(Diagnostic) -> YAMLNode {
        let bytes = Array(text.utf8)
        if bytes.isEmpty {
            return YAMLNode(.scalar("", .plain), at: SourceLocation(line: 1, column: 1))
        }
        let result: Result<YAMLNode, Diagnostic> = bytes.withUnsafeBufferPointer { buffer in
            // The parser is large and must not move while libyaml holds pointers into it.
            let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
            parser.initialize(to: yaml_parser_t())
            defer {
                parser.deinitialize(count: 1)
                parser.deallocate()
            }
            guard yaml_parser_initialize(parser) != 0 else {
                return .failure(Diagnostic(file: file, location: nil, message: "yaml: cannot initialize the parser"))
            }
            defer { yaml_parser_delete(parser) }
            // `buffer` stays alive for the whole closure, i.e. for the whole parse.
            yaml_parser_set_input_string(parser, buffer.baseAddress, buffer.count)
            var builder = YAMLTreeBuilder(file: file, bytes: buffer)
            return builder.run(parser)
        }
        return try result.get()
    }
}

/// Turns libyaml events into a ``YAMLNode`` tree, with an explicit stack instead of recursion.
private struct YAMLTreeBuilder {
    /// A collection being read.
    private struct Frame {
        var isMapping: Bool
        var location: SourceLocation
        var anchor: String?
        var items: [YAMLNode] = []
        var pairs: [YAMLNode.Pair] = []
        var pendingKey: YAMLNode?
        var nodeCount = 1
        var height = 1
    }

    /// A resolved anchor: the node and its size, to bound alias expansion.
    private struct Anchored {
        var node: YAMLNode
        var nodeCount: Int
        var height: Int
    }

    let file: String
    let bytes: UnsafeBufferPointer<UInt8>
    private var stack: [Frame] = []
    private var anchors: [String: Anchored] = [:]
    private var root: YAMLNode?
    private var documentCount = 0
    private var totalNodes = 0

    init(file: String, bytes: UnsafeBufferPointer<UInt8>) {
        self.file = file
        self.bytes = bytes
    }

    mutating func run(_ parser: UnsafeMutablePointer<yaml_parser_t>) -> Result<YAMLNode, Diagnostic> {
        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(parser, &event) != 0 else {
                return .failure(parserError(parser))
            }
            defer { yaml_event_delete(&event) }
            let location = Self.location(event.start_mark)
            let type = event.type
            if type == YAML_STREAM_END_EVENT {
                break
            } else if type == YAML_DOCUMENT_START_EVENT {
                documentCount += 1
                if documentCount > 1 {
                    return .failure(error("expected a single document, found a second one", at: location))
                }
            } else if type == YAML_SCALAR_EVENT {
                let scalar = event.data.scalar
                let text = Self.string(scalar.value, count: scalar.length)
                var style: YAMLNode.ScalarStyle = scalar.style == YAML_PLAIN_SCALAR_STYLE ? .plain : .quoted
                if style == .plain, let tag = Self.optionalString(scalar.tag),
                    tag == "tag:yaml.org,2002:str" || tag == "!"
                {
                    style = .quoted
                }
                let node = YAMLNode(.scalar(text, style), at: location)
                if let failure = complete(node, nodeCount: 1, height: 0, anchor: Self.optionalString(scalar.anchor)) {
                    return .failure(failure)
                }
            } else if type == YAML_ALIAS_EVENT {
                let name = Self.optionalString(event.data.alias.anchor) ?? ""
                guard let anchored = anchors[name] else {
                    return .failure(error("unknown alias \"\(name)\"", at: location))
                }
                var node = anchored.node
                node.location = location
                if let failure = complete(node, nodeCount: anchored.nodeCount, height: anchored.height, anchor: nil) {
                    return .failure(failure)
                }
            } else if type == YAML_SEQUENCE_START_EVENT || type == YAML_MAPPING_START_EVENT {
                if stack.count >= YAMLParser.maximumDepth {
                    return .failure(error("nesting deeper than \(YAMLParser.maximumDepth) levels", at: location))
                }
                let anchor =
                    type == YAML_SEQUENCE_START_EVENT
                    ? Self.optionalString(event.data.sequence_start.anchor)
                    : Self.optionalString(event.data.mapping_start.anchor)
                stack.append(Frame(isMapping: type == YAML_MAPPING_START_EVENT, location: location, anchor: anchor))
            } else if type == YAML_SEQUENCE_END_EVENT || type == YAML_MAPPING_END_EVENT {
                guard let frame = stack.popLast() else {
                    return .failure(error("unbalanced collection end", at: location))
                }
                let kind: YAMLNode.Kind = frame.isMapping ? .mapping(frame.pairs) : .sequence(frame.items)
                let node = YAMLNode(kind, at: frame.location)
                if let failure = complete(
                    node, nodeCount: frame.nodeCount, height: frame.height, anchor: frame.anchor,
                    alreadyCounted: true)
                {
                    return .failure(failure)
                }
            }
            // STREAM_START, DOCUMENT_END and NO_EVENT carry nothing for the tree.
        }
        return .success(root ?? YAMLNode(.scalar("", .plain), at: SourceLocation(line: 1, column: 1)))
    }

    /// Adds a finished node to its parent (or makes it the root), registering its anchor.
    private mutating func complete(
        _ node: YAMLNode, nodeCount: Int, height: Int, anchor: String?, alreadyCounted: Bool = false
    ) -> Diagnostic? {
        // A collection's children were counted as they arrived; count only the collection itself.
        totalNodes += alreadyCounted ? 1 : nodeCount
        if totalNodes > YAMLParser.maximumNodeCount {
            return error(
                "document too large (more than \(YAMLParser.maximumNodeCount) nodes after expanding aliases)",
                at: node.location)
        }
        if stack.count + height > YAMLParser.maximumDepth {
            return error("nesting deeper than \(YAMLParser.maximumDepth) levels", at: node.location)
        }
        if let anchor {
            anchors[anchor] = Anchored(node: node, nodeCount: nodeCount, height: height)
        }
        guard !stack.isEmpty else {
            root = node
            return nil
        }
        let top = stack.count - 1
        stack[top].nodeCount += nodeCount
        stack[top].height = max(stack[top].height, height + 1)
        if !stack[top].isMapping {
            stack[top].items.append(node)
        } else if let key = stack[top].pendingKey {
            stack[top].pairs.append(YAMLNode.Pair(key: key, value: node))
            stack[top].pendingKey = nil
        } else {
            if let text = node.scalar, stack[top].pairs.contains(where: { $0.key.scalar == text }) {
                return error("duplicate key \"\(text)\"", at: node.location)
            }
            stack[top].pendingKey = node
        }
        return nil
    }

    private func error(_ message: String, at location: SourceLocation?) -> Diagnostic {
        Diagnostic(file: file, location: location, message: "yaml: \(message)")
    }

    /// libyaml's problem, placed at its mark (reader errors carry only a byte offset).
    private func parserError(_ parser: UnsafeMutablePointer<yaml_parser_t>) -> Diagnostic {
        let state = parser.pointee
        var message = Self.optionalString(state.problem) ?? "unknown error"
        let location: SourceLocation
        if state.error == YAML_READER_ERROR {
            location = locationOfByte(state.problem_offset)
            if state.problem_value != -1 {
                message += " (byte 0x\(String(UInt32(bitPattern: state.problem_value), radix: 16)))"
            }
        } else {
            location = Self.location(state.problem_mark)
            if let context = Self.optionalString(state.context) {
                let start = Self.location(state.context_mark)
                message += " (\(context) at \(start))"
            }
        }
        return error(message, at: location)
    }

    /// The 1-based place of a byte offset, counting columns in Unicode scalars like libyaml does.
    private func locationOfByte(_ offset: Int) -> SourceLocation {
        var line = 1
        var column = 1
        for byte in bytes.prefix(max(0, min(offset, bytes.count))) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return SourceLocation(line: line, column: column)
    }

    /// libyaml marks are 0-based; ours are 1-based.
    private static func location(_ mark: yaml_mark_t) -> SourceLocation {
        SourceLocation(line: mark.line + 1, column: mark.column + 1)
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?, count: Int) -> String {
        guard let pointer, count > 0 else { return "" }
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    private static func optionalString(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }

    private static func optionalString(_ pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }
}
