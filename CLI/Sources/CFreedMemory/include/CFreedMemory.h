// How the process's allocator treats the memory it frees (see FreedMemory.swift in ipdata-cli).
#ifndef CFREEDMEMORY_H
#define CFREEDMEMORY_H

/// Has glibc keep freed memory for reuse rather than hand it back to the system, and grow a
/// heap by 16 MiB at a time rather than a page; does nothing with another C library (Musl,
/// Darwin), whose allocators have no such settings.
void ipdata_keep_freed_memory(void);

#endif
