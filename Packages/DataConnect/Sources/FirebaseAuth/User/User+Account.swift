import Foundation

/// Account operations: reload, profile and credential changes, linking, reauthentication, deletion.
extension User {
    /// Reads the account again (`accounts:lookup`) and updates the profile.
    ///
    /// - Throws: The server's errors, e.g. ``AuthErrorCode/userNotFound`` when the account was deleted.
    public func reload() async throws {
        let auth = try requireAuth()
        let idToken = try await getIDToken()
        let answer: LookupAnswer = try await auth.backend().identityToolkit("lookup", LookupBody(idToken: idToken))
        guard let account = answer.users?.first else { throw AuthErrors.error(.userNotFound) }
        mutate { $0.update(from: account) }
        auth.userDidChange(self, tokensChanged: false)
    }

    /// Deletes the account (`accounts:delete`) and signs out.
    ///
    /// - Throws: ``AuthErrorCode/requiresRecentLogin`` when the sign-in is too old, and the server's other errors.
    public func delete() async throws {
        let auth = try requireAuth()
        let idToken = try await getIDToken()
        let _: EmptyAnswer = try await auth.backend().identityToolkit(
            "delete", DeleteBody(idToken: idToken, localId: uid))
        auth.signOutByForce(uid: uid)
    }

    /// A request to change the display name and photo URL.
    ///
    /// - Returns: A request; set its properties, then call ``UserProfileChangeRequest/commitChanges()``.
    public func createProfileChangeRequest() -> UserProfileChangeRequest {
        UserProfileChangeRequest(user: self)
    }

    /// Sends the email-verification email (`accounts:sendOobCode`, `VERIFY_EMAIL`).
    ///
    /// - Throws: The server's errors.
    public func sendEmailVerification() async throws {
        let auth = try requireAuth()
        let idToken = try await getIDToken()
        let _: SendOobCodeAnswer = try await auth.backend().identityToolkit(
            "sendOobCode", SendOobCodeBody(requestType: "VERIFY_EMAIL", idToken: idToken))
    }

    /// Sends the email-verification email with a link that follows `actionCodeSettings`.
    ///
    /// - Parameter actionCodeSettings: The continue URL and the apps that may open the link.
    /// - Throws: The server's errors.
    public func sendEmailVerification(with actionCodeSettings: ActionCodeSettings) async throws {
        let auth = try requireAuth()
        let idToken = try await getIDToken()
        var body = SendOobCodeBody(requestType: "VERIFY_EMAIL", idToken: idToken)
        actionCodeSettings.apply(to: &body)
        let _: SendOobCodeAnswer = try await auth.backend().identityToolkit("sendOobCode", body)
    }

    /// ``reload()`` with a completion handler.
    ///
    /// - Parameter completion: Called with `nil` or the error.
    public func reload(completion: (@Sendable ((any Error)?) -> Void)?) {
        Task {
            do {
                try await reload()
                completion?(nil)
            } catch {
                completion?(error)
            }
        }
    }

    /// Changes the email (`accounts:update`); deprecated upstream in favour of `sendEmailVerification(beforeUpdatingEmail:)`.
    ///
    /// - Parameter email: The new email.
    /// - Throws: ``AuthErrorCode/emailAlreadyInUse``, ``AuthErrorCode/invalidEmail``,
    ///   ``AuthErrorCode/requiresRecentLogin``, and the server's other errors.
    @available(*, deprecated, message: "Use sendEmailVerification(beforeUpdatingEmail:) instead.")
    public func updateEmail(to email: String) async throws {
        var body = UpdateBody()
        body.email = email
        try await update(body)
    }

    /// Sends a link to `email` that changes the account's email once followed (`VERIFY_AND_CHANGE_EMAIL`).
    ///
    /// - Parameter email: The new email.
    /// - Throws: The server's errors.
    public func sendEmailVerification(beforeUpdatingEmail email: String) async throws {
        let auth = try requireAuth()
        let idToken = try await getIDToken()
        var body = SendOobCodeBody(requestType: "VERIFY_AND_CHANGE_EMAIL", idToken: idToken)
        body.newEmail = email
        let _: SendOobCodeAnswer = try await auth.backend().identityToolkit("sendOobCode", body)
    }

    /// Changes the password (`accounts:update`).
    ///
    /// - Parameter password: The new password.
    /// - Throws: ``AuthErrorCode/weakPassword``, ``AuthErrorCode/requiresRecentLogin``, and the server's other errors.
    public func updatePassword(to password: String) async throws {
        var body = UpdateBody()
        body.password = password
        try await update(body)
    }

    /// Signs in again with `credential` to refresh the sign-in time, keeping this user.
    ///
    /// - Parameter credential: A credential of this user.
    /// - Returns: The result, with this user.
    /// - Throws: ``AuthErrorCode/userMismatch`` when the credential belongs to another user; the sign-in's errors.
    @discardableResult
    public func reauthenticate(with credential: AuthCredential) async throws -> AuthDataResult {
        let auth = try requireAuth()
        let answer: SignInAnswer
        do {
            answer = try await auth.signInAnswer(for: credential, linkingIDToken: nil)
        } catch let error as NSError where error.code == AuthErrorCode.userNotFound.rawValue {
            throw AuthErrors.error(.userMismatch)
        }
        guard answer.localId == uid else { throw AuthErrors.error(.userMismatch) }
        _ = applyTokens(
            idToken: answer.idToken, refreshToken: answer.refreshToken, expiresIn: answer.expiresIn,
            now: auth.environment.now())
        auth.userDidChange(self, tokensChanged: true)
        try await reload()
        return AuthDataResult(
            user: self, additionalUserInfo: AdditionalUserInfo(providerID: credential.provider, isNewUser: false))
    }

    /// Links `credential` to this user, e.g. upgrades an anonymous user to an email account.
    ///
    /// ```swift
    /// let anonymous = try await Auth.auth().signInAnonymously().user
    /// try await anonymous.link(with: EmailAuthProvider.credential(withEmail: email, password: password))
    /// ```
    ///
    /// - Parameter credential: The credential to add.
    /// - Returns: The result, with this user.
    /// - Throws: ``AuthErrorCode/providerAlreadyLinked``, ``AuthErrorCode/emailAlreadyInUse``,
    ///   ``AuthErrorCode/credentialAlreadyInUse``, and the server's other errors.
    @discardableResult
    public func link(with credential: AuthCredential) async throws -> AuthDataResult {
        let auth = try requireAuth()
        if record.providers.contains(where: { $0.providerId == credential.provider }) {
            throw AuthErrors.error(.providerAlreadyLinked)
        }
        let idToken = try await getIDToken()
        let now = auth.environment.now()
        switch credential.kind {
        case .password(let email, let password):
            var body = UpdateBody()
            body.idToken = idToken
            body.email = email
            body.password = password
            let answer: UpdateAnswer = try await auth.backend().identityToolkit("update", body)
            _ = applyTokens(
                idToken: answer.idToken, refreshToken: answer.refreshToken, expiresIn: answer.expiresIn, now: now)
        case .idp:
            let answer = try await auth.signInAnswer(for: credential, linkingIDToken: idToken)
            _ = applyTokens(
                idToken: answer.idToken, refreshToken: answer.refreshToken, expiresIn: answer.expiresIn, now: now)
        }
        mutate { $0.isAnonymous = false }
        auth.userDidChange(self, tokensChanged: true)
        try await reload()
        return AuthDataResult(
            user: self, additionalUserInfo: AdditionalUserInfo(providerID: credential.provider, isNewUser: false))
    }

    /// Sends `body` to `accounts:update` with the current ID token, takes any new tokens, then reloads.
    func update(_ body: UpdateBody) async throws {
        let auth = try requireAuth()
        var body = body
        body.idToken = try await getIDToken()
        let answer: UpdateAnswer = try await auth.backend().identityToolkit("update", body)
        let changed = applyTokens(
            idToken: answer.idToken, refreshToken: answer.refreshToken, expiresIn: answer.expiresIn,
            now: auth.environment.now())
        if changed { auth.userDidChange(self, tokensChanged: true) }
        try await reload()
    }
}
