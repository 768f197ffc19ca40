import Foundation

/// Reading the config files the Firebase console hands out: `GoogleService-Info.plist` (Apple) and
/// `google-services.json` (Android).
extension FirebaseOptions {
    /// Reads options from a `GoogleService-Info.plist`, as upstream.
    ///
    /// The keys read are `GOOGLE_APP_ID` and `GCM_SENDER_ID` (both required), `API_KEY`, `PROJECT_ID`,
    /// `BUNDLE_ID`, `CLIENT_ID`, `STORAGE_BUCKET` and `DATABASE_URL`. XML and binary property lists are accepted.
    ///
    /// ```swift
    /// guard let options = FirebaseOptions(contentsOfFile: "GoogleService-Info.plist") else { fatalError() }
    /// FirebaseApp.configure(options: options)
    /// ```
    ///
    /// - Parameter plistPath: The file's path.
    /// - Returns: `nil` when the file is missing, is not a property list, or lacks `GOOGLE_APP_ID` or `GCM_SENDER_ID`.
    public convenience init?(contentsOfFile plistPath: String) {
        guard let data = FileManager.default.contents(atPath: plistPath) else { return nil }
        self.init(googleServiceInfoPlist: data)
    }

    /// Reads options from the bytes of a `GoogleService-Info.plist`.
    ///
    /// - Parameter data: The property list (XML or binary).
    /// - Returns: `nil` when the data is not a dictionary property list with `GOOGLE_APP_ID` and `GCM_SENDER_ID`.
    public convenience init?(googleServiceInfoPlist data: Data) {
        guard
            let plist = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil),
            let values = plist as? [String: Any],
            let appID = values["GOOGLE_APP_ID"] as? String,
            let senderID = values["GCM_SENDER_ID"] as? String
        else { return nil }
        self.init(googleAppID: appID, gcmSenderID: senderID)
        apiKey = values["API_KEY"] as? String
        projectID = values["PROJECT_ID"] as? String
        bundleID = values["BUNDLE_ID"] as? String
        clientID = values["CLIENT_ID"] as? String
        storageBucket = values["STORAGE_BUCKET"] as? String
        databaseURL = values["DATABASE_URL"] as? String
    }

    /// Reads options from an Android `google-services.json` file.
    ///
    /// See ``init(googleServicesJSON:)`` for the fields read.
    ///
    /// ```swift
    /// let options = FirebaseOptions(contentsOfGoogleServicesFile: "google-services.json")
    /// ```
    ///
    /// - Parameter path: The file's path.
    /// - Returns: `nil` when the file is missing or lacks the required fields.
    public convenience init?(contentsOfGoogleServicesFile path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        self.init(googleServicesJSON: data)
    }

    /// Reads options from the bytes of an Android `google-services.json`.
    ///
    /// Fields: `project_info.project_id` (project ID), `project_info.project_number` (sender ID),
    /// `project_info.storage_bucket`, `project_info.firebase_url` (database URL), and from the first client
    /// `client_info.mobilesdk_app_id` (app ID) and `api_key[0].current_key` (API key).
    ///
    /// - Parameter data: The JSON document.
    /// - Returns: `nil` when the document lacks `project_info.project_number` or the first client's app ID.
    public convenience init?(googleServicesJSON data: Data) {
        guard
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let project = root["project_info"] as? [String: Any],
            let projectNumber = project["project_number"] as? String,
            let client = (root["client"] as? [[String: Any]])?.first,
            let appID = (client["client_info"] as? [String: Any])?["mobilesdk_app_id"] as? String
        else { return nil }
        self.init(googleAppID: appID, gcmSenderID: projectNumber)
        projectID = project["project_id"] as? String
        storageBucket = project["storage_bucket"] as? String
        databaseURL = project["firebase_url"] as? String
        apiKey = ((client["api_key"] as? [[String: Any]])?.first)?["current_key"] as? String
    }
}
