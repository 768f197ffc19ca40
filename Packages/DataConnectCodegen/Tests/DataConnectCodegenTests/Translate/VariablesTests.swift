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

    @Test func refBuildsTheVariablesWithTheBuilderAndSharesTheRefWithExecute() throws {
        let operations = try generate(operations: Self.operation).operations
        #expect(
            declaration("public func ref(", in: operations) == """
                public func ref(minMinutes: Int, _ optionalVars: ((inout SearchRecipesQuery.Variables) -> Void)? = nil) \
                -> QueryRefObservation<SearchRecipesQuery.Data, SearchRecipesQuery.Variables> {
                    return ref(for: SearchRecipesQuery.Variables(minMinutes: minMinutes, optionalVars))
                }
                """)
        #expect(
            declaration("func ref(for", in: operations) == """
                func ref(for variables: SearchRecipesQuery.Variables) \
                -> QueryRefObservation<SearchRecipesQuery.Data, SearchRecipesQuery.Variables> {
                    return dataConnect.query(name: SearchRecipesQuery.OperationName, variables: variables, \
                resultsDataType: SearchRecipesQuery.Data.self)
                }
                """)
    }

    @Test func executeIsMainActorWithAMainActorBuilderAndTakesFetchPolicyFirst() throws {
        let operations = try generate(operations: Self.operation).operations
        #expect(
            operations.contains(
                """
                    /// Runs the query once and returns its result.
                    @MainActor
                    public func execute(fetchPolicy: QueryFetchPolicy = .preferCache, minMinutes: Int, \
                _ optionalVars: (@MainActor (inout SearchRecipesQuery.Variables) -> Void)? = nil) \
                async throws -> OperationResult<SearchRecipesQuery.Data> {
                        var variables = SearchRecipesQuery.Variables(minMinutes: minMinutes)
                        if let optionalVars {
                            optionalVars(&variables)
                        }
                        return try await ref(for: variables).execute(fetchPolicy: fetchPolicy)
                    }

                """))
    }

    @Test func observableObjectPublisherReturnsQueryRefObservableObject() throws {
        let sdk = """
            outputDir: ../gen
                package: KitchenSDK
                observablePublisher: observableObject
            """
        let operations = try generate(operations: Self.operation, swiftSdk: sdk).operations
        let refType = "QueryRefObservableObject<SearchRecipesQuery.Data, SearchRecipesQuery.Variables>"
        #expect(operations.contains("    public typealias Ref = \(refType)\n"))
        #expect(
            declaration("func ref(for", in: operations) == """
                func ref(for variables: SearchRecipesQuery.Variables) -> \(refType) {
                    let ref = dataConnect.query(name: SearchRecipesQuery.OperationName, variables: variables, \
                resultsDataType: SearchRecipesQuery.Data.self, publisher: .observableObject)
                    return ref as! \(refType)
                }
                """)
    }

    @Test func variablesStructEncodesNullableOnlyWhenSet() throws {
        let operations = try generate(operations: Self.operation).operations
        #expect(
            declaration("public struct Variables", in: operations) == """
                public struct Variables: OperationVariable {
                    public var minMinutes: Int
                    @OptionalVariable
                    public var title: String?
                    @OptionalVariable
                    public var cuisine: Cuisine?
                    @OptionalVariable
                    public var chef: ChefKey?

                    public init(minMinutes: Int, _ optionalVars: ((inout Variables) -> Void)? = nil) {
                        self.minMinutes = minMinutes
                        if let optionalVars {
                            optionalVars(&self)
                        }
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

    @Test func onlyNullableVariablesMeansAnInitWithTheBuilderAlone() throws {
        let operations = try generate(
            operations: "query findChefs($name: String) { chefs(where: {name: {eq: $name}}) { name } }"
        ).operations
        #expect(
            declaration("public init(_", in: operations) == """
                public init(_ optionalVars: ((inout Variables) -> Void)? = nil) {
                    if let optionalVars {
                        optionalVars(&self)
                    }
                }
                """)
        #expect(
            declaration("public func ref(", in: operations, headerOnly: true)
                == "public func ref(_ optionalVars: ((inout FindChefsQuery.Variables) -> Void)? = nil)"
                + " -> QueryRefObservation<FindChefsQuery.Data, FindChefsQuery.Variables> {")
        #expect(operations.contains("        return ref(for: FindChefsQuery.Variables(optionalVars))\n"))
    }

    @Test func noVariablesMeansEmptyStructAndNoArguments() throws {
        let operations = try generate(operations: "query listChefs { chefs { name } }").operations
        #expect(operations.contains("    public struct Variables: OperationVariable {}\n"))
        #expect(
            declaration("public func ref(", in: operations)
                == """
                public func ref() -> QueryRefObservation<ListChefsQuery.Data, ListChefsQuery.Variables> {
                    return ref(for: ListChefsQuery.Variables())
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
                    return ref(for: AddChefMutation.Variables(name: name, optionalVars))
                }
                """)
        #expect(
            declaration("func ref(for", in: operations) == """
                func ref(for variables: AddChefMutation.Variables) \
                -> MutationRef<AddChefMutation.Data, AddChefMutation.Variables> {
                    return dataConnect.mutation(name: AddChefMutation.OperationName, variables: variables, \
                resultsDataType: AddChefMutation.Data.self)
                }
                """)
        #expect(
            declaration("public func execute(", in: operations) == """
                public func execute(name: String, \
                _ optionalVars: (@MainActor (inout AddChefMutation.Variables) -> Void)? = nil) \
                async throws -> OperationResult<AddChefMutation.Data> {
                    var variables = AddChefMutation.Variables(name: name)
                    if let optionalVars {
                        optionalVars(&variables)
                    }
                    return try await ref(for: variables).execute()
                }
                """)
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

    @Test func aDataVariableCarriesVectorEmbedWithAStringModel() throws {
        let schema = kitchenSchema + "\ntype Note @table { text: String!, embedding: Vector @col(size: 768) }\n"
        let operations = try generate(
            schema: schema, operations: "mutation addNote($data: Note_Data!) { note_insert(data: $data) }"
        ).operations
        #expect(operations.contains("public var embedding_embed: Vector_Embed?"), "\(operations)")
        #expect(
            declaration("public init(model:", in: operations, headerOnly: true)
                == "public init(model: String, text: String) {")
    }
}
