import Foundation

/// Reads one of the copied external vector files (see Vectors/README.md for their provenance).
func loadVectors(_ name: String) throws -> [String: Any] {
    guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Vectors") else {
        throw VectorError("vector file \(name).json is missing from the test bundle")
    }
    let data = try Data(contentsOf: url)
    guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
        throw VectorError("vector file \(name).json is not a JSON object")
    }
    return object
}

struct VectorError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
