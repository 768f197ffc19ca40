/// The sign-in screen (`L`): an email, a password, and whether to sign in or create the account.
///
/// Tab (or Up/Down) moves between the fields; on the choice, Left, Right or Space switches between signing in and
/// creating an account; Enter submits from any field; Esc closes the screen.
public struct SignInForm: Equatable, Sendable {
    /// The form's fields, in Tab order.
    public enum Field: CaseIterable, Equatable, Sendable {
        /// The email.
        case email
        /// The password, drawn as `*`.
        case password
        /// The sign in / create account choice.
        case choice
    }

    /// What Enter does.
    public enum Choice: Equatable, Sendable {
        /// Sign in to an existing account.
        case signIn
        /// Create the account, then sign in with it.
        case createAccount

        /// The other choice.
        public var toggled: Choice { self == .signIn ? .createAccount : .signIn }
    }

    /// The email typed.
    public var email: String
    /// The password typed.
    public var password: String
    /// What Enter does.
    public var choice: Choice
    /// The field keys go to.
    public var focus: Field
    /// Why the form was not submitted, or Firebase Auth's refusal.
    public var error: String?
    /// Whether the request is on its way.
    public var isSubmitting: Bool

    /// Creates a form, empty and focused on the email unless told otherwise.
    public init(
        email: String = "", password: String = "", choice: Choice = .signIn, focus: Field = .email,
        error: String? = nil, isSubmitting: Bool = false
    ) {
        self.email = email
        self.password = password
        self.choice = choice
        self.focus = focus
        self.error = error
        self.isSubmitting = isSubmitting
    }

    /// The longest email or password accepted.
    public static let maximumLength = 128

    /// Why the form cannot be submitted, or `nil` when it can. Firebase Auth judges the password's strength.
    public var validationError: String? {
        let trimmed = email.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || !trimmed.contains("@") || trimmed.contains(where: \.isWhitespace) {
            return "Type an email such as ada@example.com."
        }
        if password.isEmpty { return "Type the password." }
        return nil
    }

    /// The effect submitting the form asks for.
    public var effect: Effect {
        let email = email.trimmingCharacters(in: .whitespaces)
        switch choice {
        case .signIn: return .signIn(email: email, password: password)
        case .createAccount: return .createAccount(email: email, password: password)
        }
    }
}

/// The signed-in Firebase Auth user, as the status bar shows it.
public struct Account: Equatable, Sendable {
    /// The uid.
    public var uid: String
    /// The email, if any.
    public var email: String?
    /// The display name, if set.
    public var displayName: String?

    /// Creates an account.
    public init(uid: String, email: String? = nil, displayName: String? = nil) {
        self.uid = uid
        self.email = email
        self.displayName = displayName
    }

    /// The name shown: the display name, else the email, else the uid.
    public var label: String { displayName ?? email ?? uid }
}
