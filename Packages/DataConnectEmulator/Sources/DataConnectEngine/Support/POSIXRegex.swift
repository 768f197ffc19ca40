#if canImport(Glibc)
import Glibc
#endif

/// POSIX extended regular expressions (`regcomp`), as upstream's `pattern.regex` promises.
package enum POSIXRegex {
    /// A pattern that does not compile.
    package struct InvalidPattern: Error, CustomStringConvertible {
        /// The pattern, as given.
        let pattern: String
        package var description: String { "invalid regular expression \"\(pattern)\"" }
    }

    /// Whether `pattern` compiles as a POSIX extended regular expression.
    package static func isValid(_ pattern: String) -> Bool {
        var regex = regex_t()
        guard regcomp(&regex, pattern, REG_EXTENDED | REG_NOSUB) == 0 else { return false }
        regfree(&regex)
        return true
    }

    /// Whether `subject` matches `pattern`, a POSIX extended regular expression; `ignoreCase` compiles it with
    /// `REG_ICASE`.
    ///
    /// - Throws: ``InvalidPattern`` when the pattern does not compile.
    package static func matches(_ pattern: String, _ subject: String, ignoreCase: Bool) throws -> Bool {
        var regex = regex_t()
        let flags = REG_EXTENDED | REG_NOSUB | (ignoreCase ? REG_ICASE : 0)
        guard regcomp(&regex, pattern, flags) == 0 else { throw InvalidPattern(pattern: pattern) }
        defer { regfree(&regex) }
        return regexec(&regex, subject, 0, nil, 0) == 0
    }
}
