import CLILibC

/// What standard input is connected to.
enum StandardInput {
    /// Whether standard input is a pipe or a regular file (`cat ips.txt | ipdata`,
    /// `ipdata < ips.txt`), as ipinfo's CLI decides: then `ipdata` without arguments reads its
    /// addresses from it. A terminal, `/dev/null` or any other device is not, nor is a closed one.
    static var isPipeOrFile: Bool {
        var info = stat()
        guard fstat(STDIN_FILENO, &info) == 0 else { return false }
        let type = info.st_mode & S_IFMT
        return type == S_IFIFO || type == S_IFREG
    }
}
