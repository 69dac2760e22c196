/* guest-util.h -- helpers shared by the vmcheck guest's FIEMAP programs. */

#ifndef GUEST_UTIL_H
#define GUEST_UTIL_H

#include <linux/fiemap.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define KiB 1024LL
#define MiB (1024 * KiB)

/* Exit statuses of the guest programs. */
enum status { ST_OK = 0, ST_WRONG = 1, ST_SETUP = 2, ST_SKIP = 77 };

/* Program name for messages; each program sets it. */
extern const char *prog;

/* setup_error: report a failed operation with errno and exit ST_SETUP. */
void setup_error(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));

/* fill_range: write LEN bytes of BYTE at OFF; exits ST_SETUP on failure. */
void fill_range(int fd, off_t off, size_t len, int byte);

/* open_uffd: a userfaultfd with missing-page faults registered on
 * [AT, AT + LEN), so kernel accesses there wait for the caller. */
int open_uffd(void *at, size_t len);

/* wait_fault: wait up to TIMEOUT_S seconds for a page fault on UFFD;
 * exits ST_SETUP with WHAT in the message if none comes. */
void wait_fault(int uffd, int timeout_s, const char *what);

/* resolve_fault: fill the page at AT with zeros, waking whoever waits. */
void resolve_fault(int uffd, void *at);

/* print_map: the extents of FM, as TAP comments. */
void print_map(const char *what, const struct fiemap *fm);

/* check_range: does FM report [OFF, OFF + LEN) entirely as written data?
 * Returns 0 if so, else 1 with REASON describing the first defect. */
int check_range(const struct fiemap *fm, uint64_t off, uint64_t len,
		char *reason, size_t reason_size);

/* reclaim_range: drop the page cache of [OFF, OFF + LEN) of FD; btrfs drops
 * the extent maps of a file larger than 16 MiB with its pages. */
void reclaim_range(int fd, off_t off, size_t len);

#endif
