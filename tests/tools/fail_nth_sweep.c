// SPDX-License-Identifier: GPL-2.0
/*
 * fail_nth_sweep: a fail-nth sweep (CONFIG_FAILSLAB, /proc/thread-self/
 * fail-nth) over the slab allocations of one write(2), for the guest suites.
 *
 *   fail_nth_sweep FIRST STEP MAX FILE TEXT UNDO_FILE UNDO_TEXT PRESENT
 *
 * For N = FIRST, FIRST + STEP, ... up to MAX: writes TEXT to FILE with the Nth
 * allocation of that write failed, notes whether PRESENT (a path) exists
 * afterwards, then writes UNDO_TEXT to UNDO_FILE (its errors ignored). Stops
 * at the first N the write does not reach, without the undo. Only the write
 * is counted: the files are opened first. Prints one line:
 *
 *   runs=R injected=I write_failed=W absent=A present=P allocations=N
 *
 * (allocations: what the last, clean write made; -1 if MAX was reached) and
 * exits 0, or 1 if MAX was reached, 2 on a set-up error. With FAIL_NTH_TRACE
 * set in the environment, each N goes to stderr first (to find the run a
 * kernel report on the console belongs to).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int write_text(const char *path, const char *text)
{
	int fd, ret = 0;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	if (write(fd, text, strlen(text)) < 0)
		ret = -1;
	close(fd);
	return ret;
}

int main(int argc, char **argv)
{
	long first, max, step, n, runs = 0, injected = 0, write_failed = 0;
	long absent = 0, present = 0, allocations = -1;
	char text[256], undo[256], left[32];
	int nth_fd, fd, trace;
	ssize_t ret;

	if (argc != 9) {
		fprintf(stderr,
			"usage: %s FIRST STEP MAX FILE TEXT UNDO_FILE UNDO_TEXT PRESENT\n",
			argv[0]);
		return 2;
	}
	first = atol(argv[1]);
	step = atol(argv[2]);
	max = atol(argv[3]);
	argv += 1;	/* FILE TEXT UNDO_FILE UNDO_TEXT PRESENT: argv[3..7] */
	if (first < 1 || step < 1 ||
	    (size_t)snprintf(text, sizeof(text), "%s\n", argv[4]) >= sizeof(text) ||
	    (size_t)snprintf(undo, sizeof(undo), "%s\n", argv[6]) >= sizeof(undo))
		return 2;

	trace = getenv("FAIL_NTH_TRACE") != NULL;
	nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (nth_fd < 0) {
		perror("/proc/thread-self/fail-nth");
		return 2;
	}

	for (n = first; n <= max; n += step) {
		char nth[24];
		int failed;

		fd = open(argv[3], O_WRONLY);
		if (fd < 0) {
			perror(argv[3]);
			return 2;
		}
		if (trace)
			fprintf(stderr, "fail_nth_sweep: N=%ld\n", n);
		snprintf(nth, sizeof(nth), "%ld", n);
		if (pwrite(nth_fd, nth, strlen(nth), 0) < 0) {
			perror("fail-nth");
			return 2;
		}
		failed = write(fd, text, strlen(text)) < 0;
		/* 0: the fault was injected; the count left otherwise */
		ret = pread(nth_fd, left, sizeof(left) - 1, 0);
		if (ret <= 0 || pwrite(nth_fd, "0", 1, 0) < 0) {
			perror("fail-nth");
			return 2;
		}
		left[ret] = '\0';
		close(fd);
		runs++;
		if (atol(left)) {
			allocations = n - atol(left);
			break;
		}
		injected++;
		if (failed)
			write_failed++;
		else if (access(argv[7], F_OK) == 0)
			present++;
		else
			absent++;
		if (trace)
			fprintf(stderr, "fail_nth_sweep: N=%ld %s\n", n,
				failed ? "write failed" :
				access(argv[7], F_OK) ? "absent" : "present");
		write_text(argv[5], undo);
	}

	printf("runs=%ld injected=%ld write_failed=%ld absent=%ld present=%ld allocations=%ld\n",
	       runs, injected, write_failed, absent, present, allocations);
	return allocations < 0;
}
