import CLILibC
import Foundation

/// The cache's folder and the database's files in it (`answers.sqlite`, and SQLite's `-wal` and
/// `-shm` beside it), checked before SQLite opens any of them.
///
/// The folder must be a folder, not a symbolic link, owned by the user (the effective user id)
/// and writable by no one else; each of the files that exists must be a regular file, not a
/// link, owned by the user and writable by no one else. A file readable by others is made 0600.
/// A check opens nothing but with `O_NOFOLLOW | O_NONBLOCK`, so that a FIFO or a device at a
/// file's name is refused at once, never waited on. The folder's parents are not checked: a
/// parent that another user may write to lets that user swap the folder between the check and
/// SQLite's open (choose `IPDATA_CACHE_DIR` in a folder of your own).
struct CacheFolder {
    /// The folder as configured, for messages.
    let path: String
    /// The folder with its parents' symbolic links resolved, which SQLite is given (it refuses a
    /// path with any link in it).
    let resolvedPath: String

    /// The database's file name in the folder.
    static let databaseName = "answers.sqlite"
    /// The database's file and SQLite's files beside it.
    static let fileNames = [databaseName, databaseName + "-wal", databaseName + "-shm"]

    var databasePath: String {
        resolvedPath + "/" + Self.databaseName
    }

    /// The folder at `path`, created (mode 0700, as are the parents it creates) when missing and
    /// `creating`, then checked; nil when it is missing and not `creating`.
    static func checked(_ path: String, creating: Bool) throws(CacheRefusal) -> CacheFolder? {
        var status = stat()
        if lstat(path, &status) != 0 {
            guard errno == ENOENT || errno == ENOTDIR else {
                throw CacheRefusal(folder: path, reason: "cannot read it (\(lastError()))")
            }
            guard creating else { return nil }
            try createFolders(path)
        }
        try check(path, name: "it", folder: path, isFolder: true)
        guard let resolved = realpath(path, nil) else {
            throw CacheRefusal(folder: path, reason: "cannot resolve its path (\(lastError()))")
        }
        defer { free(resolved) }
        return CacheFolder(path: path, resolvedPath: String(cString: resolved))
    }

    /// Creates `path` and its missing parents, each with mode 0700.
    private static func createFolders(_ path: String) throws(CacheRefusal) {
        var parent = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            parent += "/" + component
            if mkdir(parent, 0o700) != 0, errno != EEXIST {
                throw CacheRefusal(folder: path, reason: "cannot create \(parent) (\(lastError()))")
            }
        }
    }

    /// Checks the database's files that exist; returns whether the database file does.
    func checkFiles() throws(CacheRefusal) -> Bool {
        var databaseExists = false
        for name in Self.fileNames {
            let exists = try Self.check(resolvedPath + "/" + name, name: name, folder: path, isFolder: false)
            if name == Self.databaseName { databaseExists = exists }
        }
        return databaseExists
    }

    /// Creates the empty database file, mode 0600, unless it exists; SQLite gives its `-wal` and
    /// `-shm` files the database file's mode.
    func createDatabaseFile() throws(CacheRefusal) {
        let descriptor = open(databasePath, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if descriptor < 0 {
            guard errno == EEXIST else { throw refusal("cannot create \(Self.databaseName) (\(Self.lastError()))") }
            _ = try checkFiles()
            return
        }
        fchmod(descriptor, 0o600)
        close(descriptor)
    }

    /// Removes the database's files (a damaged database, before it is built again), after
    /// checking them again: only regular files of the user's go.
    func removeDatabaseFiles() throws(CacheRefusal) {
        _ = try checkFiles()
        for name in Self.fileNames {
            if unlink(resolvedPath + "/" + name) != 0, errno != ENOENT {
                throw refusal("cannot remove \(name) (\(Self.lastError()))")
            }
        }
    }

    /// The space the folder and the database's files take, as `du` counts it: the blocks
    /// allocated to each (`st_blocks` × 512).
    func diskBytes() -> Int {
        var total = 0
        var status = stat()
        for path in [resolvedPath] + Self.fileNames.map({ resolvedPath + "/" + $0 }) where lstat(path, &status) == 0 {
            total += Int(status.st_blocks) * 512
        }
        return total
    }

    func refusal(_ reason: String) -> CacheRefusal {
        CacheRefusal(folder: path, reason: reason)
    }

    /// Checks the folder or file at `path`, when it exists (see the type's description); returns
    /// whether it exists.
    @discardableResult
    private static func check(
        _ path: String, name: String, folder: String, isFolder: Bool
    ) throws(CacheRefusal) -> Bool {
        let kind = isFolder ? "a folder" : "a regular file"
        func refuse(_ reason: String) -> CacheRefusal { CacheRefusal(folder: folder, reason: reason) }
        var linkStatus = stat()
        if lstat(path, &linkStatus) != 0 {
            if errno == ENOENT { return false }
            throw refuse("cannot read \(name) (\(lastError()))")
        }
        if (linkStatus.st_mode & S_IFMT) == S_IFLNK { throw refuse("\(name) is a symbolic link") }
        guard (linkStatus.st_mode & S_IFMT) == (isFolder ? S_IFDIR : S_IFREG) else {
            throw refuse("\(name) is not \(kind)")
        }
        // What is opened is checked, not what the name pointed to a moment before.
        let flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | (isFolder ? O_DIRECTORY : 0)
        let descriptor = open(path, flags, 0)
        guard descriptor >= 0 else { throw refuse("cannot open \(name) (\(lastError()))") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw refuse("cannot read \(name) (\(lastError()))") }
        guard (status.st_mode & S_IFMT) == (isFolder ? S_IFDIR : S_IFREG), status.st_ino == linkStatus.st_ino else {
            throw refuse("\(name) is not \(kind)")
        }
        guard status.st_uid == geteuid() else { throw refuse("\(name) belongs to another user (uid \(status.st_uid))") }
        let mode = status.st_mode & 0o7777
        guard mode & 0o022 == 0 else {
            throw refuse("\(name) is writable by others (mode \(String(mode, radix: 8)))")
        }
        if !isFolder, mode & 0o077 != 0 { fchmod(descriptor, 0o600) }
        return true
    }

    private static func lastError() -> String {
        String(cString: strerror(errno))
    }
}
