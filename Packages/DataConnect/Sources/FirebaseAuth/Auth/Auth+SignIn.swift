import Foundation

/// Sign-up and sign-in.
extension Auth {
    /// Creates an email account and signs it in (`accounts:signUp`).
    ///
    /// ```swift
    /// let result = try await Auth.auth().createUser(withEmail: "alice@example.com", password: "secret1")
    /// ```
    ///
    /// - Parameters:
    ///   - email: The email.
    ///   - password: The password.
    /// - Returns: The new user, with `additionalUserInfo.isNewUser == true`.
    /// - Throws: ``AuthErrorCode/emailAlreadyInUse``, ``AuthErrorCode/invalidEmail``, ``AuthErrorCode/weakPassword``,
    ///   ``AuthErrorCode/operationNotAllowed``, ``AuthErrorCode/networkError``.
    @discardableResult
    public func createUser(withEmail email: String, password: String) async throws -> AuthDataResult {
        let answer: SignInAnswer = try await backend().identityToolkit(
            "signUp", SignUpBody(email: email, password: password))
        let user = try await completeSignIn(answer, anonymous: false)
        return AuthDataResult(
            user: user, additionalUserInfo: AdditionalUserInfo(providerID: EmailAuthProvider.id, isNewUser: true))
    }

    /// Signs in with an email and password (`accounts:signInWithPassword`).
    ///
    /// - Parameters:
    ///   - email: The email.
    ///   - password: The password.
    /// - Returns: The signed-in user.
    /// - Throws: ``AuthErrorCode/wrongPassword``, ``AuthErrorCode/userNotFound``, ``AuthErrorCode/invalidCredential``
    ///   (the server's `INVALID_LOGIN_CREDENTIALS` under email enumeration protection), ``AuthErrorCode/userDisabled``.
    @discardableResult
    public func signIn(withEmail email: String, password: String) async throws -> AuthDataResult {
        try await signIn(with: EmailAuthProvider.credential(withEmail: email, password: password))
    }

    /// Signs in with a credential from ``EmailAuthProvider`` or ``GoogleAuthProvider``.
    ///
    /// - Parameter credential: The credential.
    /// - Returns: The signed-in user.
    /// - Throws: As ``signIn(withEmail:password:)``; for identity providers ``AuthErrorCode/invalidCredential``.
    @discardableResult
    public func signIn(with credential: AuthCredential) async throws -> AuthDataResult {
        let answer = try await signInAnswer(for: credential, linkingIDToken: nil)
        let user = try await completeSignIn(answer, anonymous: false)
        let info = AdditionalUserInfo(
            providerID: credential.provider, rawProfile: answer.rawUserInfo, isNewUser: answer.isNewUser ?? false)
        return AuthDataResult(user: user, additionalUserInfo: info)
    }

    /// Signs in as a new anonymous user (`accounts:signUp` with no email), or returns the current anonymous user.
    ///
    /// - Returns: The anonymous user.
    /// - Throws: ``AuthErrorCode/operationNotAllowed`` when anonymous sign-in is disabled.
    @discardableResult
    public func signInAnonymously() async throws -> AuthDataResult {
        if let user = currentUser, user.isAnonymous {
            return AuthDataResult(user: user, additionalUserInfo: AdditionalUserInfo(providerID: nil, isNewUser: false))
        }
        let answer: SignInAnswer = try await backend().identityToolkit("signUp", SignUpBody())
        let user = try await completeSignIn(answer, anonymous: true)
        return AuthDataResult(user: user, additionalUserInfo: AdditionalUserInfo(providerID: nil, isNewUser: true))
    }

    /// Signs in with a custom token minted by a server (`accounts:signInWithCustomToken`).
    ///
    /// - Parameter token: The custom token.
    /// - Returns: The signed-in user.
    /// - Throws: ``AuthErrorCode/invalidCustomToken``, ``AuthErrorCode/customTokenMismatch``.
    @discardableResult
    public func signIn(withCustomToken token: String) async throws -> AuthDataResult {
        let answer: SignInAnswer = try await backend().identityToolkit(
            "signInWithCustomToken", SignInWithCustomTokenBody(token: token))
        let user = try await completeSignIn(answer, anonymous: false)
        return AuthDataResult(
            user: user, additionalUserInfo: AdditionalUserInfo(providerID: nil, isNewUser: answer.isNewUser ?? false))
    }

    /// ``signIn(withEmail:password:)`` with a completion handler.
    ///
    /// - Parameters:
    ///   - email: The email.
    ///   - password: The password.
    ///   - completion: Called with the result or the error.
    public func signIn(
        withEmail email: String, password: String,
        completion: (@Sendable (AuthDataResult?, (any Error)?) -> Void)?
    ) {
        Task {
            do {
                completion?(try await signIn(withEmail: email, password: password), nil)
            } catch {
                completion?(nil, error)
            }
        }
    }

    /// ``createUser(withEmail:password:)`` with a completion handler.
    ///
    /// - Parameters:
    ///   - email: The email.
    ///   - password: The password.
    ///   - completion: Called with the result or the error.
    public func createUser(
        withEmail email: String, password: String,
        completion: (@Sendable (AuthDataResult?, (any Error)?) -> Void)?
    ) {
        Task {
            do {
                completion?(try await createUser(withEmail: email, password: password), nil)
            } catch {
                completion?(nil, error)
            }
        }
    }

    /// ``signIn(with:)`` with a completion handler.
    ///
    /// - Parameters:
    ///   - credential: The credential.
    ///   - completion: Called with the result or the error.
    public func signIn(
        with credential: AuthCredential, completion: (@Sendable (AuthDataResult?, (any Error)?) -> Void)?
    ) {
        Task {
            do {
                completion?(try await signIn(with: credential), nil)
            } catch {
                completion?(nil, error)
            }
        }
    }

    /// ``signInAnonymously()`` with a completion handler.
    ///
    /// - Parameter completion: Called with the result or the error.
    public func signInAnonymously(completion: (@Sendable (AuthDataResult?, (any Error)?) -> Void)?) {
        Task {
            do {
                completion?(try await signInAnonymously(), nil)
            } catch {
                completion?(nil, error)
            }
        }
    }

    /// The sign-in call for `credential`; `linkingIDToken` links an identity provider to that user.
    func signInAnswer(for credential: AuthCredential, linkingIDToken: String?) async throws -> SignInAnswer {
        switch credential.kind {
        case .password(let email, let password):
            return try await backend().identityToolkit(
                "signInWithPassword", SignInWithPasswordBody(email: email, password: password))
        case .idp:
            let body = SignInWithIdpBody(postBody: credential.idpPostBody ?? "", idToken: linkingIDToken)
            return try await backend().identityToolkit("signInWithIdp", body)
        }
    }

    /// Builds the user from a sign-in answer, reads its profile (`accounts:lookup`, as upstream) and makes it the
    /// current user.
    func completeSignIn(_ answer: SignInAnswer, anonymous: Bool) async throws -> User {
        guard let idToken = answer.idToken, let refreshToken = answer.refreshToken else {
            throw AuthErrors.error(.internalError, message: "The sign-in answer has no tokens.")
        }
        // `signInWithCustomToken` answers without `localId`, as the real service does: the token's subject says it.
        guard let uid = answer.localId ?? (try? AuthTokenResult.payload(of: idToken))?["sub"] as? String else {
            throw AuthErrors.error(.internalError, message: "The sign-in answer names no user.")
        }
        let tokens = UserRecord.Tokens(
            idToken: idToken, refreshToken: refreshToken,
            expirationDate: environment.now().addingTimeInterval(answer.expiresIn?.value ?? 3600))
        var record = UserRecord(uid: uid, email: answer.email, displayName: answer.displayName, tokens: tokens)
        record.isAnonymous = anonymous
        let lookup: LookupAnswer = try await backend().identityToolkit("lookup", LookupBody(idToken: idToken))
        if let account = lookup.users?.first {
            record.update(from: account)
        }
        let user = User(record: record, auth: self)
        setCurrentUser(user)
        return user
    }
}
