import Foundation
import Testing

@_spi(Generated) @testable import FirebaseDataConnect

@Suite struct CodecHelperTests {
    struct Movie: Codable, Equatable {
        var id: UUID
        var views: Int64
        var parentID: UUID?
        var budget: Int64?
        var tags: [UUID]
        var counts: [Int64]
        var title: String

        enum CodingKeys: String, CodingKey {
            case id, views, parentID, budget, tags, counts, title
        }

        init(id: UUID, views: Int64, parentID: UUID?, budget: Int64?, tags: [UUID], counts: [Int64], title: String) {
            self.id = id
            self.views = views
            self.parentID = parentID
            self.budget = budget
            self.tags = tags
            self.counts = counts
            self.title = title
        }

        init(from decoder: any Decoder) throws {
            var container = try decoder.container(keyedBy: CodingKeys.self)
            let helper = CodecHelper<CodingKeys>()
            id = try helper.decode(UUID.self, forKey: .id, container: &container)
            views = try helper.decode(Int64.self, forKey: .views, container: &container)
            parentID = try helper.decode(UUID?.self, forKey: .parentID, container: &container)
            budget = try helper.decode(Int64?.self, forKey: .budget, container: &container)
            tags = try helper.decode([UUID].self, forKey: .tags, container: &container)
            counts = try helper.decode([Int64].self, forKey: .counts, container: &container)
            title = try helper.decode(String.self, forKey: .title, container: &container)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            let helper = CodecHelper<CodingKeys>()
            try helper.encode(id, forKey: .id, container: &container)
            try helper.encode(views, forKey: .views, container: &container)
            try helper.encode(parentID, forKey: .parentID, container: &container)
            try helper.encode(budget, forKey: .budget, container: &container)
            try helper.encode(tags, forKey: .tags, container: &container)
            try helper.encode(counts, forKey: .counts, container: &container)
            try helper.encode(title, forKey: .title, container: &container)
        }
    }

    static let uuid = UUID(uuidString: "0F8FAD5B-D9CB-469F-A165-70867728950E")!

    private func decodeMovie(_ json: String) throws -> Movie {
        try JSONDecoder().decode(Movie.self, from: Data(json.utf8))
    }

    @Test func encodesUUIDDashlessLowercaseAndInt64AsString() throws {
        // given
        let movie = Movie(
            id: Self.uuid, views: 9_007_199_254_740_993, parentID: nil, budget: -5, tags: [Self.uuid],
            counts: [1, Int64.max], title: "Alien"
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys

        // when
        let text = String(decoding: try encoder.encode(movie), as: UTF8.self)

        // then
        #expect(
            text == #"{"budget":"-5","counts":["1","9223372036854775807"],"id":"0f8fad5bd9cb469fa16570867728950e","#
                + #""parentID":null,"tags":["0f8fad5bd9cb469fa16570867728950e"],"title":"Alien","#
                + #""views":"9007199254740993"}"#
        )
        #expect(try decodeMovie(text) == movie)
    }

    @Test(arguments: [
        "0f8fad5bd9cb469fa16570867728950e", "0F8FAD5BD9CB469FA16570867728950E",
        "0f8fad5b-d9cb-469f-a165-70867728950e", "{0F8FAD5B-D9CB-469F-A165-70867728950E}",
        "{0f8fad5bd9cb469fa16570867728950e}",
    ])
    func acceptsUUIDForms(text: String) throws {
        // when
        let uuid = try CodecHelper<Movie.CodingKeys>.uuid(from: text)

        // then
        #expect(uuid == Self.uuid)
    }

    @Test(arguments: [
        "", "0f8fad5b", "0f8fad5bd9cb469fa16570867728950", "0f8fad5bd9cb469fa16570867728950e0",
        "0f8fad5b-d9cb-469f-a165-70867728950", "0f8fad5bd-9cb-469f-a165-70867728950e",
        "zf8fad5bd9cb469fa16570867728950e", "0f8fad5b_d9cb_469f_a165_70867728950e", "{0f8fad5bd9cb469fa16570867728950e",
        "０f8fad5bd9cb469fa16570867728950e",
    ])
    func throwsOnBadUUIDWithoutCrashing(text: String) {
        // when / then
        #expect {
            _ = try decodeMovie(#"{"id":"\#(text)","views":"1","tags":[],"counts":[],"title":""}"#)
        } throws: { error in
            (error as? DataConnectCodecError)?.code == .invalidUUID
        }
    }

    @Test func acceptsInt64AsStringOrInteger() throws {
        // given
        let json =
            #"{"id":"0f8fad5bd9cb469fa16570867728950e","views":42,"budget":"-9223372036854775808","#
            + #""tags":[],"counts":[1,2],"title":""}"#

        // when
        let movie = try decodeMovie(json)

        // then
        #expect(movie.views == 42)
        #expect(movie.budget == Int64.min)
        #expect(movie.parentID == nil)
        #expect(movie.counts == [1, 2])
    }

    @Test(arguments: [#""12x""#, #""""#, #""9223372036854775808""#, "1.5", "true"])
    func throwsDecodingFailedForBadInt64(views: String) {
        // when / then
        #expect {
            _ = try decodeMovie(
                #"{"id":"0f8fad5bd9cb469fa16570867728950e","views":\#(views),"tags":[],"counts":[],"title":""}"#)
        } throws: { error in
            (error as? DataConnectCodecError)?.code == .decodingFailed
        }
    }

    @Test func skipsUnsetOptionalVariables() throws {
        // given
        struct Variables: Encodable {
            enum CodingKeys: String, CodingKey { case id, limit, after }
            @OptionalVariable var id: UUID?
            @OptionalVariable var limit: Int64?
            @OptionalVariable var after: String?

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                let helper = CodecHelper<CodingKeys>()
                try helper.encode($id, forKey: .id, container: &container)
                try helper.encode($limit, forKey: .limit, container: &container)
                try helper.encode($after, forKey: .after, container: &container)
            }
        }
        var variables = Variables()
        variables.id = CodecHelperTests.uuid
        variables.limit = nil
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys

        // when
        let text = String(decoding: try encoder.encode(variables), as: UTF8.self)

        // then
        #expect(text == #"{"id":"0f8fad5bd9cb469fa16570867728950e","limit":null}"#)
    }
}
