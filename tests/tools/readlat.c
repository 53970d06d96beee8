// SPDX-License-Identifier: GPL-2.0
/*
 * readlat: time one-shot sysfs reads in-process, for make bench (a shell's
 * fork and exec of cat would dominate the figure under TCG).
 *
 *   readlat FILE COUNT GAP_MS [AFTER_FILE KEY]
 *
 * COUNT times: open, read, close FILE, then sleep GAP_MS. Prints one line
 * per read, "<microseconds> <value>" (value "ERR:<errno>" on failure), and
 * exits 0, or 2 on bad arguments. With AFTER_FILE and KEY, each read is
 * followed at once by a read of AFTER_FILE, and the number after KEY on its
 * line "KEY N" is printed as a third column (the simulator's sample counter:
 * how fresh the value was, judged before a shell could add any delay).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long long key_value(const char *path, const char *key)
{
	char line[128];
	long long value = -1;
	size_t len = strlen(key);
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, len) && line[len] == ' ') {
			value = strtoll(line + len + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return value;
}

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

int main(int argc, char **argv)
{
	char buf[64];
	long count, gap_ms, i;
	struct timespec gap;

	if (argc != 4 && argc != 6) {
		fprintf(stderr, "usage: %s FILE COUNT GAP_MS [AFTER_FILE KEY]\n", argv[0]);
		return 2;
	}
	count = strtol(argv[2], NULL, 10);
	gap_ms = strtol(argv[3], NULL, 10);
	if (count <= 0 || gap_ms < 0)
		return 2;
	gap.tv_sec = gap_ms / 1000;
	gap.tv_nsec = (gap_ms % 1000) * 1000000L;

	for (i = 0; i < count; i++) {
		long long t0 = now_us(), t1;
		ssize_t n = -1;
		int err = 0, fd;

		fd = open(argv[1], O_RDONLY);
		if (fd >= 0) {
			n = read(fd, buf, sizeof(buf) - 1);
			if (n < 0)
				err = errno;
			close(fd);
		} else {
			err = errno;
		}
		t1 = now_us();
		if (n > 0) {
			buf[n] = '\0';
			buf[strcspn(buf, "\n")] = '\0';
			printf("%lld %s", t1 - t0, buf);
		} else {
			printf("%lld ERR:%d", t1 - t0, err ? err : EIO);
		}
		if (argc == 6)
			printf(" %lld", key_value(argv[4], argv[5]));
		printf("\n");
		fflush(stdout);
		if (gap_ms && i + 1 < count)
			nanosleep(&gap, NULL);
	}
	return 0;
}
