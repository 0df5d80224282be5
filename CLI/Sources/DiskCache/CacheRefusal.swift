/// Why the cache is not used: its folder or one of its files is not safely the user's own. Its
/// description is one line, for the caller to print as a warning before it runs without the
/// cache.
package struct CacheRefusal: Error, Equatable, CustomStringConvertible {
    /// The cache's folder, as configured.
    package let folder: String
    /// What is wrong, as a clause: `the folder belongs to another user (uid 4242)`.
    package let reason: String

    /// The one line: `not using the cache in <folder>: <reason>`.
    package var description: String {
        "not using the cache in \(folder): \(reason)"
    }
}
