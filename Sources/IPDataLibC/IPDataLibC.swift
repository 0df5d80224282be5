// The C library, for every file of the package that calls it: `import IPDataLibC` instead of a
// `#if canImport(Glibc)` ladder in each file. Glibc on most Linux systems, Musl in the static
// Linux SDK, Darwin on Apple platforms.
//
// `@_exported` is what makes this module stand for the C library: a file that imports it sees
// the library's names. (`public import`, SE-0409, only marks an import as part of a module's
// interface; it re-exports nothing, and Swift 5.9 and 5.10 take it only as an experimental
// feature.) The re-export reaches only the modules that import IPDataLibC: the command-line
// tool and the test targets. No library product depends on this target, so an app that imports
// IPData neither builds it nor sees the C library through it.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Darwin)
@_exported import Darwin
#endif
