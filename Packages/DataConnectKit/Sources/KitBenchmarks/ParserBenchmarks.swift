import GraphQLLanguage

/// Throughput of the GraphQL lexer, parser and printer on a large generated document.
///
/// The document mixes schema definitions (types with descriptions, directives and arguments,
/// enums, inputs, unions, directive definitions, extensions) with operations and fragments
/// (variables, arguments with nested object and list values, aliases, inline fragments, block
/// strings, comments), repeated under fresh names until it exceeds 2 MB.
enum ParserBenchmarks {
    /// The smallest size of the generated document, in bytes.
    static let minimumDocumentSize = 2 * 1024 * 1024

    static func run() throws -> [BenchmarkResult] {
        let text = makeDocument(minimumSize: minimumDocumentSize)
        let source = Source(name: "benchmark.graphql", text: text)
        let megabytes = Double(text.utf8.count) / 1_000_000

        let lexSeconds = try medianSeconds(iterations: 9) {
            var lexer = GraphQLLanguage.Lexer(source: source)
            var count = 0
            while try lexer.next().kind != .endOfFile { count += 1 }
            blackHole(count)
        }

        var document = try GraphQLParser.parseDocument(source)
        let parseSeconds = try medianSeconds(iterations: 9) {
            document = try GraphQLParser.parseDocument(source)
        }

        var printed = GraphQLPrinter.print(document)
        let printSeconds = medianSeconds(iterations: 9) {
            printed = GraphQLPrinter.print(document)
        }
        let printedMegabytes = Double(printed.utf8.count) / 1_000_000

        let definitions = document.definitions.count
        let size = String(Int(megabytes * 10) / 10) + "." + String(Int(megabytes * 10) % 10)
        return [
            BenchmarkResult(
                name: "lex generated document", value: megabytes / lexSeconds, unit: "MB/s",
                detail: "\(size) MB"
            ),
            BenchmarkResult(
                name: "parse generated document", value: megabytes / parseSeconds, unit: "MB/s",
                detail: "\(size) MB, \(definitions) definitions, target >= 20 MB/s"
            ),
            BenchmarkResult(
                name: "print parsed document", value: printedMegabytes / printSeconds, unit: "MB/s",
                detail: "of printed text"
            ),
        ]
    }

    /// A realistic schema-plus-operations document of at least `minimumSize` UTF-8 bytes.
    static func makeDocument(minimumSize: Int) -> String {
        var text = ""
        text.reserveCapacity(minimumSize + 8192)
        var index = 0
        while text.utf8.count < minimumSize {
            text += chunk(index)
            index += 1
        }
        return text
    }

    /// One block of definitions whose names end in `index`.
    private static func chunk(_ index: Int) -> String {
        let n = String(index)
        return """
            \"\"\"
            A movie in the catalogue, with its cast and reviews.

            Stored in the `movies\(n)` table.
            \"\"\"
            type Movie\(n) @table(name: "movies\(n)", key: ["id"]) @index(fields: ["title", "releaseYear"]) {
              "The primary key."
              id: UUID! @default(expr: "uuidV4()")
              title: String! @col(name: "title", dataType: "varchar(255)")
              releaseYear: Int @check(expr: "this >= 1888", message: "too early")
              rating: Float
              tags: [String!]!
              genre: Genre\(n)
              director: Person\(n)! @ref(fields: "directorId")
              # Reviews, newest first.
              reviews(first: Int = 10, after: String, orderBy: [ReviewOrder\(n)!] = [{createdAt: DESC}]): [Review\(n)!]!
            }

            type Person\(n) implements Node & Named @table {
              id: ID!
              name: String! @searchable(weights: {exact: 2.5, prefix: 1.0})
              born: Date
            }

            \"\"\"Genres, as stored.\"\"\"
            enum Genre\(n) @table {
              ACTION
              "Funny ones."
              COMEDY
              DRAMA @deprecated(reason: "Split into finer genres.")
              DOCUMENTARY
            }

            input ReviewOrder\(n) {
              createdAt: SortDirection = DESC
              rating: SortDirection
            }

            union SearchResult\(n) = Movie\(n) | Person\(n)

            extend type Query {
              movie\(n)(id: UUID!): Movie\(n) @auth(level: PUBLIC)
            }

            directive @cached\(n)(ttl: Int = 60, scope: CacheScope = PUBLIC) repeatable on FIELD_DEFINITION | OBJECT

            # Lists the movies released in a year, with reviews.
            query ListMovies\(n)(
              $year: Int!
              $first: Int = 20
              $genres: [Genre\(n)!] = [ACTION, DRAMA]
            ) @auth(level: USER) {
              movies: movies\(n)(
                where: {releaseYear: {eq: $year}, genre: {in: $genres}, title: {contains: "the", caseSensitive: false}}
                orderBy: [{rating: DESC}, {title: ASC}]
                limit: $first
              ) {
                id
                title
                releaseYear
                director {
                  ...PersonParts\(n)
                }
                topReviews: reviews(first: 3) {
                  rating
                  text
                  author {
                    ... on Person\(n) {
                      name
                    }
                  }
                }
              }
            }

            mutation CreateMovie\(n)($title: String!, $year: Int) {
              movie_insert(
                data: {
                  title: $title
                  releaseYear: $year
                  tags: ["new", "unreviewed"]
                  rating: 4.5e0
                  notes: \"\"\"
                    Imported from the nightly feed.
                      Check the "release year" field.
                  \"\"\"
                }
              )
            }

            fragment PersonParts\(n) on Person\(n) {
              id
              name
              born @include(if: true)
            }


            """
    }
}
