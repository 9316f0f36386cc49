#ifndef EMBER_IO_H
#define EMBER_IO_H
#include <stddef.h>
#include <sys/types.h>

/* Write a string to a procfs/sysfs/cgroupfs file with a single raw write(2): stdio can
 * split or pad such writes, which those files reject. Returns 0 or -1/errno. */
int io_write_file(const char *path, const char *value);
int io_write_file_at(int dirfd, const char *path, const char *value);
/* Read at most size-1 bytes and NUL-terminate. Returns the length or -1/errno (EINVAL
 * for size 0: no room for the NUL). */
ssize_t io_read_file(const char *path, char *buf, size_t size);
ssize_t io_read_file_at(int dirfd, const char *path, char *buf, size_t size);
/* write(2) until done, retrying EINTR. */
int io_write_all(int fd, const void *buf, size_t len);
/* read(2) until size bytes or end of file, retrying EINTR. Returns the count, fewer than
 * size only at end of file, or -1/errno. */
ssize_t io_read_full(int fd, void *buf, size_t size);
int io_mkdir_p(const char *path, unsigned mode);
#endif
