import DataConnectWire
import EmulatorTesting
import Testing

@testable import DataConnectEngine

/// Arguments without variables are resolved once per operation (``ArgumentBinding``): a request's resolution is
/// the one resolving every argument for that request gives, and so are its answers.
@Suite(.on(.sqlite)) struct ArgumentBindingTests {
    static let operations = """
        query Lists($genre: Genre, $year: Int, $limit: Int, $titles: [String!], $skip: Boolean = false)
        @auth(level: PUBLIC) {
          fixed: movies(where: {genre: {eq: DRAMA}}, orderBy: [{releaseYear: DESC}, {title: ASC}], limit: 2) {
            title
          }
          mixed: movies(where: {genre: {eq: $genre}, releaseYear: {ge: $year}}, orderBy: {title: ASC}, limit: $limit) {
            title
          }
          listed: movies(where: {title: {in: $titles}}, limit: 5) @skip(if: $skip) { title releaseYear }
          people(orderBy: {name: ASC}) { name movies_on_director(limit: $limit, orderBy: {title: DESC}) { title } }
        }
        """

    @Test(
        arguments: [
            [:],
            ["genre": "COMEDY", "year": 1990, "limit": 3],
            ["genre": nil, "titles": ["Barbie", "Alien"], "skip": true],
            ["limit": nil, "titles": [], "skip": false],
        ] as [JSONObject])
    func aRequestResolvesAsIfEveryArgumentWereResolvedForIt(variables: JSONObject) throws {
        // given an operation whose arguments are literals, variables, and literals holding variables
        let backend = try TestBackend(Self.operations)
        let operation = try #require(backend.engine.operations[TestBackend.connectorID]?["Lists"])
        let coerced = try operation.coercer.coerce(variables)

        // when its arguments are resolved from the bindings found once, and each one for the request
        var bound = ArgumentResolver(kinds: backend.engine.inputKinds, variables: coerced)
        bound.resolve(nodesWithArguments: operation.nodesWithArguments, bindings: operation.argumentBindings)
        var plain = ArgumentResolver(kinds: backend.engine.inputKinds, variables: coerced)
        plain.resolve(nodesWithArguments: operation.nodesWithArguments)

        // then both give the same shape, leaves, skipped nodes and arguments
        #expect(bound.resolution.shape == plain.resolution.shape)
        #expect(bound.resolution.leaves == plain.resolution.leaves)
        #expect(bound.resolution.skipped == plain.resolution.skipped)
        #expect(bound.resolution.arguments.keys.sorted() == plain.resolution.arguments.keys.sorted())
        for (id, arguments) in plain.resolution.arguments {
            let expected = plain.resolution.json(arguments)
            #expect(bound.resolution.arguments[id].map(bound.resolution.json) == expected, "node \(id)")
        }
        // and the operation answers
        try backend.query("Lists", variables).requireOK()
    }

    @Test func onlyArgumentsWithoutVariablesAreResolvedBeforehand() throws {
        // given
        let backend = try TestBackend(Self.operations)
        let operation = try #require(backend.engine.operations[TestBackend.connectorID]?["Lists"])

        // when
        let fixed = operation.nodesWithArguments.map { node in
            operation.argumentBindings[operation.nodesWithArguments.firstIndex { $0 === node }!].compactMap {
                binding -> String? in
                if case .fixed(let name, _) = binding { return "\(node.responseKey).\(name)" }
                return nil
            }
        }.flatMap { $0 }

        // then the literal arguments are fixed, those holding a variable are not
        #expect(fixed.contains("fixed.where") && fixed.contains("fixed.orderBy") && fixed.contains("fixed.limit"))
        #expect(fixed.contains("mixed.orderBy") && !fixed.contains("mixed.where") && !fixed.contains("mixed.limit"))
        #expect(fixed.contains("listed.limit") && !fixed.contains("listed.where"))
    }
}
