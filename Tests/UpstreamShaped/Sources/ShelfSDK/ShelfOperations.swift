// swift-format-ignore-file
// Hand-written in the shape (and the two-space indentation) of Google's generated Swift; see ../../Package.swift.

import Foundation

import FirebaseCore
import FirebaseDataConnect

// MARK: Common Enums

public enum OrderDirection: String, Codable, Sendable {
  case ASC
  case DESC
}

// End enum definitions

public class CreateMovieMutation {
  let dataConnect: DataConnect

  init(dataConnect: DataConnect) {
    self.dataConnect = dataConnect
  }

  public static let OperationName = "createMovie"

  public typealias Ref = MutationRef<CreateMovieMutation.Data, CreateMovieMutation.Variables>

  public struct Variables: OperationVariable {
    public var
      title: String

    public var
      releaseYear: Int

    public var
      genre: String

    public var
      rating: Int

    public init(title: String,

                releaseYear: Int,

                genre: String,

                rating: Int) {
      self.title = title
      self.releaseYear = releaseYear
      self.genre = genre
      self.rating = rating
    }

    public static func == (lhs: Variables, rhs: Variables) -> Bool {
      return lhs.title == rhs.title &&
        lhs.releaseYear == rhs.releaseYear &&
        lhs.genre == rhs.genre &&
        lhs.rating == rhs.rating
    }

    public func hash(into hasher: inout Hasher) {
      hasher.combine(title)

      hasher.combine(releaseYear)

      hasher.combine(genre)

      hasher.combine(rating)
    }

    enum CodingKeys: String, CodingKey {
      case title

      case releaseYear

      case genre

      case rating
    }

    public func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      let codecHelper = CodecHelper<CodingKeys>()

      try codecHelper.encode(title, forKey: .title, container: &container)

      try codecHelper.encode(releaseYear, forKey: .releaseYear, container: &container)

      try codecHelper.encode(genre, forKey: .genre, container: &container)

      try codecHelper.encode(rating, forKey: .rating, container: &container)
    }
  }

  public struct Data: Decodable, Sendable {
    public var
      movie_insert: MovieKey
  }

  public func ref(title: String,

                  releaseYear: Int,

                  genre: String,

                  rating: Int)
    -> MutationRef<CreateMovieMutation.Data, CreateMovieMutation.Variables> {
    let variables = CreateMovieMutation.Variables(
      title: title,
      releaseYear: releaseYear,
      genre: genre,
      rating: rating
    )

    let ref = dataConnect.mutation(
      name: "createMovie",
      variables: variables,
      resultsDataType: CreateMovieMutation.Data.self
    )
    return ref as MutationRef<CreateMovieMutation.Data, CreateMovieMutation.Variables>
  }

  @MainActor
  public func execute(title: String,

                      releaseYear: Int,

                      genre: String,

                      rating: Int) async throws -> OperationResult<CreateMovieMutation.Data> {
    let variables = CreateMovieMutation.Variables(
      title: title,
      releaseYear: releaseYear,
      genre: genre,
      rating: rating
    )

    let ref = dataConnect.mutation(
      name: "createMovie",
      variables: variables,
      resultsDataType: CreateMovieMutation.Data.self
    )

    return try await ref.execute()
  }
}

public class UpdateMovieMutation {
  let dataConnect: DataConnect

  init(dataConnect: DataConnect) {
    self.dataConnect = dataConnect
  }

  public static let OperationName = "updateMovie"

  public typealias Ref = MutationRef<UpdateMovieMutation.Data, UpdateMovieMutation.Variables>

  public struct Variables: OperationVariable {
    public var
      id: UUID

    @OptionalVariable
    public var
      title: String?

    @OptionalVariable
    public var
      genre: String?

    public init(id: UUID,

                _ optionalVars: ((inout Variables) -> Void)? = nil) {
      self.id = id

      if let optionalVars {
        optionalVars(&self)
      }
    }

    public static func == (lhs: Variables, rhs: Variables) -> Bool {
      return lhs.id == rhs.id &&
        lhs.title == rhs.title &&
        lhs.genre == rhs.genre
    }

    public func hash(into hasher: inout Hasher) {
      hasher.combine(id)

      hasher.combine(title)

      hasher.combine(genre)
    }

    enum CodingKeys: String, CodingKey {
      case id

      case title

      case genre
    }

    public func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      let codecHelper = CodecHelper<CodingKeys>()

      try codecHelper.encode(id, forKey: .id, container: &container)

      if $title.isSet {
        try codecHelper.encode(title, forKey: .title, container: &container)
      }

      if $genre.isSet {
        try codecHelper.encode(genre, forKey: .genre, container: &container)
      }
    }
  }

  public struct Data: Decodable, Sendable {
    public var
      movie_update: MovieKey?
  }

  public func ref(id: UUID,

                  _ optionalVars: ((inout UpdateMovieMutation.Variables) -> Void)? = nil)
    -> MutationRef<UpdateMovieMutation.Data, UpdateMovieMutation.Variables> {
    var variables = UpdateMovieMutation.Variables(id: id)

    if let optionalVars {
      optionalVars(&variables)
    }

    let ref = dataConnect.mutation(
      name: "updateMovie",
      variables: variables,
      resultsDataType: UpdateMovieMutation.Data.self
    )
    return ref as MutationRef<UpdateMovieMutation.Data, UpdateMovieMutation.Variables>
  }

  @MainActor
  public func execute(id: UUID,

                      _ optionalVars: (@MainActor (inout UpdateMovieMutation.Variables) -> Void)? =
                        nil) async throws -> OperationResult<UpdateMovieMutation.Data> {
    var variables = UpdateMovieMutation.Variables(id: id)

    if let optionalVars {
      optionalVars(&variables)
    }

    let ref = dataConnect.mutation(
      name: "updateMovie",
      variables: variables,
      resultsDataType: UpdateMovieMutation.Data.self
    )

    return try await ref.execute()
  }
}

public class ListMoviesQuery {
  let dataConnect: DataConnect

  init(dataConnect: DataConnect) {
    self.dataConnect = dataConnect
  }

  public static let OperationName = "listMovies"

  public typealias Ref = QueryRefObservableObject<ListMoviesQuery.Data, ListMoviesQuery.Variables>

  public struct Variables: OperationVariable {}

  public struct Data: Decodable, Sendable {
    public struct Movie: Decodable, Sendable, Hashable, Equatable, Identifiable {
      public var
        id: UUID

      public var
        title: String

      public var
        releaseYear: Int?

      public var movieKey: MovieKey {
        return MovieKey(
          id: id
        )
      }

      public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
      }

      public static func == (lhs: Movie, rhs: Movie) -> Bool {
        return lhs.id == rhs.id
      }

      enum CodingKeys: String, CodingKey {
        case id

        case title

        case releaseYear
      }

      public init(from decoder: any Decoder) throws {
        var container = try decoder.container(keyedBy: CodingKeys.self)
        let codecHelper = CodecHelper<CodingKeys>()

        id = try codecHelper.decode(UUID.self, forKey: .id, container: &container)

        title = try codecHelper.decode(String.self, forKey: .title, container: &container)

        releaseYear = try codecHelper.decode(Int?.self, forKey: .releaseYear, container: &container)
      }
    }

    public var
      movies: [Movie]
  }

  public func ref(
  ) -> QueryRefObservableObject<ListMoviesQuery.Data, ListMoviesQuery.Variables> {
    let variables = ListMoviesQuery.Variables()

    let ref = dataConnect.query(
      name: "listMovies",
      variables: variables,
      resultsDataType: ListMoviesQuery.Data.self,
      publisher: .observableObject
    )
    return ref as! QueryRefObservableObject<ListMoviesQuery.Data, ListMoviesQuery.Variables>
  }

  @MainActor
  public func execute(
  ) async throws -> OperationResult<ListMoviesQuery.Data> {
    let variables = ListMoviesQuery.Variables()

    let ref = dataConnect.query(
      name: "listMovies",
      variables: variables,
      resultsDataType: ListMoviesQuery.Data.self,
      publisher: .observableObject
    )

    let refCast = ref as! QueryRefObservableObject<ListMoviesQuery.Data, ListMoviesQuery.Variables>
    return try await refCast.execute()
  }
}

public class GetMovieByIdQuery {
  let dataConnect: DataConnect

  init(dataConnect: DataConnect) {
    self.dataConnect = dataConnect
  }

  public static let OperationName = "getMovieById"

  public typealias Ref = QueryRefObservableObject<
    GetMovieByIdQuery.Data,
    GetMovieByIdQuery.Variables
  >

  public struct Variables: OperationVariable {
    public var
      id: UUID

    public init(id: UUID) {
      self.id = id
    }

    public static func == (lhs: Variables, rhs: Variables) -> Bool {
      return lhs.id == rhs.id
    }

    public func hash(into hasher: inout Hasher) {
      hasher.combine(id)
    }

    enum CodingKeys: String, CodingKey {
      case id
    }

    public func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      let codecHelper = CodecHelper<CodingKeys>()

      try codecHelper.encode(id, forKey: .id, container: &container)
    }
  }

  public struct Data: Decodable, Sendable {
    public struct Movie: Decodable, Sendable, Hashable, Equatable, Identifiable {
      public var
        id: UUID

      public var
        title: String

      public var
        genre: String?

      public var
        tags: [String]?

      public var movieKey: MovieKey {
        return MovieKey(
          id: id
        )
      }

      public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
      }

      public static func == (lhs: Movie, rhs: Movie) -> Bool {
        return lhs.id == rhs.id
      }

      enum CodingKeys: String, CodingKey {
        case id

        case title

        case genre

        case tags
      }

      public init(from decoder: any Decoder) throws {
        var container = try decoder.container(keyedBy: CodingKeys.self)
        let codecHelper = CodecHelper<CodingKeys>()

        id = try codecHelper.decode(UUID.self, forKey: .id, container: &container)

        title = try codecHelper.decode(String.self, forKey: .title, container: &container)

        genre = try codecHelper.decode(String?.self, forKey: .genre, container: &container)

        tags = try codecHelper.decode([String]?.self, forKey: .tags, container: &container)
      }
    }

    public var
      movie: Movie?
  }

  public func ref(id: UUID) -> QueryRefObservableObject<
    GetMovieByIdQuery.Data,
    GetMovieByIdQuery.Variables
  > {
    let variables = GetMovieByIdQuery.Variables(id: id)

    let ref = dataConnect.query(
      name: "getMovieById",
      variables: variables,
      resultsDataType: GetMovieByIdQuery.Data.self,
      publisher: .observableObject
    )
    return ref as! QueryRefObservableObject<
      GetMovieByIdQuery.Data,
      GetMovieByIdQuery.Variables
    >
  }

  @MainActor
  public func execute(id: UUID) async throws -> OperationResult<GetMovieByIdQuery.Data> {
    let variables = GetMovieByIdQuery.Variables(id: id)

    let ref = dataConnect.query(
      name: "getMovieById",
      variables: variables,
      resultsDataType: GetMovieByIdQuery.Data.self,
      publisher: .observableObject
    )

    let refCast = ref as! QueryRefObservableObject<
      GetMovieByIdQuery.Data,
      GetMovieByIdQuery.Variables
    >
    return try await refCast.execute()
  }
}

public class SearchMoviesQuery {
  let dataConnect: DataConnect

  init(dataConnect: DataConnect) {
    self.dataConnect = dataConnect
  }

  public static let OperationName = "searchMovies"

  public typealias Ref = QueryRefObservableObject<SearchMoviesQuery.Data, SearchMoviesQuery.Variables>

  public struct Variables: OperationVariable {
    @OptionalVariable
    public var
      title: String?

    @OptionalVariable
    public var
      genre: String?

    @OptionalVariable
    public var
      minYear: Int?

    public init(_ optionalVars: ((inout Variables) -> Void)? = nil) {
      if let optionalVars {
        optionalVars(&self)
      }
    }

    public static func == (lhs: Variables, rhs: Variables) -> Bool {
      return lhs.title == rhs.title &&
        lhs.genre == rhs.genre &&
        lhs.minYear == rhs.minYear
    }

    public func hash(into hasher: inout Hasher) {
      hasher.combine(title)

      hasher.combine(genre)

      hasher.combine(minYear)
    }

    enum CodingKeys: String, CodingKey {
      case title

      case genre

      case minYear
    }

    public func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      let codecHelper = CodecHelper<CodingKeys>()

      if $title.isSet {
        try codecHelper.encode(title, forKey: .title, container: &container)
      }

      if $genre.isSet {
        try codecHelper.encode(genre, forKey: .genre, container: &container)
      }

      if $minYear.isSet {
        try codecHelper.encode(minYear, forKey: .minYear, container: &container)
      }
    }
  }

  public struct Data: Decodable, Sendable {
    public struct Movie: Decodable, Sendable, Hashable, Equatable, Identifiable {
      public var
        id: UUID

      public var
        title: String

      public var
        description: String?

      public var movieKey: MovieKey {
        return MovieKey(
          id: id
        )
      }

      public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
      }

      public static func == (lhs: Movie, rhs: Movie) -> Bool {
        return lhs.id == rhs.id
      }

      enum CodingKeys: String, CodingKey {
        case id

        case title

        case description
      }

      public init(from decoder: any Decoder) throws {
        var container = try decoder.container(keyedBy: CodingKeys.self)
        let codecHelper = CodecHelper<CodingKeys>()

        id = try codecHelper.decode(UUID.self, forKey: .id, container: &container)

        title = try codecHelper.decode(String.self, forKey: .title, container: &container)

        description = try codecHelper.decode(
          String?.self,
          forKey: .description,
          container: &container
        )
      }
    }

    public var
      movies: [Movie]
  }

  public func ref(_ optionalVars: ((inout SearchMoviesQuery.Variables) -> Void)? = nil)
    -> QueryRefObservableObject<
      SearchMoviesQuery.Data,
      SearchMoviesQuery.Variables
    > {
    var variables = SearchMoviesQuery.Variables()

    if let optionalVars {
      optionalVars(&variables)
    }

    let ref = dataConnect.query(
      name: "searchMovies",
      variables: variables,
      resultsDataType: SearchMoviesQuery.Data.self,
      publisher: .observableObject
    )
    return ref as! QueryRefObservableObject<SearchMoviesQuery.Data, SearchMoviesQuery.Variables>
  }

  @MainActor
  public func execute(_ optionalVars: (@MainActor (inout SearchMoviesQuery.Variables) -> Void)? =
    nil) async throws -> OperationResult<SearchMoviesQuery.Data> {
    var variables = SearchMoviesQuery.Variables()

    if let optionalVars {
      optionalVars(&variables)
    }

    let ref = dataConnect.query(
      name: "searchMovies",
      variables: variables,
      resultsDataType: SearchMoviesQuery.Data.self,
      publisher: .observableObject
    )

    let refCast = ref as! QueryRefObservableObject<SearchMoviesQuery.Data, SearchMoviesQuery.Variables>
    return try await refCast.execute()
  }
}
