import GraphQLLanguage

/// Reads typed values out of directive arguments in the schema.
extension Directive {
    /// The string value of an argument, if it is a string literal.
    func string(_ name: String) -> String? {
        if case .string(let s)? = argument(name)?.value { return s.value }
        return nil
    }

    /// The integer value of an argument, if it is an int literal.
    func int(_ name: String) -> Int? {
        if case .int(let text, _)? = argument(name)?.value { return Int(text) }
        return nil
    }

    /// The boolean value of an argument, if it is a boolean literal.
    func bool(_ name: String) -> Bool? {
        if case .boolean(let b, _)? = argument(name)?.value { return b }
        return nil
    }

    /// A `[String!]` argument; a single string counts as a one-element list (input coercion).
    func strings(_ name: String) -> [String]? {
        switch argument(name)?.value {
        case .string(let s)?: return [s.value]
        case .list(let items, _)?:
            return items.compactMap { if case .string(let s) = $0 { s.value } else { nil } }
        default: return nil
        }
    }

    /// A list of enum values (`[ASC, DESC]`); a single value counts as a one-element list.
    func enumValues(_ name: String) -> [String]? {
        switch argument(name)?.value {
        case .enum(let n)?: return [n.value]
        case .list(let items, _)?:
            return items.compactMap { if case .enum(let n) = $0 { n.value } else { nil } }
        default: return nil
        }
    }

    /// The location of an argument's value, or of the directive itself.
    func location(of name: String) -> NodeLocation {
        argument(name)?.value.location ?? location
    }
}

/// Joins the `#` comment lines and the description of a definition into documentation text.
func documentation(description: StringValue?, comments: [String]) -> String? {
    if let description, !description.value.isEmpty { return description.value }
    let text = comments.joined(separator: "\n").trimmingCharacters(in: " \n")
    return text.isEmpty ? nil : text
}

extension String {
    /// Trims the given characters from both ends.
    func trimmingCharacters(in set: String) -> String {
        let chars = Set(set)
        var s = Substring(self)
        while let f = s.first, chars.contains(f) { s = s.dropFirst() }
        while let l = s.last, chars.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
