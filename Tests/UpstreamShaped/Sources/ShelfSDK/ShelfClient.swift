// swift-format-ignore-file
// Hand-written in the shape (and the two-space indentation) of Google's generated Swift; see ../../Package.swift.

import Foundation

import FirebaseCore
import FirebaseDataConnect

public extension DataConnect {
  static let shelfConnector: ShelfConnector = {
    let dc = DataConnect.dataConnect(
      connectorConfig: ShelfConnector.connectorConfig,
      callerSDKType: .generated
    )
    return ShelfConnector(dataConnect: dc)
  }()
}

public class ShelfConnector {
  let dataConnect: DataConnect

  public static let connectorConfig = ConnectorConfig(
    serviceId: "movies",
    location: "us-central1",
    connector: "movies"
  )

  init(dataConnect: DataConnect) {
    self.dataConnect = dataConnect

    // init operations
    createMovieMutation = CreateMovieMutation(dataConnect: dataConnect)
    updateMovieMutation = UpdateMovieMutation(dataConnect: dataConnect)
    listMoviesQuery = ListMoviesQuery(dataConnect: dataConnect)
    getMovieByIdQuery = GetMovieByIdQuery(dataConnect: dataConnect)
    searchMoviesQuery = SearchMoviesQuery(dataConnect: dataConnect)
  }

  public func useEmulator(host: String = DataConnect.EmulatorDefaults.host,
                          port: Int = DataConnect.EmulatorDefaults.port) {
    dataConnect.useEmulator(host: host, port: port)
  }

  // MARK: Operations

  public let createMovieMutation: CreateMovieMutation
  public let updateMovieMutation: UpdateMovieMutation
  public let listMoviesQuery: ListMoviesQuery
  public let getMovieByIdQuery: GetMovieByIdQuery
  public let searchMoviesQuery: SearchMoviesQuery
}
