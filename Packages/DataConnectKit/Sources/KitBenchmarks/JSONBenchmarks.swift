import DataConnectWire
import Foundation

/// Throughput of the DataConnectWire JSON writer and reader against Foundation's `JSONSerialization`.
///
/// The document is a realistic GraphQL response of about 1 MB: `{"data": {"movies": [...]}}` with 2,000 movie
/// objects holding ids, titles with Unicode and characters that need escaping, integers, doubles, booleans,
/// nulls and nested objects and arrays. Foundation gets the same data as `NSDictionary`/`NSArray` objects.
enum JSONBenchmarks {
    /// The number of movies in the benchmark document.
    static let movieCount = 2_000

    /// Runs the JSON benchmarks and returns one row per measurement.
    static func run() throws -> [BenchmarkResult] {
        let document = makeDocument()
        let foundationDocument = makeFoundationObject(document)
        let bytes = JSONWriter.serialize(document)
        let data = Data(bytes)
        let megabytes = Double(bytes.count) / 1_000_000

        // Writing.
        let writerSeconds = medianSeconds {
            var writer = JSONWriter(capacity: bytes.count)
            writer.write(document)
            blackHole(writer.bytes)
        }
        let streamingSeconds = medianSeconds {
            blackHole(writeMoviesDirectly())
        }
        let foundationWriteSeconds = try medianSeconds(warmup: 1, iterations: 5) {
            blackHole(try JSONSerialization.data(withJSONObject: foundationDocument))
        }

        // Reading.
        let readerSeconds = try medianSeconds {
            blackHole(try JSONReader().parse(bytes))
        }
        let foundationReadSeconds = try medianSeconds(warmup: 1, iterations: 7) {
            blackHole(try JSONSerialization.jsonObject(with: data))
        }

        let writerRate = megabytes / writerSeconds
        let streamingRate = megabytes / streamingSeconds
        let foundationWriteRate = megabytes / foundationWriteSeconds
        let readerRate = megabytes / readerSeconds
        let foundationReadRate = megabytes / foundationReadSeconds
        let size = String(format: "%.2f MB, %d movies", megabytes, movieCount)
        return [
            BenchmarkResult(
                name: "JSONWriter.write(JSONValue)", value: writerRate, unit: "MB/s",
                detail: String(
                    format: "%.1fx JSONSerialization.data (%.1f MB/s); %@",
                    writerRate / foundationWriteRate, foundationWriteRate, size
                )
            ),
            BenchmarkResult(
                name: "JSONWriter calls, no JSONValue", value: streamingRate, unit: "MB/s",
                detail: String(format: "%.1fx JSONSerialization.data", streamingRate / foundationWriteRate)
            ),
            BenchmarkResult(
                name: "JSONSerialization.data(withJSONObject:)", value: foundationWriteRate, unit: "MB/s",
                detail: "baseline"
            ),
            BenchmarkResult(
                name: "JSONReader.parse", value: readerRate, unit: "MB/s",
                detail: String(
                    format: "%.1fx JSONSerialization.jsonObject (%.1f MB/s); %@",
                    readerRate / foundationReadRate, foundationReadRate, size
                )
            ),
            BenchmarkResult(
                name: "JSONSerialization.jsonObject(with:)", value: foundationReadRate, unit: "MB/s",
                detail: "baseline"
            ),
        ]
    }

    // MARK: The document

    private static let genres = ["sci-fi", "drama", "comedy", "thriller", "animation", "documentary"]
    private static let directors = ["Ridley Scott", "Agnès Varda", "Hayao Miyazaki", "Bong Joon-ho", "Céline Sciamma"]
    private static let titleWords = ["Alien", "Cléo", "Spirited", "Parasite", "Portrait", "Nights", "Über", "東京"]

    private static func movieID(_ index: Int) -> String {
        let hex = String(index, radix: 16)
        return "0b6f3c2e9d8a4f51a2c7" + String(repeating: "0", count: 12 - hex.count) + hex
    }

    private static func title(_ index: Int) -> String {
        "\(titleWords[index % titleWords.count]) \(titleWords[(index / 8) % titleWords.count]) #\(index)"
    }

    private static func movieDescription(_ index: Int) -> String {
        "A \"quoted\" story (part \(index)) about\tlove & loss.\n★★★★☆ — «remarkable» \\o/ 🎬"
    }

    /// Builds the response document as a ``JSONValue``.
    static func makeDocument() -> JSONValue {
        var movies: [JSONValue] = []
        movies.reserveCapacity(movieCount)
        for index in 0..<movieCount {
            let director = directors[index % directors.count]
            let movie: JSONObject = [
                "id": .string(movieID(index)),
                "title": .string(title(index)),
                "releaseYear": JSONValue(1950 + index % 75),
                "rating": JSONValue(Double(index % 100) / 10 + 0.25),
                "genre": .string(genres[index % genres.count]),
                "description": .string(movieDescription(index)),
                "tags": .array([.string(genres[index % genres.count]), "classic", "4k"]),
                "isFeatured": .bool(index % 7 == 0),
                "sequel": .null,
                "metadata": [
                    "director": ["id": .string(movieID(index * 31)), "name": .string(director)],
                    "budget": JSONValue(1_000_000 * (index % 200 + 1)),
                    "boxOffice": JSONValue(Double(index) * 12_345.678 + 0.5),
                ],
                "reviews": [
                    ["rating": JSONValue(index % 5 + 1), "text": "Great!"],
                    ["rating": 3, "text": .string("Solid, if \"long\" — \(index) minutes")],
                ],
            ]
            movies.append(.object(movie))
        }
        return ["data": ["movies": .array(movies)]]
    }

    /// Converts a document to the Foundation objects `JSONSerialization` works with.
    static func makeFoundationObject(_ value: JSONValue) -> Any {
        switch value {
        case .null:
            return NSNull()
        case .bool(let flag):
            return NSNumber(value: flag)
        case .number(let number):
            if let integer = number.int64Value, number.numberValueIsPlainInteger {
                return NSNumber(value: integer)
            }
            return NSNumber(value: number.doubleValue)
        case .string(let text):
            return NSString(string: text)
        case .array(let elements):
            return NSArray(array: elements.map(makeFoundationObject))
        case .object(let object):
            let dictionary = NSMutableDictionary(capacity: object.count)
            for (key, member) in object {
                dictionary[NSString(string: key)] = makeFoundationObject(member)
            }
            return dictionary
        }
    }

    /// Writes the same movies straight from Swift values with writer calls, as a server does.
    static func writeMoviesDirectly() -> [UInt8] {
        var writer = JSONWriter(capacity: 1 << 20)
        writer.beginObject()
        writer.key("data")
        writer.beginObject()
        writer.key("movies")
        writer.beginArray()
        for index in 0..<movieCount {
            writer.beginObject()
            writer.key("id")
            writer.string(movieID(index))
            writer.key("title")
            writer.string(title(index))
            writer.key("releaseYear")
            writer.int(1950 + index % 75)
            writer.key("rating")
            writer.double(Double(index % 100) / 10 + 0.25)
            writer.key("genre")
            writer.string(genres[index % genres.count])
            writer.key("description")
            writer.string(movieDescription(index))
            writer.key("isFeatured")
            writer.bool(index % 7 == 0)
            writer.key("sequel")
            writer.null()
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        writer.endObject()
        return writer.bytes
    }
}

extension JSONNumber {
    /// Whether the number is written as a plain integer (so Foundation gets an integer `NSNumber`).
    fileprivate var numberValueIsPlainInteger: Bool {
        !text.contains(".") && !text.contains("e") && !text.contains("E")
    }
}
