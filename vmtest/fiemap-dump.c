/* fiemap-dump -- maps of quiescent files, to compare between kernels.
 *
 * Usage: fiemap-dump DIR
 *
 * Makes a set of files in DIR/plain and, compressed with zstd (the
 * btrfs.compression property), in DIR/zstd, writes them back and commits
 * them, then
 * asks FIEMAP for their maps in many ways: the whole file with and without
 * FIEMAP_FLAG_SYNC and with fm_extent_count 0 (count only), 1, 3, 17 and
 * 1000; ranges that start and end inside extents; and the whole file
 * walked three extents at a time, as copiers do.  Each answer is printed
 * as one line, "map FILE CALL n=COUNT sum=HASH", the hash covering every
 * extent's logical offset, length, flags and its physical offset relative
 * to the file's first.  A kernel change that must not change any map
 * (kernel/patches on a file nobody writes to) prints the same lines as the
 * stock kernel; vmcheck.sh compares them.  Physical offsets depend on
 * everything the filesystem did before, so run this first on a fresh one.
 *
 * Exit status: 0 done, 2 setup error.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "guest-util.h"

const char *prog = "fiemap-dump";

#define SLOTS 1000

static struct {
	struct fiemap fm;
	struct fiemap_extent ext[SLOTS];
} req;

/* One answer's digest: FNV-1a over the fields that must not change. */
static uint64_t hash, first_phys;
static int have_first;

static void hash_u64(uint64_t v)
{
	for (int i = 0; i < 8; i++) {
		hash ^= (v >> (8 * i)) & 0xff;
		hash *= 0x100000001b3ULL;
	}
}

/* map_once: one FIEMAP call; adds its extents to the digest and returns
 * the end of its last extent (0 if none), or -1 if FIEMAP_EXTENT_LAST. */
static int64_t map_once(int fd, uint64_t start, uint64_t len, uint32_t flags,
			uint32_t count, unsigned *mapped)
{
	int64_t end = 0;

	memset(&req, 0, sizeof(req));
	req.fm.fm_start = start;
	req.fm.fm_length = len;
	req.fm.fm_flags = flags;
	req.fm.fm_extent_count = count;
	if (ioctl(fd, FS_IOC_FIEMAP, &req.fm) != 0)
		setup_error("FIEMAP");
	*mapped = req.fm.fm_mapped_extents;
	hash_u64(req.fm.fm_mapped_extents);
	for (unsigned i = 0; count && i < req.fm.fm_mapped_extents; i++) {
		const struct fiemap_extent *e = &req.fm.fm_extents[i];

		if (!have_first && e->fe_physical) {
			first_phys = e->fe_physical;
			have_first = 1;
		}
		hash_u64(e->fe_logical);
		hash_u64(e->fe_length);
		hash_u64(e->fe_flags);
		hash_u64(e->fe_physical ? e->fe_physical - first_phys : 0);
		end = e->fe_logical + e->fe_length;
		if (e->fe_flags & FIEMAP_EXTENT_LAST)
			end = -1;
	}
	return end;
}

static void report(const char *file, const char *call, unsigned n)
{
	printf("map %s %s n=%u sum=%016llx\n", file, call, n,
	       (unsigned long long)hash);
}

static void dump(const char *dir, const char *name)
{
	static const uint32_t counts[] = { 0, 1, 3, 17, SLOTS };
	static const struct { uint64_t start, len; } ranges[] = {
		{ 0, 4096 }, { 4097, 10000 }, { 1 * MiB + 123, 3 * MiB },
		{ 5 * MiB - 1, 2 }, { 8 * MiB + 4096, 64 * MiB },
	};
	char path[4096], call[64];
	unsigned n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		setup_error("cannot open '%s'", path);
	have_first = 0;
	for (int sync = 0; sync < 2; sync++) {
		for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
			hash = 0xcbf29ce484222325ULL;
			map_once(fd, 0, FIEMAP_MAX_OFFSET,
				 sync ? FIEMAP_FLAG_SYNC : 0, counts[c], &n);
			snprintf(call, sizeof(call), "whole%s-c%u",
				 sync ? "-sync" : "", counts[c]);
			report(name, call, n);
		}
	}
	for (size_t r = 0; r < sizeof(ranges) / sizeof(ranges[0]); r++) {
		hash = 0xcbf29ce484222325ULL;
		map_once(fd, ranges[r].start, ranges[r].len, 0, SLOTS, &n);
		snprintf(call, sizeof(call), "range-%llu+%llu",
			 (unsigned long long)ranges[r].start,
			 (unsigned long long)ranges[r].len);
		report(name, call, n);
	}
	/* Three at a time from where the last answer ended. */
	hash = 0xcbf29ce484222325ULL;
	{
		uint64_t pos = 0;
		unsigned total = 0;

		for (int calls = 0; calls < 100000; calls++) {
			int64_t end = map_once(fd, pos, FIEMAP_MAX_OFFSET - pos,
					       0, 3, &n);

			total += n;
			if (end <= 0 || n == 0)
				break;
			pos = end;
		}
		report(name, "walk-c3", total);
	}
	close(fd);
}

static int create(const char *dir, const char *name)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		setup_error("cannot create '%s'", path);
	return fd;
}

static void done(int fd)
{
	if (fsync(fd) != 0)
		setup_error("fsync");
	close(fd);
}

/* make_files: the quiescent files, in DIR, written back and committed. */
static void make_files(const char *dir)
{
	int fd, src;

	/* 700 separate extents: 4 KiB of data every 12 KiB. */
	fd = create(dir, "many");
	for (int i = 0; i < 700; i++)
		fill_range(fd, i * 12 * KiB, 4 * KiB, 'm');
	done(fd);

	/* 8 MiB preallocated, every third block written: 600-odd extents. */
	fd = create(dir, "prealloc-thirds");
	if (fallocate(fd, 0, 1 * MiB, 8 * MiB) != 0)
		setup_error("fallocate");
	for (int64_t off = 1 * MiB; off < 9 * MiB; off += 12 * KiB)
		fill_range(fd, off, 4 * KiB, 'p');
	done(fd);

	/* A preallocated extent half written, and preallocation past EOF. */
	fd = create(dir, "prealloc-half");
	fill_range(fd, 0, 64 * KiB, 'a');
	if (fallocate(fd, 0, 1 * MiB, 8 * MiB) != 0 ||
	    fallocate(fd, FALLOC_FL_KEEP_SIZE, 9 * MiB, 4 * MiB) != 0)
		setup_error("fallocate");
	fill_range(fd, 1 * MiB, 4 * MiB, 'h');
	done(fd);

	/* Sparse: one block in the middle of 64 MiB, inline, empty. */
	fd = create(dir, "sparse");
	if (ftruncate(fd, 64 * MiB) != 0)
		setup_error("ftruncate");
	fill_range(fd, 33 * MiB, 4 * KiB, 's');
	done(fd);
	fd = create(dir, "inline");
	fill_range(fd, 0, 100, 'i');
	done(fd);
	fd = create(dir, "empty");
	done(fd);

	/* Shared extents: part of "many" cloned into a new file. */
	{
		char path[4096];

		snprintf(path, sizeof(path), "%s/many", dir);
		src = open(path, O_RDONLY);
		if (src < 0)
			setup_error("cannot open '%s'", path);
	}
	fd = create(dir, "shared");
	fill_range(fd, 0, 2 * MiB, 'r');
	{
		struct file_clone_range fcr = {
			.src_fd = src, .src_offset = 0,
			.src_length = 1 * MiB, .dest_offset = 512 * KiB,
		};

		if (ioctl(fd, FICLONERANGE, &fcr) != 0)
			setup_error("FICLONERANGE");
	}
	close(src);
	done(fd);

}

static void dump_all(const char *dir, const char *set)
{
	static const char *const names[] = {
		"many", "prealloc-thirds", "prealloc-half", "sparse", "inline",
		"empty", "shared",
	};
	char name[64];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(name, sizeof(name), "%s/%s", set, names[i]);
		dump(dir, name);
	}
}

int main(int argc, char **argv)
{
	char plain[4096], zstd[4096];
	const char *dir;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "Usage: %s DIR\n", prog);
		return ST_SETUP;
	}
	dir = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);
	snprintf(plain, sizeof(plain), "%s/plain", dir);
	snprintf(zstd, sizeof(zstd), "%s/zstd", dir);
	if (mkdir(plain, 0755) != 0 || mkdir(zstd, 0755) != 0)
		setup_error("mkdir in '%s'", dir);
	if (setxattr(zstd, "btrfs.compression", "zstd", 4, 0) != 0)
		setup_error("setting btrfs.compression on '%s'", zstd);
	make_files(plain);
	make_files(zstd);
	fd = open(dir, O_RDONLY);
	if (fd < 0 || syncfs(fd) != 0)
		setup_error("syncfs");
	close(fd);

	dump_all(dir, "plain");
	dump_all(dir, "zstd");
	return ST_OK;
}
