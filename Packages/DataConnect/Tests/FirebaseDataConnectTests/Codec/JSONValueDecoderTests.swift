import DataConnectWire
import Foundation
import Testing

@testable import FirebaseDataConnect

@Suite struct JSONValueDecoderTests {
    struct Movie: Decodable, Equatable {
        struct Actor: Decodable, Equatable {
            let name: String
        }
        let id: UUID
        let title: String
        let year: Int?
        let rating: Double
        let budget: Int64
        let tags: [String]
        let actors: [Actor]
        let director: Actor?
    }

    @Test func decodesNestedObjectsListsAndOptionals() throws {
        // given
        let json = try JSONValue(
            parsing:
                #"{"id":"0b6f3c2e9d8a4f51a2c7e4b1d0f9a8c3","title":"Alien","year":null,"rating":4.5,"budget":"11000000","tags":["space"],"actors":[{"name":"Sigourney Weaver"}]}"#
        )
        // when
        let movie = try JSONValueDecoder().decode(Movie.self, from: json)
        // then
        #expect(movie.id == UUID(uuidString: "0B6F3C2E-9D8A-4F51-A2C7-E4B1D0F9A8C3"))
        #expect(movie.year == nil)
        #expect(movie.budget == 11_000_000)
        #expect(movie.actors == [Movie.Actor(name: "Sigourney Weaver")])
        #expect(movie.director == nil)
    }

    @Test func matchesJSONDecoderOnStandardTypes() throws {
        // given
        let text = #"{"a":[1,2,3],"b":{"c":true,"d":"x"},"e":2.25}"#
        struct Shape: Decodable, Equatable {
            struct Inner: Decodable, Equatable {
                let c: Bool
                let d: String
            }
            let a: [Int]
            let b: Inner
            let e: Double
        }
        // when
        let ours = try JSONValueDecoder().decode(Shape.self, from: JSONValue(parsing: text))
        let foundation = try JSONDecoder().decode(Shape.self, from: Data(text.utf8))
        // then
        #expect(ours == foundation)
    }

    @Test(arguments: [
        #"{"id":"not-a-uuid"}"#, #"{"id":12}"#, #"{}"#, #"{"id":"0b6f3c2e9d8a4f51a2c7e4b1d0f9a8c"}"#,
    ])
    func throwsOnBadInput(_ text: String) throws {
        struct Row: Decodable { let id: UUID }
        #expect(throws: DecodingError.self) {
            try JSONValueDecoder().decode(Row.self, from: JSONValue(parsing: text))
        }
    }

    @Test func rejectsIntegersThatDoNotFit() throws {
        struct Small: Decodable { let value: Int8 }
        #expect(throws: DecodingError.self) {
            try JSONValueDecoder().decode(Small.self, from: JSONValue(parsing: #"{"value":300}"#))
        }
    }
}
