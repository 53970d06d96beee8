// SPDX-License-Identifier: GPL-2.0
/*
 * lps001wp-read: readings, a stream and the threshold events of an LPS001WP
 * bound to the lps001wp driver, through the kernel's IIO sysfs files and
 * /dev/iio:deviceN (no libiio: libiio 0.24 files in_pressure_raw under the
 * differential channel, so it cannot show the absolute pressure).
 *
 *   lps001wp-read [once] [-d DEV]
 *   lps001wp-read stream [-d DEV] [-n N] [--csv] [--trigger NAME]
 *   lps001wp-read events [-d DEV] [--rising] [--falling] [--threshold HPA]
 *                        [--reference HPA|now] [-n N]
 *
 * stream puts back every file it changed; events the event enables (the
 * reference and the threshold are settings: they stay).
 *
 * Exit status: 0 done, 1 an error (one line on stderr), 2 a bad command line.
 * The manual page is tools/lps001wp-read.1.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <linux/iio/events.h>
#include <linux/iio/types.h>

#define PROG "lps001wp-read"
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* where to read on */
#define SEE_README "(README, Troubleshooting)"
#define PERM_HINT " (run it as root, or in group plugdev: lps001wp-read(1), PERMISSIONS)"
#define IIO_DIR "/sys/bus/iio/devices"
#define DRIVER "lps001wp"
/* The driver's scan: pressure, temperature, DELTA, timestamp */
#define NCHAN 4
/* No scan or event for this long while one is due: say so rather than hang */
#define SCAN_TIMEOUT_MS 10000
/* Scans the kernel keeps while this program prints (the default is 2 or so) */
#define BUFFER_SCANS 128

static const char usage_text[] =
	"usage: " PROG " [once] [-d DEV]\n"
	"       " PROG " stream [-d DEV] [-n N] [--csv] [--trigger NAME]\n"
	"       " PROG " events [-d DEV] [--rising] [--falling] [--threshold HPA]\n"
	"                     [--reference HPA|now] [-n N]\n"
	"\n"
	"  once     one reading: pressure (hPa), temperature (degrees C) and\n"
	"           DELTA = reference - pressure (hPa)\n"
	"  stream   a reading per scan of the buffer, with the kernel's timestamp,\n"
	"           until N scans or Ctrl-C; --csv: comma-separated with a header\n"
	"  events   a line per threshold event as it arrives: rising when DELTA\n"
	"           exceeds +HPA (the pressure fell), falling when it goes below\n"
	"           -HPA (the pressure rose); both without --rising or --falling\n"
	"\n"
	"  -d DEV   iio:deviceN or the I2C device (1-005c); default: the only\n"
	"           device of the lps001wp driver\n"
	"  --trigger NAME    the trigger to stream with (default: the current one,\n"
	"                    else the driver's own lps001wp-devN)\n"
	"  --threshold HPA   set the threshold (0 to 4095.9375 hPa)\n"
	"  --reference HPA|now  set the reference DELTA is taken against\n"
	"  -h, --help        this text\n"
	"\n"
	"stream puts back what it changed when it ends, events the enables\n"
	"(the reference and threshold stay as set).\n"
	"See lps001wp-read(1).\n";

static void usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n%s", usage_text);
	exit(2);
}

/* ---- what stream and events changed, put back on every way out ---- */

struct saved {
	char path[PATH_MAX];
	char value[128];
};

static struct saved saved[16];
static int nsaved;
static volatile sig_atomic_t stop;

static int write_attr(const char *path, const char *value);

/*
 * Newest first: the buffer is disabled before its scan elements and its
 * trigger go back. Returns 0, or -1 when something could not be put back
 * (said on stderr).
 */
static int restore_all(void)
{
	int ret = 0;

	while (nsaved > 0) {
		struct saved *s = &saved[--nsaved];
		int err = write_attr(s->path, s->value);

		if (err) {
			fprintf(stderr, PROG ": could not put back %s (%s): %s\n",
				s->path, s->value, strerror(-err));
			ret = -1;
		}
	}
	return ret;
}

static void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	restore_all();
	exit(1);
}

static void on_signal(int sig)
{
	stop = sig;
}

/* ---- sysfs ---- */

/* One read(2), as sysfs answers it; the trailing newline cut. 0 or -errno. */
static int read_attr(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd, err;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	err = errno;
	close(fd);
	if (n < 0)
		return -err;
	buf[n] = '\0';
	/* current_timestamp_clock's answer ends in "\n\0" (the IIO core's sizeof) */
	n = (ssize_t)strlen(buf);
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

static int write_attr(const char *path, const char *value)
{
	char line[160];
	ssize_t n;
	int fd, err, len;

	/* sysfs takes the value with its newline; an empty one is "\n" */
	len = snprintf(line, sizeof(line), "%s\n", value);
	if (len < 0 || (size_t)len >= sizeof(line))
		return -EINVAL;
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = write(fd, line, (size_t)len);
	err = errno;
	if (close(fd) && n >= 0)
		return -errno;
	if (n < 0)
		return -err;
	return n == len ? 0 : -EIO;
}

struct dev {
	char name[32];		/* iio:deviceN */
	char i2c[32];		/* 1-005c */
	char dir[64];		/* /sys/bus/iio/devices/iio:deviceN */
	char node[48];		/* /dev/iio:deviceN */
	int n;
};

static void attr_path(const struct dev *d, const char *attr, char *path, size_t size)
{
	if ((size_t)snprintf(path, size, "%s/%s", d->dir, attr) >= size)
		die("%s: path too long", attr);
}

/* A hint for what a read or write of the device's files got back */
static const char *hint(int err)
{
	switch (err) {
	case EACCES:
	case EPERM:
		return PERM_HINT;
	case EBUSY:
		return " (the buffer is in use: stop the other reader first)";
	case ENODEV:
	case ENOENT:
		return " (the device went away)";
	default:
		return "";
	}
}

/* The trimmed content of ATTR of D, or die naming the attribute and why */
static void get(const struct dev *d, const char *attr, char *buf, size_t size)
{
	char path[PATH_MAX];
	int err;

	attr_path(d, attr, path, sizeof(path));
	err = read_attr(path, buf, size);
	if (err)
		die("%s: reading %s: %s%s", d->name, attr, strerror(-err), hint(-err));
}

static long get_long(const struct dev *d, const char *attr)
{
	char buf[64], *end;
	long v;

	get(d, attr, buf, sizeof(buf));
	errno = 0;
	v = strtol(buf, &end, 10);
	if (errno || end == buf || *end)
		die("%s: %s holds '%s', not a number", d->name, attr, buf);
	return v;
}

static double get_double(const struct dev *d, const char *attr)
{
	char buf[64], *end;
	double v;

	get(d, attr, buf, sizeof(buf));
	errno = 0;
	v = strtod(buf, &end);
	if (errno || end == buf || *end)
		die("%s: %s holds '%s', not a number", d->name, attr, buf);
	return v;
}

/* Write VALUE to ATTR of D for good, or die */
static void put(const struct dev *d, const char *attr, const char *value)
{
	char path[PATH_MAX];
	int err;

	attr_path(d, attr, path, sizeof(path));
	err = write_attr(path, value);
	if (err)
		die("%s: writing %s to %s: %s%s", d->name, value, attr, strerror(-err), hint(-err));
}

/* Write VALUE to ATTR of D, keeping the old value for restore_all() */
static void set(const struct dev *d, const char *attr, const char *value)
{
	struct saved *s;
	int err;

	if (nsaved == (int)ARRAY_SIZE(saved))
		die("internal: too many attributes to put back");
	s = &saved[nsaved];
	attr_path(d, attr, s->path, sizeof(s->path));
	err = read_attr(s->path, s->value, sizeof(s->value));
	if (err)
		die("%s: reading %s: %s%s", d->name, attr, strerror(-err), hint(-err));
	if (!strcmp(s->value, value))
		return;
	err = write_attr(s->path, value);
	if (err)
		die("%s: writing %s to %s: %s%s", d->name, value, attr, strerror(-err), hint(-err));
	nsaved++;
}

static int exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* ---- finding the device ---- */

/*
 * Fill D for iio:deviceN if it is a device of the lps001wp driver. 0 when it
 * is; -1 when it is no lps001wp; otherwise 1, with the driver it has in
 * OTHER (mainline's st_pressure names its device "lps001wp" too).
 */
static int probe_dev(const char *iio, struct dev *d, char *other, size_t size)
{
	char path[PATH_MAX], link[PATH_MAX], name[64];
	const char *base;
	ssize_t n;

	memset(d, 0, sizeof(*d));
	if (sscanf(iio, "iio:device%d", &d->n) != 1)
		return -1;
	snprintf(d->name, sizeof(d->name), "iio:device%d", d->n);
	snprintf(d->dir, sizeof(d->dir), IIO_DIR "/%s", d->name);
	snprintf(d->node, sizeof(d->node), "/dev/%s", d->name);
	snprintf(path, sizeof(path), "%s/name", d->dir);
	if (read_attr(path, name, sizeof(name)) || strcmp(name, "lps001wp"))
		return -1;
	/* the I2C device is the IIO device's parent */
	snprintf(path, sizeof(path), "%s/..", d->dir);
	if (!realpath(path, link))
		return -1;
	base = strrchr(link, '/');
	snprintf(d->i2c, sizeof(d->i2c), "%.31s", base ? base + 1 : link);
	snprintf(path, sizeof(path), "%s/../driver", d->dir);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0) {
		snprintf(other, size, "no driver");
		return 1;
	}
	link[n] = '\0';
	base = strrchr(link, '/');
	base = base ? base + 1 : link;
	if (strcmp(base, DRIVER)) {
		snprintf(other, size, "%.40s", base);
		return 1;
	}
	return 0;
}

/* DEV as the user named it: iio:deviceN, /dev/iio:deviceN or 1-005c */
static void find_named(const char *want, struct dev *d)
{
	char other[64], iio[32], path[PATH_MAX];
	int ret;

	if (!strncmp(want, "/dev/", 5))
		want += 5;
	if (!strncmp(want, "iio:device", 10)) {
		snprintf(iio, sizeof(iio), "%.31s", want);
	} else {
		const struct dirent *e;
		DIR *dir;

		/* an I2C device name: its iio:deviceN child */
		snprintf(path, sizeof(path), "/sys/bus/i2c/devices/%.64s", want);
		dir = strchr(want, '/') ? NULL : opendir(path);
		if (!dir)
			die("no device '%s': give iio:deviceN or an I2C device (1-005c)", want);
		*iio = '\0';
		while ((e = readdir(dir)))
			if (!strncmp(e->d_name, "iio:device", 10)) {
				snprintf(iio, sizeof(iio), "%.31s", e->d_name);
				break;
			}
		closedir(dir);
		if (!*iio)
			die("I2C device %s has no IIO device: is lps001wp its driver?", want);
	}
	snprintf(path, sizeof(path), IIO_DIR "/%s", iio);
	if (!exists(path))
		die("no device %s in " IIO_DIR, iio);
	ret = probe_dev(iio, d, other, sizeof(other));
	if (ret < 0)
		die("%s is not an LPS001WP (its name is not lps001wp)", iio);
	if (ret > 0)
		die("%s (%s) is driven by %s, not lps001wp: bind it to lps001wp " SEE_README,
		    d->name, d->i2c, other);
}

static int by_number(const void *a, const void *b)
{
	return ((const struct dev *)a)->n - ((const struct dev *)b)->n;
}

/* The one device of the lps001wp driver */
static void find_only(struct dev *d)
{
	char other[64], foreign[256] = "";
	struct dev found[8];
	const struct dirent *e;
	struct dev cand;
	size_t l;
	DIR *dir;
	int n = 0;

	dir = opendir(IIO_DIR);
	if (!dir)
		die("no device of the lps001wp driver: " IIO_DIR " is missing (IIO not loaded)");
	while ((e = readdir(dir))) {
		int ret = probe_dev(e->d_name, &cand, other, sizeof(other));

		if (ret < 0)
			continue;
		if (ret > 0) {
			l = strlen(foreign);
			snprintf(foreign + l, sizeof(foreign) - l, "%s%s (%s) by %s",
				 l ? ", " : "", cand.name, cand.i2c, other);
			continue;
		}
		if (n < (int)ARRAY_SIZE(found))
			found[n++] = cand;
	}
	closedir(dir);
	if (n == 1) {
		*d = found[0];
		return;
	}
	if (n > 1) {
		char list[512] = "";
		int i;

		qsort(found, (size_t)n, sizeof(found[0]), by_number);
		for (i = 0; i < n; i++) {
			l = strlen(list);
			snprintf(list + l, sizeof(list) - l, "%s%.31s (%.31s)", l ? ", " : "",
				 found[i].name, found[i].i2c);
		}
		die("%d lps001wp devices: %s; choose one with -d", n, list);
	}
	if (*foreign)
		die("no device of the lps001wp driver; driven by another: %s " SEE_README, foreign);
	die("no device of the lps001wp driver: is the module loaded and the sensor declared? "
	    SEE_README);
}

/* ---- units ---- */

struct scales {
	double hpa;	/* hPa per pressure LSB: in_pressure_scale is kPa */
	double degc;	/* degrees C per temperature LSB: in_temp_scale is m°C */
};

static void get_scales(const struct dev *d, struct scales *sc)
{
	sc->hpa = get_double(d, "in_pressure_scale") * 10.0;
	sc->degc = get_double(d, "in_temp_scale") / 1000.0;
	if (!(sc->hpa > 0) || !(sc->degc > 0))
		die("%s: a scale of 0 or less", d->name);
}

/* The kernel's timestamp as a time of day (realtime clock) or seconds */
static void print_time(int64_t ns, int realtime)
{
	time_t secs = (time_t)(ns / 1000000000);
	int ms = (int)(ns % 1000000000 / 1000000);
	char hms[16];
	struct tm tm;

	if (realtime && localtime_r(&secs, &tm) &&
	    strftime(hms, sizeof(hms), "%H:%M:%S", &tm))
		printf("%s.%03d", hms, ms);
	else
		printf("%lld.%03d", (long long)secs, ms);
}

static int clock_is_realtime(const struct dev *d)
{
	char path[PATH_MAX], clk[32];

	attr_path(d, "current_timestamp_clock", path, sizeof(path));
	/* the IIO core's default, and all kernels before the file existed */
	if (read_attr(path, clk, sizeof(clk)))
		return 1;
	return !strcmp(clk, "realtime");
}

/* Write stdout's line now; a reader that went away (| head) ends the run */
static void flush_line(void)
{
	if (fflush(stdout) == 0)
		return;
	if (errno == EPIPE) {
		stop = SIGPIPE;
		return;
	}
	die("writing the output: %s", strerror(errno));
}

/* ---- once ---- */

static int cmd_once(const struct dev *d)
{
	struct scales sc;
	long p, t, delta, ref;

	get_scales(d, &sc);
	p = get_long(d, "in_pressure_raw");
	t = get_long(d, "in_temp_raw");
	delta = get_long(d, "in_pressure1_raw");
	ref = get_long(d, "in_pressure1_reference_raw");
	printf("pressure %.2f hPa, temperature %.2f °C, DELTA %.2f hPa (reference %.2f hPa)\n",
	       p * sc.hpa, t * sc.degc, delta * sc.hpa, ref * sc.hpa);
	flush_line();
	return 0;
}

/* ---- stream ---- */

struct chan {
	const char *name;	/* scan_elements/in_<name>_* */
	int index, offset, bytes, is_signed, big_endian, bits, shift;
};

/* "le:s16/16>>0": the layout of one scan element */
static void parse_type(const struct dev *d, struct chan *c)
{
	char attr[64], buf[64], endian[4], sign;
	int storage;

	snprintf(attr, sizeof(attr), "scan_elements/in_%s_type", c->name);
	get(d, attr, buf, sizeof(buf));
	if (sscanf(buf, "%2[bl]e:%c%d/%d>>%d", endian, &sign, &c->bits, &storage, &c->shift) != 5 ||
	    (sign != 's' && sign != 'u') || storage % 8 || storage < 8 || storage > 64 ||
	    c->bits < 1 || c->bits > storage || c->shift < 0 || c->shift + c->bits > storage)
		die("%s: %s is '%s', which this program does not know", d->name, attr, buf);
	c->big_endian = endian[0] == 'b';
	c->is_signed = sign == 's';
	c->bytes = storage / 8;
	snprintf(attr, sizeof(attr), "scan_elements/in_%s_index", c->name);
	c->index = (int)get_long(d, attr);
}

static int64_t chan_value(const struct chan *c, const unsigned char *scan)
{
	const unsigned char *p = scan + c->offset;
	uint64_t v = 0;
	int i;

	for (i = 0; i < c->bytes; i++)
		v |= (uint64_t)p[c->big_endian ? i : c->bytes - 1 - i] << (8 * (c->bytes - 1 - i));
	v >>= c->shift;
	if (c->bits < 64) {
		v &= (UINT64_C(1) << c->bits) - 1;
		if (c->is_signed && v & (UINT64_C(1) << (c->bits - 1)))
			return (int64_t)v - (int64_t)(UINT64_C(1) << c->bits);
	}
	return (int64_t)v;
}

/* Offsets as the IIO core packs them: index order, each aligned to its size */
static int layout(struct chan *chans, int n)
{
	int i, j, off = 0, align = 1;

	for (i = 1; i < n; i++)
		for (j = i; j > 0 && chans[j].index < chans[j - 1].index; j--) {
			struct chan tmp = chans[j];

			chans[j] = chans[j - 1];
			chans[j - 1] = tmp;
		}
	for (i = 0; i < n; i++) {
		off = (off + chans[i].bytes - 1) / chans[i].bytes * chans[i].bytes;
		chans[i].offset = off;
		off += chans[i].bytes;
		if (chans[i].bytes > align)
			align = chans[i].bytes;
	}
	return (off + align - 1) / align * align;
}

static const struct chan *chan_named(const struct chan *chans, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(chans[i].name, name))
			return &chans[i];
	return NULL;
}

/* The trigger's sysfs name exists: 1, else 0 */
static int trigger_exists(const char *name)
{
	char path[PATH_MAX], buf[64];
	struct dirent *e;
	DIR *dir;
	int found = 0;

	dir = opendir(IIO_DIR);
	if (!dir)
		return 0;
	while (!found && (e = readdir(dir))) {
		if (strncmp(e->d_name, "trigger", 7))
			continue;
		snprintf(path, sizeof(path), IIO_DIR "/%.64s/name", e->d_name);
		found = !read_attr(path, buf, sizeof(buf)) && !strcmp(buf, name);
	}
	closedir(dir);
	return found;
}

static int cmd_stream(const struct dev *d, long count, int csv, const char *trigger)
{
	struct chan chans[NCHAN] = {
		{ .name = "pressure" }, { .name = "temp" },
		{ .name = "pressure1" }, { .name = "timestamp" },
	};
	const struct chan *cp, *ct, *cd, *cts;
	unsigned char buf[64 * 32];
	char cur[64], own[64];
	struct pollfd pfd;
	struct scales sc;
	size_t have = 0;
	long got = 0;
	int fd, i, size, realtime;

	get_scales(d, &sc);
	realtime = clock_is_realtime(d);
	for (i = 0; i < NCHAN; i++)
		parse_type(d, &chans[i]);
	size = layout(chans, NCHAN);
	if (size > (int)sizeof(buf) / 32)
		die("%s: a scan of %d bytes, more than this program expects", d->name, size);
	cp = chan_named(chans, NCHAN, "pressure");
	ct = chan_named(chans, NCHAN, "temp");
	cd = chan_named(chans, NCHAN, "pressure1");
	cts = chan_named(chans, NCHAN, "timestamp");

	if (get_long(d, "buffer/enable"))
		die("%s: its buffer is enabled already: another program (iio_readdev?) streams",
		    d->name);
	get(d, "trigger/current_trigger", cur, sizeof(cur));
	snprintf(own, sizeof(own), "lps001wp-dev%d", d->n);
	if (trigger) {
		if (!trigger_exists(trigger))
			die("no trigger named '%s' (see cat " IIO_DIR "/trigger*/name)", trigger);
	} else if (*cur) {
		trigger = cur;
	} else if (trigger_exists(own)) {
		trigger = own;
	} else {
		die("%s has no trigger: without INT1 there is no %s; make a software trigger and "
		    "name it with --trigger, e.g. modprobe iio-trig-hrtimer; "
		    "mkdir /sys/kernel/config/iio/triggers/hrtimer/lps; echo 12.5 > "
		    IIO_DIR "/triggerN/sampling_frequency of lps; then --trigger lps "
		    "(lps001wp-read(1), TRIGGERS)", d->name, own);
	}

	/* The node first: without the right to read it, nothing is changed */
	fd = open(d->node, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		die("%s: %s%s", d->node, strerror(errno), hint(errno));

	set(d, "trigger/current_trigger", trigger);
	for (i = 0; i < NCHAN; i++) {
		char attr[64];

		snprintf(attr, sizeof(attr), "scan_elements/in_%s_en", chans[i].name);
		set(d, attr, "1");
	}
	if (get_long(d, "buffer/length") < BUFFER_SCANS) {
		char len[16];

		snprintf(len, sizeof(len), "%d", BUFFER_SCANS);
		set(d, "buffer/length", len);
	}
	set(d, "buffer/enable", "1");

	if (csv)
		printf("timestamp_ns,pressure_hPa,temperature_C,delta_hPa\n");
	flush_line();

	pfd.fd = fd;
	pfd.events = POLLIN;
	while (!stop && (!count || got < count)) {
		ssize_t n;
		size_t off;
		int ret = poll(&pfd, 1, SCAN_TIMEOUT_MS);

		if (ret < 0 && errno == EINTR)
			continue;
		if (ret < 0)
			die("%s: poll: %s", d->node, strerror(errno));
		if (ret == 0)
			die("%s: no scan in %d s from trigger %s: is it running (sampling_frequency)?",
			    d->name, SCAN_TIMEOUT_MS / 1000, trigger);
		n = read(fd, buf + have, sizeof(buf) - have);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n < 0)
			die("%s: read: %s%s", d->node, strerror(errno), hint(errno));
		if (n == 0)
			die("%s: read: end of file", d->node);
		have += (size_t)n;
		for (off = 0; off + (size_t)size <= have && !stop && (!count || got < count);
		     off += (size_t)size) {
			const unsigned char *scan = buf + off;
			int64_t ts = chan_value(cts, scan);
			double p = (double)chan_value(cp, scan) * sc.hpa;
			double t = (double)chan_value(ct, scan) * sc.degc;
			double delta = (double)chan_value(cd, scan) * sc.hpa;

			if (csv) {
				printf("%lld,%.4f,%.6f,%.4f\n", (long long)ts, p, t, delta);
			} else {
				print_time(ts, realtime);
				printf("  %9.2f hPa  %7.2f °C  DELTA %7.2f hPa\n", p, t, delta);
			}
			flush_line();
			got++;
		}
		have -= off;
		memmove(buf, buf + off, have);
	}
	close(fd);
	return restore_all() ? 1 : 0;
}

/* ---- events ---- */

/* A pressure in hPa from the command line, 0 or more, or a usage error */
static double parse_hpa(const char *opt, const char *arg)
{
	char *end;
	double hpa;

	errno = 0;
	hpa = strtod(arg, &end);
	if (errno || end == arg || *end || !(hpa >= 0) || !isfinite(hpa))
		usage_error("%s: '%s' is not a pressure in hPa (0 or more)", opt, arg);
	return hpa;
}

/* HPA as pressure LSBs for a 16-bit register, or a usage error */
static long hpa_to_raw(const char *opt, const char *arg, const struct scales *sc)
{
	double raw = parse_hpa(opt, arg) / sc->hpa + 0.5;

	if (raw >= 65536)
		usage_error("%s: %s hPa is above the register's %.4f hPa", opt, arg,
			    65535 * sc->hpa);
	return (long)raw;
}

static int cmd_events(const struct dev *d, long count, int rising, int falling,
		      const char *threshold, const char *reference)
{
	static const char ev_dir[] = "events";
	struct iio_event_data ev;
	struct pollfd pfd;
	struct scales sc;
	char path[PATH_MAX], num[16];
	long got = 0, ths = 0, ref = 0;
	int fd, efd, realtime;

	get_scales(d, &sc);
	realtime = clock_is_realtime(d);
	attr_path(d, ev_dir, path, sizeof(path));
	if (!exists(path))
		die("%s has no threshold events: the driver has no interrupt "
		    "(INT1 not wired or not declared; lps001wp-read(1), EVENTS)", d->name);
	/* bad values are refused before anything is changed */
	if (threshold)
		ths = hpa_to_raw("--threshold", threshold, &sc);
	if (reference && strcmp(reference, "now"))
		ref = hpa_to_raw("--reference", reference, &sc);
	else if (reference)
		ref = get_long(d, "in_pressure_raw");
	if (!rising && !falling) {
		rising = 1;
		falling = 1;
	}

	fd = open(d->node, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die("%s: %s%s", d->node, strerror(errno), hint(errno));
	if (ioctl(fd, IIO_GET_EVENT_FD_IOCTL, &efd) < 0)
		die("%s: its events: %s%s", d->node, strerror(errno),
		    errno == EBUSY ? " (another program watches them: only one can)" : "");
	close(fd);

	/*
	 * The reference and the threshold stay, as settings (DELTA in later
	 * readings is against this reference); the enables go back: an enabled
	 * event nobody watches keeps the chip converting.
	 */
	if (reference) {
		snprintf(num, sizeof(num), "%ld", ref);
		put(d, "in_pressure1_reference_raw", num);
	}
	if (threshold) {
		snprintf(num, sizeof(num), "%ld", ths);
		put(d, "events/in_pressure1_thresh_either_value", num);
	}
	set(d, "events/in_pressure1_thresh_rising_en", rising ? "1" : "0");
	set(d, "events/in_pressure1_thresh_falling_en", falling ? "1" : "0");

	ths = get_long(d, "events/in_pressure1_thresh_either_value");
	ref = get_long(d, "in_pressure1_reference_raw");
	/* on stderr: stdout has the events only */
	fprintf(stderr, PROG ": %s: waiting for %s (reference %.2f hPa, threshold %.2f hPa)\n",
		d->name, rising && falling ? "rising and falling events" :
		rising ? "rising events" : "falling events", ref * sc.hpa, ths * sc.hpa);

	pfd.fd = efd;
	pfd.events = POLLIN;
	while (!stop && (!count || got < count)) {
		ssize_t n;
		int dir, ret = poll(&pfd, 1, -1);

		if (ret < 0 && errno == EINTR)
			continue;
		if (ret < 0)
			die("%s: poll: %s", d->node, strerror(errno));
		n = read(efd, &ev, sizeof(ev));
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n != (ssize_t)sizeof(ev))
			die("%s: reading an event: %s", d->node,
			    n < 0 ? strerror(errno) : "short read");
		dir = IIO_EVENT_CODE_EXTRACT_DIR(ev.id);
		print_time(ev.timestamp, realtime);
		if (IIO_EVENT_CODE_EXTRACT_CHAN_TYPE(ev.id) != IIO_PRESSURE ||
		    IIO_EVENT_CODE_EXTRACT_CHAN(ev.id) != 1 ||
		    IIO_EVENT_CODE_EXTRACT_TYPE(ev.id) != IIO_EV_TYPE_THRESH ||
		    (dir != IIO_EV_DIR_RISING && dir != IIO_EV_DIR_FALLING)) {
			printf("  unknown event 0x%llx\n", (unsigned long long)ev.id);
		} else if (dir == IIO_EV_DIR_RISING) {
			printf("  rising   DELTA > +%.2f hPa: the pressure below %.2f hPa\n",
			       ths * sc.hpa, (ref - ths) * sc.hpa);
		} else {
			printf("  falling  DELTA < -%.2f hPa: the pressure above %.2f hPa\n",
			       ths * sc.hpa, (ref + ths) * sc.hpa);
		}
		flush_line();
		got++;
	}
	close(efd);
	return restore_all() ? 1 : 0;
}

/* ---- the command line ---- */

static long parse_count(const char *arg)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < 1)
		usage_error("-n: '%s' is not a count (1 or more)", arg);
	return v;
}

enum { OPT_CSV = 256, OPT_TRIGGER, OPT_RISING, OPT_FALLING, OPT_THRESHOLD, OPT_REFERENCE };

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "csv", no_argument, NULL, OPT_CSV },
		{ "trigger", required_argument, NULL, OPT_TRIGGER },
		{ "rising", no_argument, NULL, OPT_RISING },
		{ "falling", no_argument, NULL, OPT_FALLING },
		{ "threshold", required_argument, NULL, OPT_THRESHOLD },
		{ "reference", required_argument, NULL, OPT_REFERENCE },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd = "once", *want = NULL, *trigger = NULL, *threshold = NULL;
	const char *reference = NULL;
	int c, csv = 0, rising = 0, falling = 0, i, idx;
	long count = 0;
	struct sigaction sa;
	struct dev d;

	/* --help wherever it is, also after a bad option */
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage_text, stdout);
			return 0;
		}
	if (argc > 1 && argv[1][0] != '-') {
		cmd = argv[1];
		if (strcmp(cmd, "once") && strcmp(cmd, "stream") && strcmp(cmd, "events"))
			usage_error("unknown command '%s'", cmd);
		argv++;
		argc--;
	}
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:hd:n:", opts, &idx)) != -1) {
		const char *only = NULL;
		char name[32];

		if (c >= OPT_CSV)
			snprintf(name, sizeof(name), "--%s", opts[idx].name);
		else
			snprintf(name, sizeof(name), "-%c", c);
		switch (c) {
		case 'd':
			want = optarg;
			break;
		case 'n':
			count = parse_count(optarg);
			only = "stream or events";
			break;
		case OPT_CSV:
			csv = 1;
			only = "stream";
			break;
		case OPT_TRIGGER:
			trigger = optarg;
			only = "stream";
			break;
		case OPT_RISING:
			rising = 1;
			only = "events";
			break;
		case OPT_FALLING:
			falling = 1;
			only = "events";
			break;
		case OPT_THRESHOLD:
			threshold = optarg;
			parse_hpa("--threshold", optarg);
			only = "events";
			break;
		case OPT_REFERENCE:
			reference = optarg;
			if (strcmp(optarg, "now"))
				parse_hpa("--reference", optarg);
			only = "events";
			break;
		case ':':
			usage_error("%s needs a value", argv[optind - 1]);
			break;
		default:
			if (optopt)
				usage_error("unknown option '-%c'", optopt);
			usage_error("unknown option '%s'", argv[optind - 1]);
		}
		if (only && !strstr(only, cmd))
			usage_error("%s is an option of %s, not of %s", name, only, cmd);
	}
	if (optind < argc)
		usage_error("unexpected '%s'", argv[optind]);

	if (want)
		find_named(want, &d);
	else
		find_only(&d);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (!strcmp(cmd, "stream"))
		return cmd_stream(&d, count, csv, trigger);
	if (!strcmp(cmd, "events"))
		return cmd_events(&d, count, rising, falling, threshold, reference);
	return cmd_once(&d);
}
