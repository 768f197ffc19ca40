import MoviesModels
import MoviesTUICore

/// Small catalogues and states for the reducer and layout tests.
enum Fixtures {
    static let alien = MovieRow(id: "id-alien", title: "Alien", genre: "Sci-Fi", releaseYear: 1979, rating: 5)
    static let amelie = MovieRow(id: "id-amelie", title: "Amélie", genre: "Comedy", releaseYear: 2001, rating: 4)
    static let casablanca = MovieRow(
        id: "id-casablanca", title: "Casablanca", genre: "Romance", releaseYear: 1942, rating: 5)
    static let spirited = MovieRow(
        id: "id-spirited", title: "千と千尋の神隠し", genre: "Animation", releaseYear: 2001, rating: 5)
    static let heat = MovieRow(id: "id-heat", title: "Heat", genre: "Crime", releaseYear: 1995, rating: 3)

    /// Five movies, in no particular order.
    static let movies = [heat, spirited, alien, casablanca, amelie]

    /// `count` movies titled `Movie 000` ... in genre Drama.
    static func many(_ count: Int) -> [MovieRow] {
        (0..<count).map { index in
            let number = String(index + 1000).dropFirst()
            return MovieRow(
                id: "id-\(number)", title: "Movie \(number)", genre: "Drama", releaseYear: 1900 + index,
                rating: index % 5 + 1)
        }
    }

    /// Bob, signed in with an email and password.
    static let bob = Account(uid: "uid-bob", email: "bob@example.com")

    /// A state of the given size with `movies` loaded.
    static func state(_ movies: [MovieRow] = movies, rows: Int = 24, columns: Int = 80) -> AppState {
        let state = AppState(emulator: "127.0.0.1:9399", size: ScreenSize(rows: rows, columns: columns))
        return reduce(state, .moviesLoaded(movies)).0
    }
}

/// Applies actions in order, collecting every effect.
func send(_ state: AppState, _ actions: Action...) -> (AppState, [Effect]) {
    var state = state
    var effects: [Effect] = []
    for action in actions {
        let (next, more) = reduce(state, action)
        state = next
        effects += more
    }
    return (state, effects)
}

/// Presses keys in order.
func press(_ state: AppState, _ keys: Key...) -> (AppState, [Effect]) {
    var state = state
    var effects: [Effect] = []
    for key in keys {
        let (next, more) = reduce(state, .key(key))
        state = next
        effects += more
    }
    return (state, effects)
}

/// Types text as character keys.
func type(_ state: AppState, _ text: String) -> AppState {
    var state = state
    for character in text { state = reduce(state, .key(.character(character))).0 }
    return state
}
