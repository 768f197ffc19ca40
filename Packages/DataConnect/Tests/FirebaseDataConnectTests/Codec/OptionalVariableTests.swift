import Foundation
import Testing

@testable import FirebaseDataConnect

@Suite struct OptionalVariableTests {
    struct Variables: Encodable {
        @OptionalVariable var genre: String?
        @OptionalVariable var rating: Double?
        var title: String
    }

    private func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func omitsUnsetVariables() throws {
        // given
        let variables = Variables(title: "Alien")

        // when
        let text = try json(variables)

        // then
        #expect(text == #"{"title":"Alien"}"#)
        #expect(!variables.$genre.isSet)
    }

    @Test func writesExplicitNullAsNull() throws {
        // given
        var variables = Variables(title: "Alien")

        // when
        variables.genre = nil

        // then
        #expect(variables.$genre.isSet)
        #expect(try json(variables) == #"{"genre":null,"title":"Alien"}"#)
    }

    @Test func writesValues() throws {
        // given
        var variables = Variables(title: "Alien")

        // when
        variables.genre = "horror"
        variables.rating = 8.5

        // then
        #expect(try json(variables) == #"{"genre":"horror","rating":8.5,"title":"Alien"}"#)
    }

    @Test func startsSetWhenInitializedWithAValue() {
        // when
        let variable = OptionalVariable(wrappedValue: 3)

        // then
        #expect(variable.isSet)
        #expect(variable.wrappedValue == 3)
        #expect(!OptionalVariable<Int>().isSet)
    }
}
