#ifndef CMEMORYFILE_H
#define CMEMORYFILE_H

/// An anonymous memory file (Linux `memfd_create`, close-on-exec): pages
/// that exist only in memory and can be mapped more than once, so the same
/// bytes appear at two addresses (`RowRingMemory` in `Inference`). Returns
/// the descriptor, or -1 with `errno` set. Swift's Glibc module does not
/// import `memfd_create`, hence this one function.
int facepipe_memory_file(const char *name);

#endif
