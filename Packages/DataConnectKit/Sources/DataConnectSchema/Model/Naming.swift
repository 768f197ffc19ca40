/// The naming rules of the generated API: SQL names, singular and plural field names.
///
/// Tables and columns default to the snake_case of the GraphQL name (`RecipeNote` becomes
/// `recipe_note`, `savedOn` becomes `saved_on`); root fields default to the lowerCamel type name
/// (`recipeNote`) and a simple English plural of it (`recipeNotes`, `chefs`, `categories`).
public enum Naming {
    /// `RecipeNote` → `recipe_note`, `chefId` → `chef_id`, `HTTPServer` → `http_server`, `movie2D` → `movie2_d`.
    ///
    /// A word boundary falls before an uppercase letter that follows a lowercase letter or digit, and
    /// before the last uppercase letter of an acronym that is followed by a lowercase letter.
    public static func snakeCase(_ name: String) -> String {
        if let ascii = asciiSnakeCase(name) { return ascii }
        let chars = Array(name)
        var out = ""
        out.reserveCapacity(chars.count + 4)
        for (i, c) in chars.enumerated() {
            if c.isUppercase {
                let previous: Character? = i > 0 ? chars[i - 1] : nil
                let next: Character? = i + 1 < chars.count ? chars[i + 1] : nil
                let boundary =
                    i > 0 && previous != "_"
                    && ((previous!.isLowercase || previous!.isNumber)
                        || (previous!.isUppercase && (next?.isLowercase ?? false)))
                if boundary { out.append("_") }
                out.append(contentsOf: c.lowercased())
            } else {
                out.append(c)
            }
        }
        return out
    }

    /// ``snakeCase(_:)`` over the bytes of an ASCII name, in time linear in its length; `nil` for other names.
    ///
    /// Key columns that follow references through keys get names as long as the chain (`nextNextNextId`),
    /// so the per-character cost matters.
    private static func asciiSnakeCase(_ name: String) -> String? {
        var name = name
        return name.withUTF8 { bytes -> String? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            func isUpper(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "A") < 26 }
            func isLower(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "a") < 26 }
            func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
            return String(unsafeUninitializedCapacity: bytes.count * 2) { out in
                var count = 0
                for i in 0..<bytes.count {
                    let byte = bytes[i]
                    if isUpper(byte) {
                        if i > 0 && bytes[i - 1] != UInt8(ascii: "_") {
                            let previous = bytes[i - 1]
                            let nextIsLower = i + 1 < bytes.count && isLower(bytes[i + 1])
                            if isLower(previous) || isDigit(previous) || (isUpper(previous) && nextIsLower) {
                                out[count] = UInt8(ascii: "_")
                                count += 1
                            }
                        }
                        out[count] = byte | 0x20
                    } else {
                        out[count] = byte
                    }
                    count += 1
                }
                return count
            }
        }
    }

    /// `RecipeNote` → `recipeNote`, `URLEntry` → `urlEntry`.
    public static func lowerCamel(_ name: String) -> String {
        let chars = Array(name)
        var i = 0
        while i < chars.count, chars[i].isUppercase { i += 1 }
        if i == 0 { return name }
        // Lowercase the leading run of capitals, but keep the capital that starts the next word.
        let lowerCount = (i == chars.count || i == 1) ? i : i - 1
        return String(chars[0..<lowerCount]).lowercased() + String(chars[lowerCount...])
    }

    /// `movie` → `Movie`.
    public static func upperFirst(_ name: String) -> String {
        guard let first = name.first else { return name }
        return first.uppercased() + name.dropFirst()
    }

    /// A simple English plural: `y` after a consonant → `ies`; `s`, `x`, `z`, `ch`, `sh` → `+es`; else `+s`.
    ///
    /// Upstream uses a naive inflection too (`Metadata` → `Metadatas`); names that read badly can be
    /// overridden with `@table(plural:)`.
    public static func plural(_ word: String) -> String {
        let lower = word.lowercased()
        if lower.hasSuffix("y"), lower.count > 1 {
            let beforeY = lower[lower.index(lower.endIndex, offsetBy: -2)]
            if !"aeiou".contains(beforeY) { return String(word.dropLast()) + "ies" }
        }
        if lower.hasSuffix("s") || lower.hasSuffix("x") || lower.hasSuffix("z") || lower.hasSuffix("ch")
            || lower.hasSuffix("sh")
        {
            return word + "es"
        }
        return word + "s"
    }
}
