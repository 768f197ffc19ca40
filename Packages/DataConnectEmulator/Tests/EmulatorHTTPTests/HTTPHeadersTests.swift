import EmulatorHTTP
import Testing

@Suite struct HTTPHeadersTests {
    @Test func lookupIgnoresCase() {
        // given
        let headers: HTTPHeaders = ["Content-Type": "application/json", "X-Firebase-Auth-Token": "t"]

        // when / then
        #expect(headers["content-type"] == "application/json")
        #expect(headers["X-FIREBASE-AUTH-TOKEN"] == "t")
        #expect(headers["Content-Typ"] == nil)
        #expect(headers.contains(name: "CONTENT-TYPE"))
    }

    @Test func repeatedFieldsKeepTheirOrder() {
        // given
        var headers = HTTPHeaders()

        // when
        headers.add(name: "Set-Cookie", value: "a=1")
        headers.add(name: "Other", value: "x")
        headers.add(name: "set-cookie", value: "b=2")

        // then
        #expect(headers.values(for: "SET-COOKIE") == ["a=1", "b=2"])
        #expect(headers["Set-Cookie"] == "a=1")
        #expect(headers.map(\.name) == ["Set-Cookie", "Other", "set-cookie"])
    }

    @Test func settingAValueReplacesEveryFieldOfThatName() {
        // given
        var headers: HTTPHeaders = ["Accept": "a", "Other": "x", "accept": "b"]

        // when
        headers["ACCEPT"] = "c"

        // then
        #expect(headers.fields == [.init(name: "Accept", value: "c"), .init(name: "Other", value: "x")])

        // when
        headers["accept"] = nil

        // then
        #expect(headers.fields == [.init(name: "Other", value: "x")])
    }

    @Test func jsonHelperSetsContentTypeOnce() {
        // when
        let plain = HTTPResponse.json("{}")
        let custom = HTTPResponse.json("{}", headers: ["content-type": "application/problem+json", "X-A": "1"])

        // then
        #expect(plain.headers.fields == [.init(name: "Content-Type", value: "application/json")])
        #expect(plain.bodyBytes == Array("{}".utf8))
        #expect(custom.headers.values(for: "Content-Type") == ["application/problem+json"])
    }

    @Test func queryValueFindsBareAndMissingParameters() {
        // given
        let request = HTTPRequest(
            method: .get, path: "/x", query: [.init(name: "a", value: "1"), .init(name: "flag", value: nil)])

        // when / then
        #expect(request.queryValue("a") == "1")
        #expect(request.queryValue("flag") == "")
        #expect(request.queryValue("b") == nil)
    }
}
