// SPDX-License-Identifier: GPL-2.0
/*
 * iio_event_wait: wait for IIO events and print them, for the guest suites
 * (busybox cannot issue IIO_GET_EVENT_FD_IOCTL).
 *
 *   iio_event_wait /dev/iio:deviceN TIMEOUT_MS [COUNT]
 *
 * Prints "type=<chan type> channel=<n> evtype=<ev type> dir=<ev dir>" (names
 * for the values this driver uses, numbers otherwise) for each event, until
 * COUNT (default 1) have arrived or TIMEOUT_MS have passed since the start;
 * exits 0 when at least one arrived, 1 when none did and 2 on any error.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <linux/iio/events.h>
#include <linux/iio/types.h>

static const char *name_of(unsigned int value, const unsigned int *values,
			   const char *const *names, unsigned int count)
{
	static char number[16];
	unsigned int i;

	for (i = 0; i < count; i++)
		if (values[i] == value)
			return names[i];
	snprintf(number, sizeof(number), "%u", value);
	return number;
}

#define NAME_OF(v, values, names) \
	name_of(v, values, names, sizeof(values) / sizeof(values[0]))

static const unsigned int chan_types[] = { IIO_PRESSURE, IIO_TEMP };
static const char *const chan_type_names[] = { "pressure", "temp" };
static const unsigned int ev_types[] = { IIO_EV_TYPE_THRESH, IIO_EV_TYPE_MAG };
static const char *const ev_type_names[] = { "thresh", "mag" };
static const unsigned int ev_dirs[] = {
	IIO_EV_DIR_EITHER, IIO_EV_DIR_RISING, IIO_EV_DIR_FALLING
};
static const char *const ev_dir_names[] = { "either", "rising", "falling" };

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static void print_event(const struct iio_event_data *event)
{
	printf("type=%s ", NAME_OF(IIO_EVENT_CODE_EXTRACT_CHAN_TYPE(event->id),
				   chan_types, chan_type_names));
	printf("channel=%d ", IIO_EVENT_CODE_EXTRACT_CHAN(event->id));
	printf("evtype=%s ", NAME_OF(IIO_EVENT_CODE_EXTRACT_TYPE(event->id),
				     ev_types, ev_type_names));
	printf("dir=%s\n", NAME_OF(IIO_EVENT_CODE_EXTRACT_DIR(event->id),
				    ev_dirs, ev_dir_names));
	fflush(stdout);
}

int main(int argc, char **argv)
{
	struct iio_event_data event;
	struct pollfd pfd;
	int dev_fd, event_fd, ret, count = 1, got = 0;
	long deadline;

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: %s /dev/iio:deviceN TIMEOUT_MS [COUNT]\n",
			argv[0]);
		return 2;
	}
	if (argc == 4)
		count = atoi(argv[3]);
	deadline = now_ms() + atoi(argv[2]);

	dev_fd = open(argv[1], O_RDONLY);
	if (dev_fd < 0) {
		fprintf(stderr, "%s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	if (ioctl(dev_fd, IIO_GET_EVENT_FD_IOCTL, &event_fd) < 0) {
		fprintf(stderr, "IIO_GET_EVENT_FD_IOCTL: %s\n", strerror(errno));
		return 2;
	}
	close(dev_fd);

	/* Tell the caller the fd is open, so it can provoke the event now. */
	printf("listening\n");
	fflush(stdout);

	pfd.fd = event_fd;
	pfd.events = POLLIN;
	while (got < count) {
		long left = deadline - now_ms();

		if (left <= 0)
			break;
		ret = poll(&pfd, 1, (int)left);
		if (ret < 0) {
			fprintf(stderr, "poll: %s\n", strerror(errno));
			return 2;
		}
		if (ret == 0)
			break;
		if (read(event_fd, &event, sizeof(event)) != sizeof(event)) {
			fprintf(stderr, "read: %s\n", strerror(errno));
			return 2;
		}
		print_event(&event);
		got++;
	}
	return got ? 0 : 1;
}
