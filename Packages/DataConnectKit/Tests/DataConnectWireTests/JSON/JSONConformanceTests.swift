import DataConnectWire
import Testing

/// One small input of the conformance suite, named like JSONTestSuite files (`y_` accepted, `n_` rejected).
struct JSONCase: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    /// For rejected inputs, the kind of error expected.
    let expectedKind: JSONError.Kind?

    init(_ name: String, _ text: String, _ expectedKind: JSONError.Kind? = nil) {
        self.name = name
        self.bytes = Array(text.utf8)
        self.expectedKind = expectedKind
    }

    init(_ name: String, bytes: [UInt8], _ expectedKind: JSONError.Kind? = nil) {
        self.name = name
        self.bytes = bytes
        self.expectedKind = expectedKind
    }

    var testDescription: String { name }
}

private let acceptedCases: [JSONCase] = [
    JSONCase("y_array_empty", "[]"),
    JSONCase("y_array_of_empty_arrays", "[[], [[]]]"),
    JSONCase("y_array_mixed", #"[1, "a", true, false, null, {}, []]"#),
    JSONCase("y_array_whitespace", " [ 1 , 2 ] "),
    JSONCase("y_object_empty", "{}"),
    JSONCase("y_object_basic", #"{"a":1}"#),
    JSONCase("y_object_nested", #"{"a":{"b":{"c":[1]}}}"#),
    JSONCase("y_object_duplicate_key", #"{"a":1,"a":2}"#),
    JSONCase("y_object_empty_key", #"{"":0}"#),
    JSONCase("y_object_whitespace", "\t{\n\"a\"\r: 1 }\n"),
    JSONCase("y_string_empty", #""""#),
    JSONCase("y_string_all_escapes", #""\" \\ \/ \b \f \n \r \t""#),
    JSONCase("y_string_unicode_escape", #""\u00e9""#),
    JSONCase("y_string_surrogate_pair", #""\ud83c\udfac""#),
    JSONCase("y_string_uppercase_hex", #""\u00E9\uD83C\uDFAC""#),
    JSONCase("y_string_utf8_two_bytes", "\"é\""),
    JSONCase("y_string_utf8_three_bytes", "\"東京\""),
    JSONCase("y_string_utf8_four_bytes", "\"🎬\""),
    JSONCase("y_string_escaped_nul", #""\u0000""#),
    JSONCase("y_string_raw_delete", "\"\u{7F}\""),
    JSONCase("y_string_raw_line_separator", "\"\u{2028}\""),
    JSONCase("y_string_noncharacter", "\"\u{FFFF}\""),
    JSONCase("y_string_max_scalar", "\"\u{10FFFF}\""),
    JSONCase("y_number_zero", "0"),
    JSONCase("y_number_negative_zero", "-0"),
    JSONCase("y_number_integer", "123"),
    JSONCase("y_number_negative", "-123"),
    JSONCase("y_number_fraction", "1.5"),
    JSONCase("y_number_exponent", "1e10"),
    JSONCase("y_number_capital_exponent_negative", "1E-2"),
    JSONCase("y_number_exponent_plus", "1e+2"),
    JSONCase("y_number_small_fraction", "0.0001"),
    JSONCase("y_number_huge_exponent", "1e400"),
    JSONCase("y_number_huge_integer", "123456789012345678901234567890"),
    JSONCase("y_number_int64_min", "-9223372036854775808"),
    JSONCase("y_number_int64_max", "9223372036854775807"),
    JSONCase("y_number_exponent_leading_zeros", "1e007"),
    JSONCase("y_literal_true", "true"),
    JSONCase("y_literal_false", "false"),
    JSONCase("y_literal_null", "null"),
    JSONCase("y_top_level_string", #""x""#),
    JSONCase("y_whitespace_around", " \n\t\r 1 \n"),
    JSONCase("y_deep_array_100", String(repeating: "[", count: 100) + String(repeating: "]", count: 100)),
]

private let rejectedCases: [JSONCase] = [
    JSONCase("n_empty", "", .unexpectedEndOfInput),
    JSONCase("n_whitespace_only", "  \n ", .unexpectedEndOfInput),
    JSONCase("n_array_unclosed", "[1", .unexpectedEndOfInput),
    JSONCase("n_array_unclosed_nested", "[[]", .unexpectedEndOfInput),
    JSONCase("n_array_trailing_comma", "[1,]", .unexpectedCharacter),
    JSONCase("n_array_leading_comma", "[,1]", .unexpectedCharacter),
    JSONCase("n_array_double_comma", "[1,,2]", .unexpectedCharacter),
    JSONCase("n_array_missing_comma", "[1 2]", .unexpectedCharacter),
    JSONCase("n_array_colon", "[1:2]", .unexpectedCharacter),
    JSONCase("n_object_trailing_comma", #"{"a":1,}"#, .unexpectedCharacter),
    JSONCase("n_object_unquoted_key", "{a:1}", .unexpectedCharacter),
    JSONCase("n_object_single_quoted_key", "{'a':1}", .unexpectedCharacter),
    JSONCase("n_object_missing_colon", #"{"a" 1}"#, .unexpectedCharacter),
    JSONCase("n_object_missing_value", #"{"a":}"#, .unexpectedCharacter),
    JSONCase("n_object_number_key", "{1:1}", .unexpectedCharacter),
    JSONCase("n_object_unclosed", #"{"a":1"#, .unexpectedEndOfInput),
    JSONCase("n_object_key_without_value", #"{"a"}"#, .unexpectedCharacter),
    JSONCase("n_object_comment", #"{"a":1 /* c */}"#, .unexpectedCharacter),
    JSONCase("n_string_unclosed", #""abc"#, .unexpectedEndOfInput),
    JSONCase("n_string_single_quotes", "'abc'", .unexpectedCharacter),
    JSONCase("n_string_raw_newline", "\"a\nb\"", .controlCharacterInString),
    JSONCase("n_string_raw_tab", "\"a\tb\"", .controlCharacterInString),
    JSONCase("n_string_raw_nul", bytes: [0x22, 0x00, 0x22], .controlCharacterInString),
    JSONCase("n_string_raw_control_after_escape", "\"\\n\u{1F}\"", .controlCharacterInString),
    JSONCase("n_string_invalid_escape", #""\x""#, .invalidEscape),
    JSONCase("n_string_capital_U_escape", #""\U0041""#, .invalidEscape),
    JSONCase("n_string_short_unicode_escape", #""\u12""#, .invalidUnicodeEscape),
    JSONCase("n_string_bad_hex_digit", #""\u12G4""#, .invalidUnicodeEscape),
    JSONCase("n_string_lone_high_surrogate", #""\ud800""#, .loneSurrogate),
    JSONCase("n_string_lone_low_surrogate", #""\udc00""#, .loneSurrogate),
    JSONCase("n_string_high_surrogate_then_letter", #""\ud800\u0041""#, .loneSurrogate),
    JSONCase("n_string_high_surrogate_then_text", #""\ud800abc""#, .loneSurrogate),
    JSONCase("n_string_two_high_surrogates", #""\ud800\ud800""#, .loneSurrogate),
    JSONCase("n_string_backslash_at_end", #""\"#, .unexpectedEndOfInput),
    JSONCase("n_utf8_invalid_byte", bytes: [0x22, 0xFF, 0x22], .invalidUTF8),
    JSONCase("n_utf8_overlong_slash", bytes: [0x22, 0xC0, 0xAF, 0x22], .invalidUTF8),
    JSONCase("n_utf8_overlong_three_bytes", bytes: [0x22, 0xE0, 0x80, 0xAF, 0x22], .invalidUTF8),
    JSONCase("n_utf8_encoded_surrogate", bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], .invalidUTF8),
    JSONCase("n_utf8_truncated_sequence", bytes: [0x22, 0xE6, 0x9D, 0x22], .invalidUTF8),
    JSONCase("n_utf8_beyond_max_scalar", bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], .invalidUTF8),
    JSONCase("n_utf8_lone_continuation", bytes: [0x22, 0x80, 0x22], .invalidUTF8),
    JSONCase("n_utf8_outside_string", bytes: [0x5B, 0xFF, 0x5D], .invalidUTF8),
    JSONCase("n_number_leading_zero", "01", .invalidNumber),
    JSONCase("n_number_negative_leading_zero", "-01", .invalidNumber),
    JSONCase("n_number_plus_sign", "+1", .unexpectedCharacter),
    JSONCase("n_number_leading_dot", ".5", .unexpectedCharacter),
    JSONCase("n_number_trailing_dot", "1.", .unexpectedEndOfInput),
    JSONCase("n_number_dot_then_exponent", "1.e3", .invalidNumber),
    JSONCase("n_number_empty_exponent", "1e", .unexpectedEndOfInput),
    JSONCase("n_number_exponent_sign_only", "[1e+]", .invalidNumber),
    JSONCase("n_number_minus_only", "-", .unexpectedEndOfInput),
    JSONCase("n_number_minus_space", "- 1", .invalidNumber),
    JSONCase("n_number_hex", "0x10", .unexpectedCharacter),
    JSONCase("n_number_infinity", "Infinity", .unexpectedCharacter),
    JSONCase("n_number_negative_infinity", "-Infinity", .invalidNumber),
    JSONCase("n_number_nan", "NaN", .unexpectedCharacter),
    JSONCase("n_number_two_dots", "1.2.3", .unexpectedCharacter),
    JSONCase("n_number_trailing_letter", "1x", .unexpectedCharacter),
    JSONCase("n_literal_capitalized", "True", .unexpectedCharacter),
    JSONCase("n_literal_truncated_true", "tru", .unexpectedEndOfInput),
    JSONCase("n_literal_misspelled_null", "nul1", .unexpectedCharacter),
    JSONCase("n_literal_extra_letter", "nulll", .unexpectedCharacter),
    JSONCase("n_trailing_value", "1 2", .unexpectedCharacter),
    JSONCase("n_trailing_bracket", "[1]]", .unexpectedCharacter),
    JSONCase("n_two_objects", "{} {}", .unexpectedCharacter),
    JSONCase("n_byte_order_mark", bytes: [0xEF, 0xBB, 0xBF, 0x7B, 0x7D], .unexpectedCharacter),
    JSONCase("n_line_comment", "// c\n1", .unexpectedCharacter),
    JSONCase("n_no_break_space", "\u{A0}1", .unexpectedCharacter),
    JSONCase("n_form_feed_whitespace", "\u{0C}1", .unexpectedCharacter),
    JSONCase(
        "n_deep_array_513", String(repeating: "[", count: 513) + String(repeating: "]", count: 513), .nestingTooDeep),
]

@Suite struct JSONConformanceTests {
    @Test(arguments: acceptedCases)
    func acceptsValidDocument(_ testCase: JSONCase) throws {
        // given a valid document
        // when it is parsed and written back
        let value = try JSONReader().parse(testCase.bytes)
        let reparsed = try JSONReader().parse(value.serialized())

        // then the written form reads back as the same value
        #expect(reparsed == value)
    }

    @Test(arguments: rejectedCases)
    func rejectsInvalidDocument(_ testCase: JSONCase) throws {
        // given an invalid document
        // when it is parsed
        let error = #expect(throws: JSONError.self) {
            try JSONReader().parse(testCase.bytes)
        }

        // then the error has the expected kind and a position inside the input
        #expect(error?.kind == testCase.expectedKind)
        #expect((error?.offset ?? -1) <= testCase.bytes.count)
        #expect((error?.line ?? 0) >= 1)
        #expect((error?.column ?? 0) >= 1)
    }

    @Test func suiteIsLargeEnough() {
        #expect(acceptedCases.count + rejectedCases.count >= 100)
    }
}
