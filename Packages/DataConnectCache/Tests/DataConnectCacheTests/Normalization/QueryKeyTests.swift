import DataConnectCache
import DataConnectWire
import Testing

@Suite struct QueryKeyTests {
    @Test func ignoresVariableKeyOrder() {
        // given the same variables in two orders
        let first = QueryKey(operationName: "ListMovies", variables: ["limit": 10, "genre": "sci-fi"])
        let second = QueryKey(operationName: "ListMovies", variables: ["genre": "sci-fi", "limit": 10])

        // then the keys are equal, hash alike and share their id
        #expect(first == second)
        #expect(Set([first, second]).count == 1)
        #expect(first.id == #"ListMovies{"genre":"sci-fi","limit":10}"#)
    }

    @Test func sortsNestedKeysAndNormalizesNumbers() {
        // given nested variables with numbers written differently
        let first = QueryKey(operationName: "Q", variables: ["where": ["b": 1.0, "a": ["z": true, "y": nil]]])
        let second = QueryKey(operationName: "Q", variables: ["where": ["a": ["y": nil, "z": true], "b": 1]])

        // then they are the same key
        #expect(first == second)
        #expect(first.id == #"Q{"where":{"a":{"y":null,"z":true},"b":1}}"#)
    }

    @Test func distinguishesNamesAndValues() {
        // given keys differing in name or in one value
        let base = QueryKey(operationName: "GetMovie", variables: ["id": "m1"])
        let otherValue = QueryKey(operationName: "GetMovie", variables: ["id": "m2"])
        let otherName = QueryKey(operationName: "GetMovieDetails", variables: ["id": "m1"])
        let noVariables = QueryKey(operationName: "GetMovie")

        // then none is equal to another
        #expect(Set([base, otherValue, otherName, noVariables]).count == 4)
        #expect(noVariables.id == "GetMovie{}")
    }
}
