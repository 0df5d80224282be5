import CFreedMemory

/// How the process's allocator treats the memory it frees. A run allocates and frees each
/// record's bytes, thousands of them, on several threads; glibc's defaults hand freed memory back
/// to the system and grow each thread's heap a page at a time, so that the same memory is mapped
/// and faulted in again and again (BENCHMARKS.md, "The CLI's cache end to end"). Kept, it is
/// reused; what a run holds at once is bounded as before.
enum FreedMemory {
    /// Keeps freed memory for reuse (glibc; nothing elsewhere). Called once, first thing.
    static func keep() {
        ipdata_keep_freed_memory()
    }
}
