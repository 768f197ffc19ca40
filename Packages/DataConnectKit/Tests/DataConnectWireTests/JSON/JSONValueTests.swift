import DataConnectWire
import Testing

@Suite struct JSONValueTests {
    @Test func buildsFromLiterals() {
        // given a value written as Swift literals
        let value: JSONValue = [
            "name": "Alien", "year": 1979, "rating": 8.5, "seen": true, "sequel": nil,
            "cast": ["Sigourney Weaver"],
        ]

        // then each member has the matching case, in literal order
        #expect(value["name"]?.stringValue == "Alien")
        #expect(value["year"]?.intValue == 1979)
        #expect(value["rating"]?.doubleValue == 8.5)
        #expect(value["seen"]?.boolValue == true)
        #expect(value["sequel"]?.isNull == true)
        #expect(value["cast"]?.arrayValue?.count == 1)
        #expect(value.objectValue?.keys == ["name", "year", "rating", "seen", "sequel", "cast"])
        #expect(
            value.description
                == #"{"name":"Alien","year":1979,"rating":8.5,"seen":true,"sequel":null,"cast":["Sigourney Weaver"]}"#)
    }

    @Test func subscriptsAreSafe() {
        // given values of each shape
        let array: JSONValue = [1, 2]
        let string: JSONValue = "x"

        // then out-of-range and wrong-shape lookups give nil
        #expect(array[2] == nil)
        #expect(array[-1] == nil)
        #expect(array["key"] == nil)
        #expect(string[0] == nil)
        #expect(string["key"] == nil)
        #expect(string.intValue == nil)
    }

    @Test func objectEqualityIgnoresOrder() {
        // given the same members in two orders
        let first: JSONObject = ["a": 1, "b": [true]]
        let second: JSONObject = ["b": [true], "a": 1]

        // then the objects are equal, hash alike, but keep their own order
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(!first.elementsEqual(second) { $0.key == $1.key && $0.value == $1.value })
        #expect(first != ["a": 1, "b": [false]])
        #expect(first != ["a": 1])
    }

    @Test func objectMutationKeepsPositions() {
        // given an object
        var object: JSONObject = ["a": 1, "b": 2, "c": 3]

        // when a member is replaced, one removed and one added
        object["b"] = 20
        object["a"] = nil
        object["d"] = 4

        // then replaced keys stay in place and new ones go last
        #expect(object.keys == ["b", "c", "d"])
        #expect(object["b"] == 20)
        #expect(object.contains(key: "a") == false)
        #expect(object.removeValue(forKey: "c") == 3)
        #expect(object.count == 2)
    }

    @Test func largeObjectsUseTheIndex() throws {
        // given an object with far more members than the linear-scan threshold, some repeated
        var text = "{"
        for index in 0..<200 {
            text += "\"k\(index)\":\(index),"
        }
        text += #""k5":"last"}"#

        // when parsed and edited
        var object = try #require(try JSONValue(parsing: text).objectValue)
        object["k150"] = nil
        object["new"] = true

        // then lookups, replacement order and removal all hold
        #expect(object.count == 200)
        #expect(object["k5"] == "last")
        #expect(object.position(of: "k5") == 5)
        #expect(object["k199"] == 199)
        #expect(object["k150"] == nil)
        #expect(object.keys.last == "new")
        #expect(object.position(of: "k151") == 150)
    }

    @Test func valuesWorkInSets() throws {
        // given equal values built differently
        let parsed = try JSONValue(parsing: #"{"b":[1.0],"a":"x"}"#)
        let built: JSONValue = ["a": "x", "b": [1]]

        // when put in a set
        let set: Set<JSONValue> = [parsed, built, "other"]

        // then equal values collapse
        #expect(set.count == 2)
    }
}
