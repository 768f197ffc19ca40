@_exported import FirebaseCore
