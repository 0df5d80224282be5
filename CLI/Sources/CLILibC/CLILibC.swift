// The C library for the CLI package's files that call it: `import CLILibC` instead of a
// `#if canImport(Glibc)` ladder in each file. Glibc on most Linux systems, Musl in the static
// Linux SDK, Darwin on macOS. The root package's own shim (IPDataLibC) is internal to that
// package, as a third party's would be, so this package keeps its own.
//
// `@_exported` is what makes this module stand for the C library: a file that imports it sees
// the library's names.
#if canImport(Darwin)
@_exported import Darwin
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Glibc)
@_exported import Glibc
#endif
