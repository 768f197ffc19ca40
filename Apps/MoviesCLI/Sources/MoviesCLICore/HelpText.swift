/// The text `movies --help` and `movies COMMAND --help` print.
public enum HelpText {
    /// The help for a command, or the overview when `topic` is `nil`.
    ///
    /// - Parameter topic: The command, or `nil` for the overview.
    /// - Returns: The text, ending with a newline.
    public static func text(for topic: HelpTopic?) -> String {
        guard let topic else { return overview }
        return usage(topic) + "\n\n" + details(topic) + "\n\n" + globalOptions + "\n"
    }

    /// The one-line usage of a command.
    ///
    /// - Parameter topic: The command.
    /// - Returns: `usage: movies ...`.
    public static func usage(_ topic: HelpTopic) -> String {
        switch topic {
        case .list: "usage: movies list [--genre G] [--sort title|year|rating] [--desc] [--limit N] [--page N] [--json]"
        case .search: "usage: movies search TEXT [--genre G] [--min-year Y] [--max-year Y] [--min-rating R] [--json]"
        case .show: "usage: movies show ID [--json]"
        case .add:
            "usage: movies add --title T --year Y --genre G --rating R [--aspect ACADEMY|WIDESCREEN|ANAMORPHIC] "
                + "[--tags a,b]"
        case .review: "usage: movies review ID --rating N [--text T]"
        case .delete: "usage: movies delete ID"
        case .favorites: "usage: movies favorites [add ID | remove ID] [--json]"
        case .signup: "usage: movies signup --email E (--password P | --password-stdin) [--name N]"
        case .login: "usage: movies login --email E (--password P | --password-stdin)"
        case .logout: "usage: movies logout"
        case .whoami: "usage: movies whoami [--json]"
        case .watch: "usage: movies watch [--genre G] [--poll] [--json]"
        }
    }

    private static func details(_ topic: HelpTopic) -> String {
        switch topic {
        case .list:
            """
            Lists the catalogue as a table, by title unless --sort says otherwise.
              --genre G      only movies of genre G (ignoring case)
              --sort KEY     order by title, year or rating (movies without a year or rating come last)
              --desc         order descending
              --limit N      at most N movies (the page size with --page)
              --page N       the N-th page (1-based) of --limit movies, 20 when no limit is given
            """
        case .search:
            """
            Finds movies whose title or description contains TEXT, best rated first.
              --genre G       only movies of genre G
              --min-year Y    released in or after Y
              --max-year Y    released in or before Y
              --min-rating R  rated at least R (0 to 5)
            """
        case .show:
            "Shows one movie: director, cast, the latest reviews and review statistics."
        case .add:
            """
            Adds a movie to the catalogue and prints its new id.
              --title T      the title
              --year Y       the year of first release
              --genre G      the main genre
              --rating R     the catalogue rating, 1 to 5
              --aspect A     ACADEMY, WIDESCREEN (the default) or ANAMORPHIC
              --tags a,b     comma-separated keywords
            """
        case .review:
            """
            Writes your review of a movie, replacing your earlier one. Requires `movies login`.
              --rating N     your rating, 1 to 5
              --text T       the review text
            """
        case .delete:
            "Deletes a movie with its cast links, reviews and favorites."
        case .favorites:
            """
            Lists your favorite movies, newest first; `add ID` marks one, `remove ID` unmarks it.
            Requires `movies login`.
            """
        case .signup:
            """
            Creates an account on the emulator's Firebase Auth, signs in with it, sets its display name and
            creates your profile (upsertUser) with that name as your public username.
              --email E            the account's email
              --password P         its password (at least 6 characters); visible to `ps` and shell history
              --password-stdin     read the password from the first line of standard input instead, e.g.
                                   printf '%s\\n' "$PASSWORD" | movies signup --email E --password-stdin
              --name N             your display name and username (the uid by default)
            \(signInStorage)
            """
        case .login:
            """
            Signs in to the emulator's Firebase Auth with an account made by `movies signup` (or any app).
              --email E            the account's email
              --password P         its password; visible to `ps` and shell history
              --password-stdin     read the password from the first line of standard input instead
            \(signInStorage)
            """
        case .logout:
            "Signs out (Firebase Auth's signOut) and forgets the saved user."
        case .whoami:
            """
            Prints who is signed in: uid, email, display name, whether the email is verified, the sign-in
            provider and the custom claims of a fresh ID token (set by an admin; seen after the next refresh
            or login). Exits 4 when nobody is signed in.
            """
        case .watch:
            """
            Prints the catalogue, then each change as it happens (+ added, - removed, ~ changed), until
            Ctrl-C. Changes are pushed by the emulator through a realtime subscription.
              --genre G      only movies of genre G
              --poll         fetch the list every second instead (for servers without subscriptions)
            """
        }
    }

    private static let signInStorage = """
        The user stays signed in across runs, kept by Firebase Auth in $MOVIES_CONFIG_DIR/firebase-auth
        when set, else ${XDG_CONFIG_HOME:-~/.config}/firebase-auth/movies (mode 0600), until `movies logout`.
        """

    private static let globalOptions = """
        Options for every command:
          --emulator HOST:PORT  the emulator, for Data Connect and Auth (default:
                                $FIREBASE_DATA_CONNECT_EMULATOR_HOST, else 127.0.0.1:9399)
          --json                print the data as JSON (read commands)
          -h, --help            show help
        """

    /// The exit statuses, one per line, as `movies --help` lists them.
    public static let exitStatuses = """
        Exit status:
          0  success
          1  the operation failed, or the movie was not found
          2  usage error
          3  the emulator is unreachable
          4  not signed in, or permission denied
        """

    private static let overview = """
        movies: browse and edit the movies catalogue of a Data Connect emulator.

        usage: movies COMMAND [OPTIONS]

        Commands:
          list        list movies (filter, sort, page)
          search      find movies by text, genre, year and rating
          show        show one movie with director, cast, reviews and stats
          add         add a movie and print its id
          review      review a movie (requires login)
          delete      delete a movie
          favorites   list, add or remove your favorite movies (requires login)
          signup      create an account (email and password) and sign in
          login       sign in with email and password
          logout      sign out
          whoami      print who is signed in
          watch       print the list, then changes as they happen

        \(globalOptions)

        \(exitStatuses)

        Run `movies help COMMAND` or `movies COMMAND --help` for a command's options.

        """
}
