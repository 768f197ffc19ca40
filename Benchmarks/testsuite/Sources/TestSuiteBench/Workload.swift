import DataConnectTesting
import FirebaseDataConnect
import Foundation
import ShopConnector

/// The operations a test of the shop app runs through the generated SDK, with the checks a test makes.
///
/// One test is a cycle of eight operations on a product of its own: insert it, get it by key, change its price,
/// find it in a filtered list, insert a review of it (signed in), read it with its reviews (one-to-many, with each
/// review's author), delete the review, delete the product. A cycle leaves the database as it found it, so every
/// cycle of every round sees the seed. Any answer other than the expected one stops the benchmark.
struct Workload {
    /// The operations of one cycle, in order.
    enum Operation: Int, CaseIterable {
        case insertProduct, getProduct, updatePrice, listInCategory, insertReview, readWithReviews, deleteReview,
            deleteProduct

        /// The generated SDK call, for the tables.
        var call: String {
            switch self {
            case .insertProduct: "createProductMutation"
            case .getProduct: "getProductQuery"
            case .updatePrice: "updateProductPriceMutation"
            case .listInCategory: "listProductsInCategoryQuery"
            case .insertReview: "addReviewMutation"
            case .readWithReviews: "getProductWithReviewsQuery"
            case .deleteReview: "deleteReviewMutation"
            case .deleteProduct: "deleteProductMutation"
            }
        }

        /// What kind of operation it is, for the tables.
        var kind: String {
            switch self {
            case .insertProduct, .insertReview: "insert"
            case .getProduct: "get by key"
            case .updatePrice: "update"
            case .listInCategory: "list with a filter (at most 10 rows)"
            case .readWithReviews: "nested one-to-many read"
            case .deleteReview, .deleteProduct: "delete"
            }
        }
    }

    /// Operations in one round: 125 tests of 8.
    static let operationsPerRound = 1_000
    /// Tests (cycles) in one round.
    static var cyclesPerRound: Int { operationsPerRound / Operation.allCases.count }

    /// The seed's user who writes the reviews.
    static let reviewer = "uid-alice"
    /// The display name of ``reviewer`` in the seed.
    static let reviewerName = "Alice"

    /// The seed's organisation, which sells the benchmark's products.
    let organisation = Workload.seedID(table: 1, row: 1)
    /// The seed's four categories; cycle `n` uses category `n % 4`.
    let categories = (1...4).map { Workload.seedID(table: 3, row: $0) }

    /// The shared generated connector, as the app uses it; made on first use (the first operation).
    var shop: ShopConnector { DataConnect.shopConnector }

    /// A seed id: `<table number>-0000-4000-8000-<row>` (see `backend/seed_data.gql`).
    static func seedID(table: Int, row: Int) -> UUID {
        let text = String(format: "%08x-0000-4000-8000-%012x", table, row)
        guard let id = UUID(uuidString: text) else { preconditionFailure("\(text) is a UUID") }
        return id
    }

    /// The first operation of a fresh process: a product inserted through the generated SDK.
    ///
    /// - Returns: The new product's id, which the server generated (`uuidV4()`).
    @MainActor
    func firstOperation(sku: String) async throws -> UUID {
        let result = try await shop.createProductMutation.execute(
            sku: sku, name: "First product", price: 12.5, categoryId: categories[0],
            organisationId: organisation)
        let id = result.data.product_insert.id
        try expect(result.source == .server, "the insert was not answered by the server")
        try expect(id.uuidString.dropFirst(14).first == "4", "\(id) is not a version-4 UUID from uuidV4()")
        return id
    }

    /// Runs one test: the eight operations on a product of its own, recording each one's time in `times`.
    ///
    /// - Parameters:
    ///   - sku: A stock-keeping unit no other cycle uses.
    ///   - number: The cycle's number in its round, which picks the category, prices and rating.
    ///   - times: Nanoseconds per operation, appended to.
    @MainActor
    func cycle(sku: String, number: Int, times: inout [Operation: [UInt64]]) async throws {
        let category = categories[number % categories.count]
        let price = 5_000 + Double(number)
        let newPrice = 6_000 + Double(number)
        let rating = 1 + number % 5
        let created = try await timed(.insertProduct, &times) {
            try await shop.createProductMutation.execute(
                sku: sku, name: "Product \(number)", price: price, categoryId: category,
                organisationId: organisation
            ) { $0.stock = 3 }
        }
        let id = created.data.product_insert.id

        let fetched = try await timed(.getProduct, &times) { try await shop.getProductQuery.execute(id: id) }
        guard let product = fetched.data.product else { throw BenchFailure("getProduct: \(id) not found") }
        try expect(
            product.id == id && product.sku == sku && product.price == price && product.stock == 3 && product.active
                && product.category.id == category,
            "getProduct: unexpected \(product)")

        let updated = try await timed(.updatePrice, &times) {
            try await shop.updateProductPriceMutation.execute(id: id, price: newPrice)
        }
        try expect(
            updated.data.product_update?.id == id, "updateProductPrice: unexpected \(String(describing: updated.data))")

        let listed = try await timed(.listInCategory, &times) {
            try await shop.listProductsInCategoryQuery.execute(categoryId: category, minPrice: 6_000)
        }
        try expect(
            listed.data.products.map(\.id) == [id] && listed.data.products.first?.price == newPrice,
            "listProductsInCategory: unexpected \(listed.data.products)")

        let reviewed = try await timed(.insertReview, &times) {
            try await shop.addReviewMutation.execute(productId: id, rating: rating) { $0.body = "Review of \(sku)" }
        }
        let reviewID = reviewed.data.review_insert.id

        let read = try await timed(.readWithReviews, &times) {
            try await shop.getProductWithReviewsQuery.execute(id: id)
        }
        let reviews = read.data.product?.reviews ?? []
        try expect(
            reviews.count == 1 && reviews[0].id == reviewID && reviews[0].rating == rating
                && reviews[0].body == "Review of \(sku)" && reviews[0].user.id == Self.reviewer
                && reviews[0].user.displayName == Self.reviewerName,
            "getProductWithReviews: unexpected \(String(describing: read.data))")

        let unreviewed = try await timed(.deleteReview, &times) {
            try await shop.deleteReviewMutation.execute(id: reviewID)
        }
        try expect(
            unreviewed.data.review_delete?.id == reviewID,
            "deleteReview: unexpected \(String(describing: unreviewed.data))")

        let deleted = try await timed(.deleteProduct, &times) { try await shop.deleteProductMutation.execute(id: id) }
        try expect(
            deleted.data.product_delete?.id == id, "deleteProduct: unexpected \(String(describing: deleted.data))")
    }

    /// Runs one round: ``cyclesPerRound`` tests, each in an `attach` of its own and signed in as ``reviewer``,
    /// one after another as a suite runs them.
    ///
    /// - Returns: The round's wall time in nanoseconds, tests' `attach` and sign-in included.
    @MainActor
    func round(_ number: Int, on emulator: TestEmulator, times: inout [Operation: [UInt64]]) async throws -> UInt64 {
        let start = monotonicNanoseconds()
        for cycle in 0..<Self.cyclesPerRound {
            try await emulator.attach {
                let auth = EmulatorAuth()
                shop.setAuthTokenProvider(auth)
                auth.signIn(uid: Self.reviewer)
                try await self.cycle(sku: "BENCH-\(number)-\(cycle)", number: cycle, times: &times)
            }
        }
        return monotonicNanoseconds() - start
    }

    /// Runs `body`, appending its time in nanoseconds to `times[operation]` (checks of the answer are not timed).
    @MainActor
    private func timed<Value>(
        _ operation: Operation, _ times: inout [Operation: [UInt64]], _ body: () async throws -> Value
    ) async rethrows -> Value {
        let start = monotonicNanoseconds()
        let value = try await body()
        times[operation, default: []].append(monotonicNanoseconds() - start)
        return value
    }

    private func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw BenchFailure(message()) }
    }
}
