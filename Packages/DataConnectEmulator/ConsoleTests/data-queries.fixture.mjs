// A console model of the movies sample backend (Backend/movies), in the shape GET /emulator/console/model answers.

function col(field, type, extra = {}) {
  const nullable = !type.endsWith("!");
  return {
    field,
    column: extra.column || field,
    type,
    sqlType: extra.sqlType || "text",
    key: Boolean(extra.key),
    unique: Boolean(extra.unique),
    nullable,
    list: type.startsWith("["),
    default: extra.default ?? null,
    generated: Boolean(extra.generated) || extra.default !== undefined,
    enum: extra.enum || null,
    references: extra.references || null,
  };
}

function api(type, list, get) {
  const lower = type[0].toLowerCase() + type.slice(1);
  return {
    list,
    get,
    insert: `${lower}_insert`,
    update: `${lower}_update`,
    delete: `${lower}_delete`,
    keyInput: `${type}_Key`,
    dataInput: `${type}_Data`,
    filter: `${type}_Filter`,
    orderBy: `${type}_Order`,
  };
}

export const moviesModel = {
  serviceId: "movies",
  project: "local",
  location: "local",
  tables: [
    {
      type: "Movie", table: "movie", isView: false, description: "A movie in the catalogue.", key: ["id"],
      api: api("Movie", "movies", "movie"),
      columns: [
        col("id", "UUID!", { key: true, sqlType: "uuid", default: "uuidV4()" }),
        col("title", "String!"),
        col("releaseYear", "Int", { column: "release_year", sqlType: "integer" }),
        col("genre", "String"),
        col("rating", "Int", { sqlType: "integer" }),
        col("aspectratio", "AspectRatio!", { default: "WIDESCREEN", enum: "AspectRatio" }),
        col("description", "String"),
        col("imageUrl", "String", { column: "image_url" }),
        col("tags", "[String!]", { sqlType: "text[]" }),
        col("isClassic", "Boolean", { column: "is_classic", sqlType: "boolean", default: "false" }),
        col("createdAt", "Timestamp!", { column: "created_at", sqlType: "timestamptz", default: "request.time" }),
        col("directorId", "UUID", { column: "director_id", sqlType: "uuid", references: { type: "Person", field: "director" } }),
      ],
      relations: [{ field: "director", type: "Person", columns: ["directorId"], nullable: true, oneToOne: false }],
      uniques: [],
      indexes: [{ name: "movie_genre_release_year_idx", columns: ["genre", "releaseYear"], type: "BTREE" }],
      operations: [
        { connector: "movies", name: "listMovies", kind: "query", auth: "PUBLIC" },
        { connector: "movies", name: "createMovie", kind: "mutation", auth: "USER" },
      ],
    },
    {
      type: "MovieMetadata", table: "movie_metadata", isView: false, description: "", key: ["id"],
      api: api("MovieMetadata", "movieMetadatas", "movieMetadata"),
      columns: [
        col("id", "UUID!", { key: true, sqlType: "uuid", default: "uuidV4()" }),
        col("movieId", "UUID!", { column: "movie_id", sqlType: "uuid", unique: true, references: { type: "Movie", field: "movie" } }),
        col("releaseDate", "Date", { sqlType: "date" }),
        col("durationHours", "Float", { sqlType: "double precision" }),
        col("budget", "Int64", { sqlType: "bigint" }),
        col("boxOffice", "Int64", { sqlType: "bigint" }),
        col("language", "String"),
        col("extras", "Any", { sqlType: "jsonb" }),
      ],
      relations: [{ field: "movie", type: "Movie", columns: ["movieId"], nullable: false, oneToOne: true }],
      uniques: [["movieId"]], indexes: [], operations: [],
    },
    {
      type: "Person", table: "People", isView: false, description: "", key: ["id"],
      api: api("Person", "people", "person"),
      columns: [
        col("id", "UUID!", { key: true, sqlType: "uuid", default: "uuidV4()" }),
        col("name", "String!", { sqlType: "varchar(120)" }),
        col("birthYear", "Int", { sqlType: "integer" }),
      ],
      relations: [], uniques: [], indexes: [], operations: [],
    },
    {
      type: "Actor", table: "actor", isView: false, description: "", key: ["id"],
      api: api("Actor", "actors", "actor"),
      columns: [
        col("id", "UUID!", { key: true, sqlType: "uuid", default: "uuidV4()" }),
        col("name", "String!"),
        col("imageUrl", "String"),
        col("birthDate", "Date", { sqlType: "date" }),
      ],
      relations: [], uniques: [], indexes: [], operations: [],
    },
    {
      type: "MovieActor", table: "movie_actor", isView: false, description: "", key: ["movieId", "actorId"],
      api: api("MovieActor", "movieActors", "movieActor"),
      columns: [
        col("movieId", "UUID!", { key: true, sqlType: "uuid", references: { type: "Movie", field: "movie" } }),
        col("actorId", "UUID!", { key: true, sqlType: "uuid", references: { type: "Actor", field: "actor" } }),
        col("role", "String!"),
      ],
      relations: [
        { field: "movie", type: "Movie", columns: ["movieId"], nullable: false, oneToOne: false },
        { field: "actor", type: "Actor", columns: ["actorId"], nullable: false, oneToOne: false },
      ],
      uniques: [], indexes: [], operations: [],
    },
    {
      type: "User", table: "user", isView: false, description: "", key: ["id"],
      api: api("User", "users", "user"),
      columns: [
        col("id", "String!", { key: true, column: "user_auth" }),
        col("username", "String!", { unique: true, sqlType: "varchar(50)" }),
        col("createdAt", "Timestamp!", { sqlType: "timestamptz", default: "request.time" }),
      ],
      relations: [], uniques: [["username"]], indexes: [], operations: [],
    },
    {
      type: "Review", table: "Reviews", isView: false, description: "", key: ["movieId", "userId"],
      api: api("Review", "reviews", "review"),
      columns: [
        col("movieId", "UUID!", { key: true, sqlType: "uuid", references: { type: "Movie", field: "movie" } }),
        col("userId", "String!", { key: true, references: { type: "User", field: "user" } }),
        col("rating", "Int", { sqlType: "integer" }),
        col("text", "String"),
        col("reviewDate", "Date!", { sqlType: "date", default: "request.time" }),
      ],
      relations: [
        { field: "movie", type: "Movie", columns: ["movieId"], nullable: false, oneToOne: false },
        { field: "user", type: "User", columns: ["userId"], nullable: false, oneToOne: false },
      ],
      uniques: [], indexes: [{ name: "reviews_review_date_idx", columns: ["reviewDate"], type: "BTREE" }], operations: [],
    },
    {
      type: "FavoriteMovie", table: "favorite_movie", isView: false, description: "", key: ["userId", "movieId"],
      api: api("FavoriteMovie", "favoriteMovies", "favoriteMovie"),
      columns: [
        col("userId", "String!", { key: true, references: { type: "User", field: "user" } }),
        col("movieId", "UUID!", { key: true, sqlType: "uuid", references: { type: "Movie", field: "movie" } }),
        col("addedAt", "Timestamp!", { sqlType: "timestamptz", default: "request.time" }),
      ],
      relations: [
        { field: "user", type: "User", columns: ["userId"], nullable: false, oneToOne: false },
        { field: "movie", type: "Movie", columns: ["movieId"], nullable: false, oneToOne: false },
      ],
      uniques: [], indexes: [], operations: [],
    },
    {
      type: "MovieSummary", table: "movie_summary", isView: true, description: "A view.", key: [],
      api: { list: "movieSummaries", filter: "MovieSummary_Filter", orderBy: "MovieSummary_Order" },
      columns: [col("title", "String"), col("reviews", "Int", { sqlType: "integer" })],
      relations: [], uniques: [], indexes: [], operations: [],
    },
  ],
  enums: [{ name: "AspectRatio", values: ["ACADEMY", "WIDESCREEN", "ANAMORPHIC"] }],
  connectors: [],
};
