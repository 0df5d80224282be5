import Foundation

/// What the cache holds, for `ipdata cache info`.
package struct CacheInfo: Equatable, Sendable {
    /// The entries, of every scope.
    package var entries = 0
    /// The entries that answer some lookup now: an answer of fields that name `threat` for the
    /// threat lifetime, any other (a full answer serves the fields other than `threat`) for the
    /// lifetime without threat data.
    package var live = 0
    /// The entries that answer no lookup any more, until they are replaced or evicted.
    package var expired = 0
    /// The bytes of the API's JSON the entries hold.
    package var answerBytes = 0
    /// The space the cache takes on disk, as `du` counts it: the blocks allocated to its folder,
    /// its database and SQLite's files beside it (`st_blocks` × 512).
    package var diskBytes = 0
    /// When the oldest entry was stored; nil without entries.
    package var oldest: Date?
    /// When the newest entry was stored; nil without entries.
    package var newest: Date?

    /// Nothing: the cache of a folder not created yet.
    package init() {}
}
