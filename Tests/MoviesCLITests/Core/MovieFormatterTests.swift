import Foundation
import MoviesCLICore
import MoviesModels
import Testing

@Suite struct MovieFormatterTests {
    let amelie = MovieRow(
        id: "32266d5d-3fa2-5999-9072-0e74c4e1ec42", title: "Amélie", genre: "Comedy", releaseYear: 2001, rating: 5,
        aspectratio: "ANAMORPHIC")
    let spirited = MovieRow(
        id: "d95085ef-026f-508a-acdf-b6c6b5bab91e", title: "千と千尋の神隠し", genre: "Animation", releaseYear: 2001,
        rating: 5, aspectratio: "WIDESCREEN")

    @Test func listsMoviesAsAnAlignedTable() {
        // given / when
        let text = MovieFormatter.list([amelie, spirited], style: .plain)

        // then
        #expect(
            text == """
                ID                                    TITLE             YEAR  GENRE      RATING  ASPECT
                32266d5d-3fa2-5999-9072-0e74c4e1ec42  Amélie            2001  Comedy          5  ANAMORPHIC
                d95085ef-026f-508a-acdf-b6c6b5bab91e  千と千尋の神隠し  2001  Animation       5  WIDESCREEN

                """)
    }

    @Test func saysSoWhenThereIsNothingToList() {
        #expect(MovieFormatter.list([], style: .plain) == "No movies.\n")
        #expect(MovieFormatter.favorites([], style: .plain).hasPrefix("No favorites yet"))
    }

    @Test func listsFavoritesWithTheDayAdded() {
        // given
        let favorite = FavoriteRow(addedAt: "2024-05-01T12:00:00Z", movie: spirited)

        // when
        let text = MovieFormatter.favorites([favorite], style: .plain)

        // then
        #expect(text.contains("千と千尋の神隠し  2001  Animation  2024-05-01"))
    }

    @Test func showsDetailsWithDirectorCastReviewsAndStats() {
        // given
        let movie = MovieDetails(
            id: amelie.id, title: "Amélie", releaseYear: 2001, genre: "Comedy", rating: 5, aspectratio: "ANAMORPHIC",
            description: "A shy waitress helps others.", tags: ["paris"],
            director: .init(id: "d", name: "Jean-Pierre Jeunet"),
            cast: [
                .init(id: "a", name: "Audrey Tautou", role: "main"),
                .init(id: "b", name: "Mathieu Kassovitz", role: "supporting"),
            ],
            reviews: [.init(rating: 5, text: "Charming", reviewDate: "2024-06-01", username: "hana")],
            stats: .init(reviewCount: 2, averageRating: 4.5, favoriteCount: 1))

        // when
        let text = MovieFormatter.details(movie, style: .plain)

        // then
        #expect(text.hasPrefix("Amélie (2001)\nA shy waitress helps others.\n"))
        #expect(text.contains("Director:   Jean-Pierre Jeunet\n"))
        #expect(text.contains("Reviews:    2 reviews, average 4.5/5\n"))
        #expect(text.contains("Favorites:  1\n"))
        #expect(text.contains("  Audrey Tautou      main\n  Mathieu Kassovitz  supporting\n"))
        #expect(text.contains("  2024-06-01  5/5  hana: Charming\n"))
    }

    @Test func describesChangesOnOneLineEach() {
        // given
        var rerated = amelie
        rerated.rating = 4

        // when / then
        #expect(
            MovieFormatter.change(.added(amelie), style: .plain)
                == "+ 32266d5d-3fa2-5999-9072-0e74c4e1ec42  Amélie (2001, Comedy, rating 5)\n")
        #expect(MovieFormatter.change(.removed(amelie), style: .plain).hasPrefix("- 32266d5d"))
        #expect(
            MovieFormatter.change(.changed(old: amelie, new: rerated), style: .plain)
                == "~ 32266d5d-3fa2-5999-9072-0e74c4e1ec42  Amélie: rating 5 -> 4\n")
    }

    @Test func printsWhoIsSignedInWithProviderAndClaims() {
        // given
        let user = SignedInUser(
            uid: "uid-a", email: "a@example.com", displayName: "alice", isEmailVerified: false,
            signInProvider: "password", claims: ["critic": .bool(true), "level": .integer(3)])
        let anonymous = SignedInUser(
            uid: "uid-b", email: nil, displayName: nil, isEmailVerified: false, signInProvider: "anonymous",
            claims: [:])

        // when / then
        #expect(
            MovieFormatter.whoami(user) == """
                Signed in as alice (uid uid-a, a@example.com)
                  email verified:  no
                  provider:        password
                  claims:          critic=true level=3

                """)
        #expect(MovieFormatter.signedIn(anonymous) == "Signed in as uid-b (uid uid-b)\n")
        #expect(MovieFormatter.whoami(anonymous).hasSuffix("  claims:          none\n"))
    }

    @Test func whoamiJSONNamesTheFieldsAndKeepsClaimTypes() throws {
        // given
        let user = SignedInUser(
            uid: "uid-a", email: "a@example.com", displayName: nil, isEmailVerified: true, signInProvider: "password",
            claims: ["critic": .bool(true), "tags": .array([.string("a")]), "score": .number(1.5)])

        // when
        let json = JSONOutput.line(["user": user])

        // then
        #expect(
            json == #"{"user":{"claims":{"critic":true,"score":1.5,"tags":["a"]},"email":"a@example.com","#
                + #""emailVerified":true,"signInProvider":"password","uid":"uid-a"}}"# + "\n")
    }
}

@Suite struct SignedInUserTests {
    @Test func customClaimsLeaveOutTheStandardOnes() {
        // given: the payload of an emulator ID token, as JSONSerialization decodes it
        let payload =
            try? JSONSerialization.jsonObject(
                with: Data(
                    #"""
                    {"iss":"https://securetoken.google.com/demo-project","aud":"demo-project","auth_time":1,
                     "user_id":"u","sub":"u","iat":1,"exp":2,"email":"a@example.com","email_verified":false,
                     "firebase":{"identities":{},"sign_in_provider":"password"},
                     "critic":true,"level":3,"ratio":0.5,"role":"editor","teams":["a"],"extra":{"x":null}}
                    """#.utf8)) as? [String: Any]

        // when
        let claims = SignedInUser.customClaims(from: payload ?? [:])

        // then
        #expect(
            claims == [
                "critic": .bool(true), "level": .integer(3), "ratio": .number(0.5), "role": .string("editor"),
                "teams": .array([.string("a")]), "extra": .object(["x": .null]),
            ])
    }
}

@Suite struct JSONOutputTests {
    @Test func rendersPrettySortedParseableJSON() throws {
        // given
        let row = MovieRow(id: "1", title: "千と千尋 / Spirited", genre: nil, releaseYear: 2001, rating: 5)

        // when
        let text = JSONOutput.render(["movies": [row]])

        // then
        #expect(
            text == """
                {
                  "movies" : [
                    {
                      "id" : "1",
                      "rating" : 5,
                      "releaseYear" : 2001,
                      "title" : "千と千尋 / Spirited"
                    }
                  ]
                }

                """)
        let decoded = try JSONDecoder().decode([String: [MovieRow]].self, from: Data(text.utf8))
        #expect(decoded["movies"] == [row])
    }

    @Test func encodesChangesAsJSONLines() throws {
        // given
        let old = MovieRow(id: "1", title: "A", rating: 3)
        let new = MovieRow(id: "1", title: "A", rating: 4)

        // when
        let line = JSONOutput.line(MovieChange.changed(old: old, new: new))

        // then
        #expect(!line.dropLast().contains("\n"))
        #expect(line.hasSuffix("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["change"] as? String == "changed")
        #expect((object["movie"] as? [String: Any])?["rating"] as? Int == 4)
        #expect((object["previous"] as? [String: Any])?["rating"] as? Int == 3)
    }
}

@Suite struct MoviesFailureTests {
    @Test func mapsEachFailureToItsExitStatusAndOneLine() {
        #expect(MoviesFailure.usage(UsageError("bad", topic: .list)).exitStatus == .usage)
        #expect(
            MoviesFailure.usage(UsageError("bad", topic: .list)).line == "movies: error: bad (see movies list --help)")
        #expect(MoviesFailure.notFound("no movie").exitStatus.rawValue == 1)
        #expect(MoviesFailure.operationFailed("boom").exitStatus.rawValue == 1)
        #expect(MoviesFailure.emulatorUnreachable(.standard).exitStatus.rawValue == 3)
        #expect(
            MoviesFailure.emulatorUnreachable(.standard).line.hasPrefix(
                "movies: error: emulator unreachable at 127.0.0.1:9399"))
        #expect(MoviesFailure.notSignedIn.exitStatus.rawValue == 4)
        #expect(MoviesFailure.permissionDenied("no").exitStatus.rawValue == 4)
        #expect(MoviesFailure.operationFailed("two\nlines").line == "movies: error: two lines")
    }
}
