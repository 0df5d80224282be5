import DiskCache

/// What a run says about the disk cache on standard error.
enum CacheReport {
    /// The notice of a run without a summary line of its own (`enrich`, `summarize`).
    static func notice(_ hits: Int) -> String {
        "\(hits) answer\(hits == 1 ? "" : "s") from the cache (nothing paid for them)"
    }

    /// Says, once, that the cache could not be read or written, and why.
    static func problem(of cache: SQLiteLookupStore?, to console: Console) {
        guard let cache, let problem = cache.database.takeProblem() else { return }
        console.warning(
            "cannot use the cache in \(cache.database.configuration.directory) (\(problem)): answers were not kept")
    }
}
