#include <archive.h>
#include <archive_entry.h>

// Swift cannot import AE_IF* (they are cast expressions), so they are
// re-exported here as plain integer constants with the same values.
static const unsigned int facepipe_ae_ifmt = AE_IFMT;
static const unsigned int facepipe_ae_ifreg = AE_IFREG;
static const unsigned int facepipe_ae_iflnk = AE_IFLNK;
static const unsigned int facepipe_ae_ifsock = AE_IFSOCK;
static const unsigned int facepipe_ae_ifchr = AE_IFCHR;
static const unsigned int facepipe_ae_ifblk = AE_IFBLK;
static const unsigned int facepipe_ae_ifdir = AE_IFDIR;
static const unsigned int facepipe_ae_ififo = AE_IFIFO;
