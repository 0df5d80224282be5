// The ipdata command runs on macOS and Linux; its test target depends on it there only (see
// Package.swift), and builds empty for iOS, tvOS, watchOS and visionOS.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

@testable import ipdata_cli

/// The sink's buffer: records leave in large writes, each write ends at a record's end, and
/// whatever way the run ends (complete, cut short, a signal), what was written reaches the file.
final class OutputSinkTests: XCTestCase {
    private func fileSink() throws -> (OutputSink, URL) {
        let sink = try OutputSink.file(atPath: try makeTemporaryDirectory().appendingPathComponent("out.jsonl").path)
        return (sink, URL(fileURLWithPath: try XCTUnwrap(sink.temporaryPath)))
    }

    private func record(_ index: Int) -> Data {
        Data(#"{"ip":"9.0.\#(index / 256).\#(index % 256)","country_code":"US"}"#.utf8 + [0x0A])
    }

    private func size(_ url: URL) throws -> Int {
        try Data(contentsOf: url).count
    }

    /// Records wait in the buffer until it fills; what reaches the file then is whole records,
    /// never part of one, and at most the buffer's size at a time.
    func testRecordsLeaveInWritesOfWholeRecordsWhenTheBufferFills() throws {
        let (sink, url) = try fileSink()
        try sink.write(record(0))
        XCTAssertEqual(try size(url), 0, "held in the buffer")
        var written = record(0).count
        var index = 1
        while written + record(index).count <= OutputSink.bufferSize {
            try sink.write(record(index))
            written += record(index).count
            index += 1
        }
        XCTAssertEqual(try size(url), 0, "the buffer is full, not past full")
        try sink.write(record(index))
        let first = try Data(contentsOf: url)
        XCTAssertEqual(first.count, written, "one buffer's worth, the last record left for the next")
        XCTAssertEqual(first.last, 0x0A, "whole records")
        try sink.flush()
        XCTAssertEqual(try size(url), written + record(index).count)
    }

    /// A record does not wait for the buffer to fill for long: a reader of a slow run sees it
    /// within `flushDelay` or so.
    func testARecordReachesTheFileSoonWithoutMore() throws {
        let (sink, url) = try fileSink()
        let start = Date()
        try sink.write(record(0))
        while try size(url) == 0, Date().timeIntervalSince(start) < 5 { Thread.sleep(forTimeInterval: 0.005) }
        XCTAssertEqual(try size(url), record(0).count)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), OutputSink.flushDelay * 0.9)
        XCTAssertLessThan(Date().timeIntervalSince(start), 2, "written \(OutputSink.flushDelay) s after it came")
    }

    /// A run cut short ends the sink with `finish()` (a signal's handler does too): what the
    /// buffer holds is written before the partial output is kept, and a JSON array is closed.
    func testAnOutputCutShortKeepsEveryRecordWritten() throws {
        let (sink, url) = try fileSink()
        sink.setTrailer("\n]\n")
        try sink.write("[\n" + (0..<50).map { "  {\"n\":\($0)}" }.joined(separator: ",\n"))
        let message = try XCTUnwrap(sink.finish())
        XCTAssertTrue(message.contains("the partial output is in \(url.path)"), message)
        let array = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: Int]]
        XCTAssertEqual(array?.map { $0["n"] }, (0..<50).map { $0 })
    }

    /// A buffered write that fails is thrown by the next write or flush, and the output is no
    /// complete one, even once the command marked it so.
    func testAFailedWriteIsThrownAndTheOutputIsNotComplete() throws {
        #if os(Linux)
        let full = try OutputSink.file(atPath: "/dev/full")
        // A device is not buffered: the write itself fails.
        XCTAssertThrowsError(try full.write(record(0))) { error in
            XCTAssertTrue((error as? CommandError)?.message.contains("cannot write the output") == true, "\(error)")
        }
        full.markComplete()
        let message = try XCTUnwrap(full.finish())
        XCTAssertTrue(message.contains("nothing was written to /dev/full"), message)
        #else
        throw XCTSkip("/dev/full is Linux's")
        #endif
    }
}
#endif
