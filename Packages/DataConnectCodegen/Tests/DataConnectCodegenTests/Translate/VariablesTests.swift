import DataConnectCodegen
import Testing

/// Required variables are labelled parameters; nullable ones go through the builder closure.
@Suite struct VariablesTests {
    static let operation = """
        query searchRecipes($minMinutes: Int!, $title: String, $cuisine: Cuisine, $chef: Chef_Key) {
          recipes(where: {minutes: {ge: $minMinutes}, title: {eq: $title}, cuisine: {eq: $cuisine}}) { title }
          chef(key: $chef) { name }
        }
        """

    @Test func refTakesRequiredVariablesThenTheBuilder() throws {
        let operations = try generate(operations: Self.operation).operations
        #expect(
            declaration("public func ref(", in: operations, headerOnly: true)
                == "public func ref(minMinutes: Int, "
                + "_ optionalVars: ((inout SearchRecipesQuery.Variables) -> Void)? = nil)"
                + " -> QueryRefObservation<SearchRecipesQuery.Data, SearchRecipesQuery.Variables> {")
    }

    @Test func executeTakesFetchPolicyFirst() throws {
        let operations = try generate(operations: Self.operation).operations
        #expect(
            declaration("public func execute(", in: operations) == """
                public func execute(fetchPolicy: QueryFetchPolicy = .preferCache, minMinutes: Int, \
                _ optionalVars: ((inout SearchRecipesQuery.Variables) -> Void)? = nil) \
                async throws -> OperationResult<SearchRecipesQuery.Data> {
                    return try await self.ref(minMinutes: minMinutes, optionalVars).execute(fetchPolicy: fetchPolicy)
                }
                """)
    }

    @Test func variablesStructEncodesNullableOnlyWhenSet() throws {
        let operations = try generate(operations: Self.operation).operations
        #expect(
            declaration("public struct Variables", in: operations) == """
                public struct Variables: Encodable, Hashable, Sendable {
                    public var minMinutes: Int
                    @OptionalVariable
                    public var title: String?
                    @OptionalVariable
                    public var cuisine: Cuisine?
                    @OptionalVariable
                    public var chef: ChefKey?

                    public init(minMinutes: Int) {
                        self.minMinutes = minMinutes
                    }

                    public static func == (lhs: Variables, rhs: Variables) -> Bool {
                        lhs.minMinutes == rhs.minMinutes && lhs.$title == rhs.$title && lhs.$cuisine == rhs.$cuisine \
                && lhs.$chef == rhs.$chef
                    }

                    public func hash(into hasher: inout Hasher) {
                        hasher.combine(minMinutes)
                        hasher.combine($title)
                        hasher.combine($cuisine)
                        hasher.combine($chef)
                    }

                    enum CodingKeys: String, CodingKey {
                        case minMinutes
                        case title
                        case cuisine
                        case chef
                    }

                    public func encode(to encoder: any Encoder) throws {
                        var container = encoder.container(keyedBy: CodingKeys.self)
                        let codecHelper = CodecHelper<CodingKeys>()
                        try codecHelper.encode(minMinutes, forKey: .minMinutes, container: &container)
                        if $title.isSet {
                            try codecHelper.encode($title, forKey: .title, container: &container)
                        }
                        if $cuisine.isSet {
                            try codecHelper.encode($cuisine, forKey: .cuisine, container: &container)
                        }
                        if $chef.isSet {
                            try codecHelper.encode($chef, forKey: .chef, container: &container)
                        }
                    }
                }
                """)
    }

    @Test func noVariablesMeansEmptyStructAndNoArguments() throws {
        let operations = try generate(operations: "query listChefs { chefs { name } }").operations
        #expect(operations.contains("    public struct Variables: Encodable, Hashable, Sendable {}\n"))
        #expect(
            declaration("public func ref(", in: operations)
                == """
                public func ref() -> QueryRefObservation<ListChefsQuery.Data, ListChefsQuery.Variables> {
                    let variables = ListChefsQuery.Variables()
                    return dataConnect.query(name: ListChefsQuery.OperationName, variables: variables, \
                resultsDataType: ListChefsQuery.Data.self, publisher: .observableMacro)
                }
                """)
        #expect(
            declaration("public func execute(", in: operations, headerOnly: true)
                == "public func execute(fetchPolicy: QueryFetchPolicy = .preferCache) async throws"
                + " -> OperationResult<ListChefsQuery.Data> {")
    }

    @Test func mutationRefAndExecuteHaveNoFetchPolicy() throws {
        let operations = try generate(
            operations: """
                mutation addChef($name: String!, $born: Date) { chef_insert(data: {name: $name, born: $born}) }
                """
        ).operations
        #expect(
            declaration("public func ref(", in: operations) == """
                public func ref(name: String, _ optionalVars: ((inout AddChefMutation.Variables) -> Void)? = nil) \
                -> MutationRef<AddChefMutation.Data, AddChefMutation.Variables> {
                    var variables = AddChefMutation.Variables(name: name)
                    if let optionalVars {
                        optionalVars(&variables)
                    }
                    return dataConnect.mutation(name: AddChefMutation.OperationName, variables: variables, \
                resultsDataType: AddChefMutation.Data.self)
                }
                """)
        #expect(
            declaration("public func execute(", in: operations, headerOnly: true)
                == "public func execute(name: String, "
                + "_ optionalVars: ((inout AddChefMutation.Variables) -> Void)? = nil)"
                + " async throws -> OperationResult<AddChefMutation.Data> {")
    }

    @Test func scalarTableForVariables() throws {
        let operations = try generate(
            operations: """
                query typed($s: String!, $i: Int!, $f: Float!, $b: Boolean!, $u: UUID!, $d: Date!, $t: Timestamp!,
                            $l: Int64!, $a: Any!, $list: [String!]!, $mins: [Int!]) {
                  recipes(where: {title: {eq: $s}, minutes: {eq: $i}, rating: {eq: $f}, vegan: {eq: $b}, id: {eq: $u},
                                  published: {eq: $t}, views: {eq: $l}, extra: {eq: $a}}) { title }
                  chefs(where: {born: {eq: $d}, name: {in: $list}}) { name }
                  more: recipes(where: {minutes: {in: $mins}}) { title }
                }
                """
        ).operations
        let variables = try #require(declaration("public struct Variables", in: operations))
        #expect(
            variables.split(separator: "\n").filter { $0.hasPrefix("    public var") }.map(String.init) == [
                "    public var s: String", "    public var i: Int", "    public var f: Double",
                "    public var b: Bool", "    public var u: UUID", "    public var d: LocalDate",
                "    public var t: Timestamp", "    public var l: Int64", "    public var a: AnyValue",
                "    public var list: [String]", "    public var mins: [Int]?",
            ])
    }

    @Test func keyInputBecomesKeyStruct() throws {
        let operations = try generate(
            operations: """
                query getRecipe($key: Recipe_Key!) { recipe(key: $key) { title } }
                """
        ).operations
        #expect(operations.contains("        public var key: RecipeKey\n"))
        #expect(
            declaration("public func ref(", in: operations, headerOnly: true)
                == "public func ref(key: RecipeKey) "
                + "-> QueryRefObservation<GetRecipeQuery.Data, GetRecipeQuery.Variables> {"
        )
    }
}
