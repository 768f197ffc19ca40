// swift-format-ignore-file
// Hand-written in the shape (and the two-space indentation) of Google's generated Swift; see ../../Package.swift.

import Foundation

import FirebaseCore
import FirebaseDataConnect

public struct MovieKey {
  public private(set) var id: UUID

  enum CodingKeys: String, CodingKey {
    case id
  }
}

extension MovieKey: Codable {
  public init(from decoder: any Decoder) throws {
    var container = try decoder.container(keyedBy: CodingKeys.self)
    let codecHelper = CodecHelper<CodingKeys>()

    id = try codecHelper.decode(UUID.self, forKey: .id, container: &container)
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    let codecHelper = CodecHelper<CodingKeys>()

    try codecHelper.encode(id, forKey: .id, container: &container)
  }
}

extension MovieKey: Equatable {
  public static func == (lhs: MovieKey, rhs: MovieKey) -> Bool {
    if lhs.id != rhs.id {
      return false
    }

    return true
  }
}

extension MovieKey: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(id)
  }
}

extension MovieKey: Sendable {}
