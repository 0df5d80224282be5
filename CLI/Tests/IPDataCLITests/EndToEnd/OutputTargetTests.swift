// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import CLILibC
import XCTest

/// `--output` writes what it names as that thing is: a device, a FIFO, a socket or a standard
/// stream in place, a regular file by replacing it; and it does not follow a symbolic link that
/// another user planted in a shared folder.
///
/// Each test runs as root in a private mount namespace (`unshare -m`) whose `/dev` is a throwaway
/// tmpfs (`null`, `zero`, `urandom` made with mknod, `stdout` and the others as links to
/// `/proc/self/fd`), so the machine's own `/dev` is never written. The other user is a uid without
/// an account (4242), the ordinary user `nobody` (65534, through setpriv). The records come from
/// `--sandbox`: no server, no key.
final class OutputTargetTests: CommandLineTestCase {
    override class var needsServer: Bool { false }

    /// 600 addresses, a hot one every tenth line: about 700 KB of records, more than a pipe holds.
    private func bigInput() throws -> URL {
        let lines = (0..<600).map { $0 % 10 == 3 ? "8.8.8.8" : "9.1.\($0 / 256).\($0 % 256)" }
        return try makeFile(lines.joined(separator: "\n") + "\n", named: "big.txt")
    }

    /// What `ipdata bulk --sandbox` writes for `input` on standard output, the bytes to expect.
    private func expectedOutput(_ input: URL, _ options: [String] = []) throws -> Data {
        let run = try ipdata(["bulk", "--sandbox", "-q", "--no-cache", input.path] + options, key: .absent)
        XCTAssertEqual(run.status, 0, run.stderr)
        if options.isEmpty { XCTAssertGreaterThan(run.stdoutBytes.count, 65_536) }
        return run.stdoutBytes
    }

    /// Runs `script` with sh as root in a private mount namespace with a throwaway `/dev`; the
    /// script finds the binary in `$IPDATA` and the test's folder in `$DIR`. Skips (fails with
    /// `IPDATA_INTEGRATION_REQUIRED=1`) without root or util-linux unshare.
    private func inPrivateNamespace(_ script: String, folder: URL) throws -> BuiltBinary.Run {
        #if !os(Linux)
        throw XCTSkip("needs Linux mount namespaces (unshare -m) and a throwaway /dev")
        #else
        let unshare = ["/usr/bin/unshare", "/bin/unshare"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let reason =
            geteuid() != 0
            ? "needs root, for a private mount namespace with a throwaway /dev (CI runs as root)"
            : "needs util-linux unshare, for a private mount namespace with a throwaway /dev"
        guard geteuid() == 0, let unshare else {
            if ProcessInfo.processInfo.environment["IPDATA_INTEGRATION_REQUIRED"] == "1" { XCTFail(reason) }
            throw XCTSkip(reason)
        }
        let preamble = #"""
            set -u
            mount -t tmpfs -o mode=755 ipdata-test-dev /dev || exit 125
            mknod -m 666 /dev/null c 1 3 && mknod -m 666 /dev/zero c 1 5 && mknod -m 666 /dev/urandom c 1 9 || exit 125
            ln -s /proc/self/fd /dev/fd && ln -s /proc/self/fd/0 /dev/stdin || exit 125
            ln -s /proc/self/fd/1 /dev/stdout && ln -s /proc/self/fd/2 /dev/stderr || exit 125

            """#
        let run = { (script: String) in
            try BuiltBinary.run(
                ["--mount", "--propagation", "private", "/bin/sh", "-c", preamble + script],
                executable: URL(fileURLWithPath: unshare),
                environment: self.childEnvironment(
                    key: nil, extra: ["IPDATA": BuiltBinary.url.path, "DIR": folder.path]))
        }
        // A container without CAP_SYS_ADMIN may not make a namespace or mount in it.
        let probe = try run("exit 0")
        guard probe.status == 0 else {
            let reason = "cannot make a private mount namespace with a throwaway /dev here: \(probe.stderr)"
            if ProcessInfo.processInfo.environment["IPDATA_INTEGRATION_REQUIRED"] == "1" { XCTFail(reason) }
            throw XCTSkip(reason)
        }
        return try run(script)
        #endif
    }

    /// The names in `folder` that an output left behind: `.NAME.ipdata-XXXXXX`.
    private func temporaryFiles(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".ipdata-") }
    }

    // MARK: Devices, FIFOs, sockets and standard streams

    func testAsRootDevNullStaysACharacterDeviceAndTheRunSucceeds() throws {
        let input = try bigInput()
        let folder = input.deletingLastPathComponent()
        let run = try inPrivateNamespace(
            #"""
            "$IPDATA" bulk --sandbox -q --no-cache "$DIR/big.txt" --output /dev/null 2>"$DIR/stderr"; echo "status $?"
            stat -c '%F %t:%T' /dev/null
            ls -A /dev | tr '\n' ' '; echo
            printf 'discarded' > /dev/null; echo "reads back $(wc -c < /dev/null)"
            """#, folder: folder)
        XCTAssertEqual(
            run.stdoutLines,
            ["status 0", "character special file 1:3", "fd null stderr stdin stdout urandom zero ", "reads back 0"],
            run.stderr)
        XCTAssertEqual(try String(contentsOf: folder.appendingPathComponent("stderr"), encoding: .utf8), "")
    }

    func testStandardOutputByItsPathsReachesAPipeReaderAndIsNotTruncated() throws {
        let input = try bigInput()
        let folder = input.deletingLastPathComponent()
        let expected = try expectedOutput(input)
        let run = try inPrivateNamespace(
            #"""
            for target in /dev/stdout /dev/fd/1 /proc/self/fd/1; do
                name=$(echo "$target" | tr / _)
                ( "$IPDATA" bulk --sandbox -q --no-cache "$DIR/big.txt" --output "$target"; echo "$target $?" >"$DIR/status$name" ) |
                    cat >"$DIR/piped$name"
                cat "$DIR/status$name"
            done
            # Standard output a file opened for appending: written where it stands, nothing truncated.
            printf 'kept\n' >"$DIR/appended"
            "$IPDATA" bulk --sandbox -q --no-cache "$DIR/big.txt" --output /dev/stdout >>"$DIR/appended"; echo "appended $?"
            # A descriptor the shell gave, and one it did not.
            "$IPDATA" bulk --sandbox -q --no-cache "$DIR/big.txt" --output /dev/fd/3 3>"$DIR/given"; echo "given $?"
            "$IPDATA" bulk --sandbox -q --no-cache "$DIR/big.txt" --output /dev/fd/7 2>"$DIR/not-given"
            echo "not given $?"
            stat -c %F /dev/stdout
            """#, folder: folder)
        XCTAssertEqual(
            run.stdoutLines,
            [
                "/dev/stdout 0", "/dev/fd/1 0", "/proc/self/fd/1 0", "appended 0", "given 0", "not given 2",
                "symbolic link",
            ],
            run.stderr)
        XCTAssertTrue(try Data(contentsOf: folder.appendingPathComponent("given")) == expected)
        XCTAssertEqual(
            try String(contentsOf: folder.appendingPathComponent("not-given"), encoding: .utf8),
            "ipdata: cannot write to /dev/fd/7: no such descriptor is open\n")
        for name in ["_dev_stdout", "_dev_fd_1", "_proc_self_fd_1"] {
            let piped = try Data(contentsOf: folder.appendingPathComponent("piped" + name))
            XCTAssertEqual(piped.count, expected.count, name)
            XCTAssertTrue(piped == expected, "\(name): the pipe's reader got every byte, in order")
        }
        let appended = try Data(contentsOf: folder.appendingPathComponent("appended"))
        XCTAssertTrue(appended == Data("kept\n".utf8) + expected, "appended after what the file held")
    }

    func testAFIFOsReaderGetsEveryByte() throws {
        let input = try bigInput()
        let folder = input.deletingLastPathComponent()
        let expected = try expectedOutput(input)
        let run = try inPrivateNamespace(
            #"""
            mkfifo "$DIR/fifo"
            timeout 10 cat "$DIR/fifo" >"$DIR/from-fifo" &
            reader=$!
            "$IPDATA" bulk --sandbox -q --no-cache "$DIR/big.txt" --output "$DIR/fifo"; echo "status $?"
            wait "$reader"; echo "reader $?"
            stat -c %F "$DIR/fifo"
            """#, folder: folder)
        XCTAssertEqual(run.stdoutLines, ["status 0", "reader 0", "fifo"], run.stderr)
        let received = try Data(contentsOf: folder.appendingPathComponent("from-fifo"))
        XCTAssertEqual(received.count, expected.count)
        XCTAssertTrue(received == expected, "the FIFO's reader got every byte, in order")
        XCTAssertEqual(try temporaryFiles(in: folder), [])
    }

    func testASocketsReaderGetsEveryByte() throws {
        let input = try bigInput()
        let folder = input.deletingLastPathComponent()
        let expected = try expectedOutput(input, ["-f", "ip,country_code"])
        let run = try inPrivateNamespace(
            #"""
            timeout 10 python3 -c '
            import socket, sys
            server = socket.socket(socket.AF_UNIX)
            server.bind(sys.argv[1])
            server.listen(1)
            open(sys.argv[1] + ".ready", "w").close()
            connection, _ = server.accept()
            with open(sys.argv[2], "wb") as received:
                while True:
                    chunk = connection.recv(65536)
                    if not chunk:
                        break
                    received.write(chunk)
            ' "$DIR/socket" "$DIR/from-socket" &
            reader=$!
            while [ ! -e "$DIR/socket.ready" ]; do sleep 0.05; done
            "$IPDATA" bulk --sandbox -q --no-cache "$DIR/big.txt" -f ip,country_code --output "$DIR/socket"; echo "status $?"
            wait "$reader"; echo "reader $?"
            stat -c %F "$DIR/socket"
            """#, folder: folder)
        XCTAssertEqual(run.stdoutLines, ["status 0", "reader 0", "socket"], run.stderr)
        let received = try Data(contentsOf: folder.appendingPathComponent("from-socket"))
        XCTAssertTrue(received == expected, "the socket's reader got every byte, in order: \(received.count) bytes")
    }

    func testAnOrdinaryUserDiscardsTheOutputIntoDevNull() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            throw XCTSkip("needs util-linux setpriv, to run as an ordinary user")
        }
        let input = try bigInput()
        let folder = input.deletingLastPathComponent()
        let expected = try expectedOutput(input, ["-f", "ip"])
        let run = try inPrivateNamespace(
            #"""
            as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$DIR/nobody" "$@"; }
            as_nobody "$IPDATA" bulk --sandbox -q --no-cache "$DIR/big.txt" --output /dev/null; echo "null $?"
            as_nobody "$IPDATA" bulk --sandbox -q --no-cache "$DIR/big.txt" -f ip --output /dev/stdout >"$DIR/stdout"
            echo "stdout $?"
            stat -c '%F %t:%T' /dev/null
            """#, folder: folder)
        XCTAssertEqual(run.stdoutLines, ["null 0", "stdout 0", "character special file 1:3"], run.stderr)
        XCTAssertTrue(try Data(contentsOf: folder.appendingPathComponent("stdout")) == expected)
    }

    func testAFolderIsAClearErrorAndNothingIsWritten() throws {
        let input = try bigInput()
        let folder = input.deletingLastPathComponent()
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("results"), withIntermediateDirectories: false)
        let run = try inPrivateNamespace(
            #"""
            for target in "$DIR/results" "$DIR/results/" "$DIR/results/.."; do
                "$IPDATA" bulk --sandbox -q --no-cache "$DIR/big.txt" --output "$target" 2>>"$DIR/stderr"; echo "status $?"
            done
            """#, folder: folder)
        XCTAssertEqual(run.stdoutLines, ["status 2", "status 2", "status 2"], run.stderr)
        let messages = try String(contentsOf: folder.appendingPathComponent("stderr"), encoding: .utf8)
            .split(separator: "\n")
        XCTAssertEqual(messages.count, 3, "one line each: \(messages)")
        for (message, target) in zip(messages, ["results", "results/", "results/.."]) {
            XCTAssertTrue(message.hasPrefix("ipdata: cannot write to \(folder.path)/\(target): it "), String(message))
            XCTAssertTrue(message.hasSuffix("folder"), String(message))
        }
        XCTAssertEqual(try temporaryFiles(in: folder), [])
        XCTAssertEqual(
            try temporaryFiles(in: folder.deletingLastPathComponent()).filter {
                $0.hasPrefix("." + folder.lastPathComponent)
            }, [])
    }

    // MARK: Symbolic links

    /// Sets up, in `$DIR`: a sticky folder anyone can write to (`shared`, as /tmp is), and a
    /// folder only root reads (`private`) holding root's 0600 file `keys`.
    private let sharedAndPrivateFolders = #"""
        shared="$DIR/shared"
        mkdir "$shared" && chmod 1777 "$shared"
        mkdir "$DIR/private" && chmod 700 "$DIR/private"
        printf 'root secret\n' >"$DIR/private/keys" && chmod 600 "$DIR/private/keys"
        victim() { echo "victim $(stat -c '%i %a %u %s' "$DIR/private/keys") $(cat "$DIR/private/keys")"; }

        """#

    func testALinkAnotherUserPlantedInASharedFolderIsRefusedBeforeAnythingIsWritten() throws {
        let input = try bigInput()
        let folder = input.deletingLastPathComponent()
        let run = try inPrivateNamespace(
            sharedAndPrivateFolders + #"""
                victim
                # Planted by uid 4242: the output's own name, and a folder on the way to it.
                ln -s "$DIR/private/keys" "$shared/results.jsonl" && chown -h 4242:4242 "$shared/results.jsonl"
                ln -s "$DIR/private" "$shared/work" && chown -h 4242:4242 "$shared/work"
                # The user's own link, outside the shared folder, that leads to the planted one.
                ln -s "$shared/results.jsonl" "$DIR/latest.jsonl"
                for target in "$shared/results.jsonl" "$shared/work/keys" "$DIR/latest.jsonl"; do
                    "$IPDATA" bulk --sandbox -q --no-cache "$DIR/big.txt" --output "$target" 2>>"$DIR/stderr"; echo "status $?"
                done
                victim
                echo "link $(stat -c %u "$shared/results.jsonl") $(readlink "$shared/results.jsonl")"
                ls -A "$shared" "$DIR/private" | tr '\n' ' '; echo
                """#, folder: folder)
        let keys = folder.appendingPathComponent("private/keys").path
        XCTAssertEqual(run.stdoutLines.count, 7, run.stdout + run.stderr)
        let before = try XCTUnwrap(run.stdoutLines.first)
        XCTAssertTrue(before.hasPrefix("victim ") && before.hasSuffix(" 600 0 12 root secret"), before)
        XCTAssertEqual(Array(run.stdoutLines.dropFirst().prefix(3)), ["status 2", "status 2", "status 2"], run.stderr)
        XCTAssertEqual(run.stdoutLines[4], before, "root's 0600 file is the same file, unchanged")
        XCTAssertEqual(run.stdoutLines[5], "link 4242 \(keys)", "the planted link is left as it was")
        XCTAssertEqual(
            run.stdoutLines[6], "\(folder.path)/private: keys  \(folder.path)/shared: results.jsonl work ",
            "no temporary file anywhere")
        let messages = try String(contentsOf: folder.appendingPathComponent("stderr"), encoding: .utf8)
            .split(separator: "\n")
        XCTAssertEqual(messages.count, 3, "one line each: \(messages)")
        for message in messages {
            XCTAssertTrue(message.hasPrefix("ipdata: cannot write to "), String(message))
            XCTAssertTrue(
                message.contains(
                    "is a symbolic link that another user (uid 4242) made in a folder anyone can write to"),
                String(message))
        }
    }

    func testALinkTheUserOwnsOrOneOutsideASharedFolderIsFollowedAndKept() throws {
        let input = try bigInput()
        let folder = input.deletingLastPathComponent()
        let expected = try expectedOutput(input, ["-f", "ip"])
        let run = try inPrivateNamespace(
            sharedAndPrivateFolders + #"""
                # Root's own link in the shared folder.
                ln -s "$DIR/private/owned" "$shared/owned.jsonl"
                # uid 4242's link in a folder only root may write to, and in a sticky folder 4242 owns.
                mkdir "$DIR/plain" && ln -s "$DIR/private/plain" "$DIR/plain/out.jsonl"
                chown -h 4242:4242 "$DIR/plain/out.jsonl"
                mkdir "$DIR/theirs" && chmod 1777 "$DIR/theirs" && chown 4242:4242 "$DIR/theirs"
                ln -s "$DIR/private/theirs" "$DIR/theirs/out.jsonl" && chown -h 4242:4242 "$DIR/theirs/out.jsonl"
                for target in "$shared/owned.jsonl" "$DIR/plain/out.jsonl" "$DIR/theirs/out.jsonl"; do
                    "$IPDATA" bulk --sandbox -q --no-cache -f ip "$DIR/big.txt" --output "$target"; echo "status $?"
                    stat -c %F "$target"
                done
                """#, folder: folder)
        XCTAssertEqual(
            run.stdoutLines,
            ["status 0", "symbolic link", "status 0", "symbolic link", "status 0", "symbolic link"], run.stderr)
        for name in ["owned", "plain", "theirs"] {
            let written = try Data(contentsOf: folder.appendingPathComponent("private/" + name))
            XCTAssertTrue(written == expected, "\(name): the link's target holds the records")
        }
    }
}
#endif
