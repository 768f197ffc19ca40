/// The keys of `movies-tui`, as the help overlay and `--help` list them.
public enum KeyBindings {
    /// `(keys, what they do)`, in the order shown.
    public static let all: [(keys: String, action: String)] = [
        ("Up/Down j/k", "move the selection"),
        ("PgUp/PgDn", "move a page"),
        ("Home/End g/G", "first / last movie"),
        ("Enter Right l", "open the detail pane"),
        ("Esc Left h", "close the detail pane, clear the search"),
        ("/", "search titles as you type (Enter keeps, Esc clears)"),
        ("f", "next genre filter"),
        ("F", "pick a genre from a list"),
        ("s", "sort by title, year, rating"),
        ("S", "toggle ascending / descending"),
        ("r", "review the selected movie (rating 1-5, text)"),
        ("*", "add / remove the selected movie as a favorite"),
        ("L", "sign in or create an account (email, password)"),
        ("O", "sign out"),
        ("R", "refresh the list from the server"),
        ("?", "this help"),
        ("q Ctrl-C", "quit"),
    ]
}
