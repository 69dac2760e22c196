/* mkscenario -- write one vmcheck test file the way the scenario says, and
 * its expected content with plain writes, for a copier to be checked against.
 *
 * Usage: mkscenario SCENARIO FILE EXPECTED
 *        mkscenario --list
 *        mkscenario --holes SRC COPY
 *
 * FILE is written through the scenario's path (mmap, O_DIRECT, fallocate,
 * reflink, ...) and is left exactly as written: no fsync, no msync, so a
 * copier that runs next sees freshly written, not yet allocated data.
 * EXPECTED (on tmpfs) gets the same bytes through pwrite and ftruncate.
 *
 * --holes checks hole preservation: every block that is a hole in SRC
 * (SEEK_DATA/SEEK_HOLE) must be a hole in COPY too.
 *
 * Exit status: 0 done (or holes preserved), 1 hole not preserved,
 *              2 error, 77 scenario not supported by this filesystem.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define KiB 1024LL
#define MiB (1024 * KiB)
#define EXIT_SKIP 77

static const char *prog = "mkscenario";

/* The file under test and its reference twin. */
struct pair {
	int fd;       /* written the scenario's way */
	int exp;      /* written with plain pwrite */
	const char *name;
};

static void __attribute__((noreturn, format(printf, 1, 2)))
fail(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", strerror(err));
	exit(2);
}

/* pattern: deterministic, position-dependent, never all-zero bytes. */
static void pattern(char *buf, size_t len, long long off, int seed)
{
	for (size_t i = 0; i < len; i++) {
		unsigned long long x = (unsigned long long)(off + i) * 2654435761u + seed;

		buf[i] = (char)(((x >> 13) ^ x) % 251 + 1);
	}
}

/* put: pwrite LEN pattern bytes at OFF into FD; exits 2 on failure. */
static void put(int fd, long long off, size_t len, int seed)
{
	static char buf[1 * MiB];

	while (len > 0) {
		size_t n = len < sizeof(buf) ? len : sizeof(buf);

		pattern(buf, n, off, seed);
		if (pwrite(fd, buf, n, off) != (ssize_t)n)
			fail("cannot write at %lld", off);
		off += n;
		len -= n;
	}
}

/* both: the same plain write into the file under test and the reference. */
static void both(struct pair *p, long long off, size_t len, int seed)
{
	put(p->fd, off, len, seed);
	put(p->exp, off, len, seed);
}

static void set_size(struct pair *p, long long size)
{
	if (ftruncate(p->fd, size) != 0 || ftruncate(p->exp, size) != 0)
		fail("cannot truncate '%s'", p->name);
}

static void commit(struct pair *p)
{
	if (fsync(p->fd) != 0 || syncfs(p->fd) != 0)
		fail("cannot sync '%s'", p->name);
}

/* mixed: data and holes alternating, block-aligned. */
static void scen_mixed(struct pair *p)
{
	set_size(p, 2 * MiB);
	both(p, 0, 64 * KiB, 1);
	both(p, 192 * KiB, 128 * KiB, 2);
	both(p, 512 * KiB, 4 * KiB, 3);
	both(p, 1 * MiB, 256 * KiB, 4);
	both(p, 2 * MiB - 8 * KiB, 8 * KiB, 5);
}

/* edges: a leading and a trailing hole around one data extent. */
static void scen_edges(struct pair *p)
{
	both(p, 768 * KiB, 96 * KiB, 6);
	set_size(p, 3 * MiB);
}

/* unaligned: data at odd offsets, odd lengths, odd file size. */
static void scen_unaligned(struct pair *p)
{
	both(p, 12345, 7777, 7);
	both(p, 500001, 3, 8);
	both(p, 777777, 70001, 9);
	set_size(p, 1000003);
	both(p, 1000002, 1, 10);
}

/* falloc: data written into fallocated ranges, with unwritten parts left
 * and a real hole after them. */
static void scen_falloc(struct pair *p)
{
	set_size(p, 2 * MiB);
	if (fallocate(p->fd, 0, 0, 1 * MiB) != 0) {
		if (errno == EOPNOTSUPP)
			exit(EXIT_SKIP);
		fail("cannot fallocate '%s'", p->name);
	}
	both(p, 128 * KiB, 64 * KiB, 11);
	both(p, 700001, 5000, 12);
	both(p, 1536 * KiB, 64 * KiB, 13);
}

/* mmap: pages dirtied through a shared mapping, never msync'ed. */
static void scen_mmap(struct pair *p)
{
	const long long size = 1 * MiB;
	char *map;

	set_size(p, size);
	map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, p->fd, 0);
	if (map == MAP_FAILED)
		fail("cannot mmap '%s'", p->name);
	pattern(map + 64 * KiB, 64 * KiB, 64 * KiB, 14);
	put(p->exp, 64 * KiB, 64 * KiB, 14);
	pattern(map + 512 * KiB, 100, 512 * KiB, 15);
	put(p->exp, 512 * KiB, 100, 15);
	pattern(map + 1000 * KiB, 24 * KiB, 1000 * KiB, 16);
	put(p->exp, 1000 * KiB, 24 * KiB, 16);
	munmap(map, size);   /* no msync: the data is only in dirty pages */
}

/* odirect: O_DIRECT writes, then buffered writes over and beside them. */
static void scen_odirect(struct pair *p, const char *path)
{
	int dfd = open(path, O_WRONLY | O_DIRECT);
	char *buf;

	if (dfd < 0) {
		if (errno == EINVAL)
			exit(EXIT_SKIP);
		fail("cannot open '%s' with O_DIRECT", path);
	}
	if (posix_memalign((void **)&buf, 4096, 128 * KiB) != 0)
		fail("posix_memalign");
	pattern(buf, 64 * KiB, 0, 17);
	if (pwrite(dfd, buf, 64 * KiB, 0) != 64 * KiB)
		fail("O_DIRECT write to '%s'", path);
	put(p->exp, 0, 64 * KiB, 17);
	pattern(buf, 128 * KiB, 256 * KiB, 18);
	if (pwrite(dfd, buf, 128 * KiB, 256 * KiB) != 128 * KiB)
		fail("O_DIRECT write to '%s'", path);
	put(p->exp, 256 * KiB, 128 * KiB, 18);
	close(dfd);
	free(buf);
	both(p, 300 * KiB + 123, 10000, 19);
	both(p, 600 * KiB, 64 * KiB, 20);
	set_size(p, 1 * MiB);
}

/* manyext: a file over 16 MiB with thousands of small data extents. */
static void scen_manyext(struct pair *p)
{
	const long long size = 18 * MiB, stride = 8 * KiB;

	set_size(p, size);
	for (long long off = 4 * KiB; off < size; off += stride)
		both(p, off, 4 * KiB, 21);
}

/* race: the fiemap-race layout: committed data around an on-disk hole in a
 * file over 16 MiB, then buffered data into the hole (PREALLOC: into a
 * committed preallocated range). */
static void scen_race(struct pair *p, bool prealloc)
{
	set_size(p, 20 * MiB);
	both(p, 0, 64 * KiB, 22);
	both(p, 256 * KiB, 64 * KiB, 23);
	both(p, 20 * MiB - 64 * KiB, 64 * KiB, 24);
	if (prealloc && fallocate(p->fd, 0, 1 * MiB, 128 * KiB) != 0) {
		if (errno == EOPNOTSUPP)
			exit(EXIT_SKIP);
		fail("cannot fallocate '%s'", p->name);
	}
	commit(p);
	both(p, 1 * MiB, 128 * KiB, 25);
}

/* reflink: a clone of a committed file, then partly overwritten. */
static void scen_reflink(struct pair *p, const char *path)
{
	char origin[4096];
	int ofd;

	snprintf(origin, sizeof(origin), "%s.origin", path);
	ofd = open(origin, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (ofd < 0)
		fail("cannot create '%s'", origin);
	put(ofd, 0, 512 * KiB, 26);
	put(ofd, 1 * MiB, 256 * KiB, 27);
	if (ftruncate(ofd, 2 * MiB) != 0 || fsync(ofd) != 0)
		fail("cannot sync '%s'", origin);
	if (ioctl(p->fd, FICLONE, ofd) != 0) {
		if (errno == EOPNOTSUPP || errno == EXDEV || errno == EINVAL ||
		    errno == ENOTTY) {
			unlink(origin);
			exit(EXIT_SKIP);
		}
		fail("cannot clone '%s' to '%s'", origin, path);
	}
	close(ofd);
	put(p->exp, 0, 512 * KiB, 26);
	put(p->exp, 1 * MiB, 256 * KiB, 27);
	set_size(p, 2 * MiB);
	/* Shared extents partly replaced by fresh delalloc. */
	both(p, 64 * KiB, 64 * KiB, 28);
	both(p, 1 * MiB + 100000, 5000, 29);
	both(p, 1536 * KiB, 64 * KiB, 30);
}

static const char *const scenarios[] = {
	"mixed", "edges", "unaligned", "falloc", "mmap", "odirect",
	"manyext", "race-hole", "race-prealloc", "reflink", NULL
};

/* check_holes: every whole 4 KiB block inside a hole of SRC (as SRC's
 * SEEK_HOLE/SEEK_DATA report it) must be a hole in COPY.
 * Returns 0 if so, 1 with a message if not; exits 2 on errors. */
static int check_holes(const char *src_path, const char *copy_path)
{
	const off_t blk = 4 * KiB;
	int src = open(src_path, O_RDONLY), copy = open(copy_path, O_RDONLY);
	struct stat st;
	off_t pos = 0;

	if (src < 0 || copy < 0 || fstat(src, &st) != 0)
		fail("cannot open '%s' or '%s'", src_path, copy_path);
	while (pos < st.st_size) {
		off_t hole = lseek(src, pos, SEEK_HOLE), data, first, end, found;

		if (hole < 0)
			fail("SEEK_HOLE on '%s'", src_path);
		if (hole >= st.st_size)
			break;
		data = lseek(src, hole, SEEK_DATA);
		if (data < 0 && errno != ENXIO)
			fail("SEEK_DATA on '%s'", src_path);
		if (data < 0)
			data = st.st_size;
		first = (hole + blk - 1) / blk * blk;
		end = data / blk * blk;
		if (first < end) {
			found = lseek(copy, first, SEEK_DATA);
			if (found < 0 && errno != ENXIO)
				fail("SEEK_DATA on '%s'", copy_path);
			if (found >= 0 && found < end) {
				printf("%s: '%s' has data at %lld, inside hole "
				       "[%lld, %lld) of '%s'\n", prog, copy_path,
				       (long long)found, (long long)hole,
				       (long long)data, src_path);
				return 1;
			}
		}
		pos = data;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct pair p;
	const char *which;

	if (argc == 2 && strcmp(argv[1], "--list") == 0) {
		for (int i = 0; scenarios[i]; i++)
			puts(scenarios[i]);
		return 0;
	}
	if (argc == 4 && strcmp(argv[1], "--holes") == 0)
		return check_holes(argv[2], argv[3]);
	if (argc != 4) {
		fprintf(stderr, "Usage: %s SCENARIO FILE EXPECTED | --list | "
			"--holes SRC COPY\n", prog);
		return 2;
	}
	which = argv[1];
	p.name = argv[2];
	p.fd = open(argv[2], O_RDWR | O_CREAT | O_TRUNC, 0644);
	p.exp = open(argv[3], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (p.fd < 0 || p.exp < 0)
		fail("cannot create '%s' or '%s'", argv[2], argv[3]);

	if (strcmp(which, "mixed") == 0)
		scen_mixed(&p);
	else if (strcmp(which, "edges") == 0)
		scen_edges(&p);
	else if (strcmp(which, "unaligned") == 0)
		scen_unaligned(&p);
	else if (strcmp(which, "falloc") == 0)
		scen_falloc(&p);
	else if (strcmp(which, "mmap") == 0)
		scen_mmap(&p);
	else if (strcmp(which, "odirect") == 0)
		scen_odirect(&p, argv[2]);
	else if (strcmp(which, "manyext") == 0)
		scen_manyext(&p);
	else if (strcmp(which, "race-hole") == 0)
		scen_race(&p, false);
	else if (strcmp(which, "race-prealloc") == 0)
		scen_race(&p, true);
	else if (strcmp(which, "reflink") == 0)
		scen_reflink(&p, argv[2]);
	else {
		fprintf(stderr, "%s: unknown scenario '%s'\n", prog, which);
		return 2;
	}
	close(p.fd);
	close(p.exp);
	return 0;
}
