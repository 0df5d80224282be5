// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

@testable import ipdata_cli

/// `ipdata summarize --html`'s page in a real browser, headless Chromium with the network cut
/// off (every request goes to a loopback proxy that counts it and answers 502; host names do not
/// resolve): the map is rendered, the screenshot is not blank, and the page fetched nothing.
///
/// Skipped without Chromium (Debian's `chromium`), unless `IPDATA_BROWSER_REQUIRED=1`, as CI
/// sets it after installing Chromium. `IPDATA_REPORT_SCREENSHOT=PATH` keeps the screenshot.
final class HTMLReportBrowserTests: CommandLineTestCase {
    override class var needsServer: Bool { false }

    /// Hosts that Chromium itself calls at start (component updates, sign-in, network time),
    /// whatever the page: their requests are the browser's, not the page's. The hosts the probe
    /// run calls, other than the probe's, are added to them.
    static let browserOwnHosts: Set<String> = ["update.googleapis.com", "accounts.google.com", "clients2.google.com"]

    private func chromium() throws -> URL {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for folder in path {
            for name in ["chromium", "chromium-browser"] {
                let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            }
        }
        let reason =
            "no chromium on PATH (Debian: apt-get install chromium): the HTML report is not opened in a browser"
        if ProcessInfo.processInfo.environment["IPDATA_BROWSER_REQUIRED"] == "1" { XCTFail(reason) }
        throw XCTSkip(reason)
    }

    /// A proxy on a free loopback port that writes each request's first line to `log`.
    private func startProxy(log: URL) throws -> (process: Process, port: Int) {
        let script = """
            import socketserver, sys
            log = open(sys.argv[1], "a", buffering=1)
            class Handler(socketserver.StreamRequestHandler):
                def handle(self):
                    line = self.rfile.readline(65537).decode("latin-1").strip()
                    if line:
                        log.write(line + "\\n")
                    self.wfile.write(b"HTTP/1.1 502 Bad Gateway\\r\\nContent-Length: 0\\r\\nConnection: close\\r\\n\\r\\n")
            server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, log.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var text = ""
        while !text.contains("\n") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        let port = try XCTUnwrap(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), "the proxy's port")
        return (process, port)
    }

    /// Opens `page` in headless Chromium through the proxy: its DOM after load, and a screenshot.
    private func open(_ page: URL, proxy port: Int, screenshot: URL?) throws -> String {
        let profile = try makeTemporaryDirectory()
        var arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile.path)", "--no-first-run",
            "--no-default-browser-check", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--disable-default-apps", "--hide-scrollbars", "--proxy-server=http://127.0.0.1:\(port)",
            "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
        ]
        if let screenshot {
            arguments += ["--window-size=1000,1250", "--screenshot=\(screenshot.path)"]
        } else {
            arguments.append("--dump-dom")
        }
        let run = try BuiltBinary.run(
            arguments + [page.absoluteString], executable: try chromium(),
            environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": home.path],
            timeout: 90)
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.stdout
    }

    /// The host of each request in the proxy's log: `CONNECT host:443 …` or `GET http://host/… …`.
    private func requestedHosts(_ log: URL) -> [String] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard words.count > 1 else { return nil }
            var target = Substring(words[1])
            if let scheme = target.range(of: "://") { target = target[scheme.upperBound...] }
            return String(target.prefix { $0 != ":" && $0 != "/" })
        }
    }

    /// What Python finds in a PNG screenshot (argv[1]): its size, the share of pixels that are
    /// not white, and how many pixels have each of the map's fills (the colours the page uses).
    private static let pixelCount = #"""
        import json, struct, sys, zlib
        data = open(sys.argv[1], "rb").read()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        offset, chunks = 8, {}
        while offset < len(data):
            length, kind = struct.unpack(">I4s", data[offset:offset + 8])
            chunks.setdefault(kind, []).append(data[offset + 8:offset + 8 + length])
            offset += 12 + length
        width, height, depth, colour = struct.unpack(">IIBB", chunks[b"IHDR"][0][:10])
        assert depth == 8 and colour in (2, 6), (depth, colour)
        step = 3 if colour == 2 else 4
        raw = zlib.decompress(b"".join(chunks[b"IDAT"]))
        stride, rows, previous, pos = width * step, [], bytearray(width * step), 0
        for _ in range(height):
            kind, line = raw[pos], bytearray(raw[pos + 1:pos + 1 + stride])
            pos += 1 + stride
            for i in range(stride):
                a = line[i - step] if i >= step else 0
                b = previous[i]
                c = previous[i - step] if i >= step else 0
                if kind == 1: line[i] = (line[i] + a) & 255
                elif kind == 2: line[i] = (line[i] + b) & 255
                elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
                elif kind == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            rows.append(line)
            previous = line
        counts, white = {}, 0
        for line in rows:
            for i in range(0, stride, step):
                colour = "#%02x%02x%02x" % (line[i], line[i + 1], line[i + 2])
                counts[colour] = counts.get(colour, 0) + 1
                white += colour == "#ffffff"
        print(json.dumps({"width": width, "height": height, "not_white": 1 - white / (width * height),
                          "colours": counts}))
        """#

    func testTheReportRendersItsMapOfflineAndFetchesNothing() throws {
        _ = try chromium()
        let folder = try makeTemporaryDirectory()
        let records = folder.appendingPathComponent("records.jsonl")
        try Data(AnalystRecords.text().utf8).write(to: records)
        let report = folder.appendingPathComponent("report.html")
        let summarize = try ipdata(["summarize", "--html", report.path, records.path], key: .absent)
        XCTAssertEqual(summarize.status, 0, summarize.stderr)

        let log = folder.appendingPathComponent("proxy.log")
        let proxy = try startProxy(log: log)
        defer { proxy.process.terminate() }

        // The detector works: a page that loads two images is seen asking for both.
        let probe = folder.appendingPathComponent("probe.html")
        try Data(
            #"<!DOCTYPE html><p>probe</p><img src="http://probe.invalid/a.png"><img src="https://probe.invalid/b.png">"#
                .utf8
        ).write(to: probe)
        _ = try open(probe, proxy: proxy.port, screenshot: nil)
        let probeHosts = requestedHosts(log)
        XCTAssertEqual(probeHosts.filter { $0 == "probe.invalid" }.count, 2, "the probe's two images")
        let browsers = Self.browserOwnHosts.union(probeHosts.filter { $0 != "probe.invalid" })
        try Data().write(to: log)

        // The report: its DOM after load has every country's path, those with addresses shaded.
        let dom = try open(report, proxy: proxy.port, screenshot: nil)
        let paths = dom.components(separatedBy: "<path class=\"country\"").count - 1
        XCTAssertEqual(paths, WorldMap.countryLines.split(separator: "\n").count, "one path per country")
        let shaded = HTMLReport.shades.map { dom.components(separatedBy: "fill=\"\($0)\"").count - 1 }.reduce(0, +)
        let countries = Set(AnalystRecords.countries.map(\.0)).subtracting(["SG", "HK", "MT"]).count
        XCTAssertEqual(shaded, countries, "each country of the records on the map, shaded")
        XCTAssertTrue(dom.contains("<section id=\"top-addresses\">"))

        // The screenshot shows the map: its fills cover a good part of it.
        let screenshot = folder.appendingPathComponent("report.png")
        _ = try open(report, proxy: proxy.port, screenshot: screenshot)
        let pixels = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(try python(Self.pixelCount, input: screenshot).utf8))
                as? [String: Any])
        XCTAssertEqual(pixels["width"] as? Int, 1000)
        XCTAssertGreaterThan(pixels["not_white"] as? Double ?? 0, 0.15, "not blank")
        let colours = try XCTUnwrap(pixels["colours"] as? [String: Int])
        XCTAssertGreaterThan(colours[HTMLReport.emptyFill] ?? 0, 5_000, "countries without addresses")
        XCTAssertGreaterThan(
            HTMLReport.shades.map { colours[$0] ?? 0 }.reduce(0, +), 5_000, "countries with addresses, shaded")
        XCTAssertGreaterThan(colours[HTMLReport.shades[4]] ?? 0, 100, "the darkest shade, of the busiest countries")

        XCTAssertEqual(requestedHosts(log).filter { !browsers.contains($0) }, [], "the report fetched nothing")
        if let keep = ProcessInfo.processInfo.environment["IPDATA_REPORT_SCREENSHOT"] {
            try? FileManager.default.removeItem(atPath: keep)
            try FileManager.default.copyItem(at: screenshot, to: URL(fileURLWithPath: keep))
        }
    }
}
#endif
