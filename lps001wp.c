// SPDX-License-Identifier: GPL-2.0
/*
 * STMicroelectronics LPS001WP pressure sensor (I2C 0x5c or 0x5d): pressure,
 * temperature and DELTA = REF_P - P, whose threshold unit drives INT1. The
 * chip only converts continuously: a read starts it, autosuspend stops it.
 * Datasheet: https://www.st.com/resource/en/datasheet/lps001wp.pdf
 */

#include <linux/atomic.h>
#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/cleanup.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/devm-helpers.h>
#include <linux/err.h>
#include <linux/i2c.h>
#include <linux/interrupt.h>
#include <linux/iopoll.h>
#include <linux/irq.h>
#include <linux/kstrtox.h>
#include <linux/ktime.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pm_runtime.h>
#include <linux/property.h>
#include <linux/regmap.h>
#include <linux/regulator/consumer.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>

#include <linux/iio/buffer.h>
#include <linux/iio/events.h>
#include <linux/iio/iio.h>
#include <linux/iio/trigger.h>
#include <linux/iio/trigger_consumer.h>
#include <linux/iio/triggered_buffer.h>

#include "lps001wp.h"

/* Reads a period apart find the chip running; one every 10 s keeps it on < 5 % */
#define LPS001WP_AUTOSUSPEND_MS		250
/* Turn-on time unpublished (spec §7); the successors need a few ms */
#define LPS001WP_TURN_ON_US		10000
/* A data-ready wait gives up after this many of the slowest periods */
#define LPS001WP_DRDY_TIMEOUT_PERIODS	3
/* Recovery passes on a dead bus: doubling from the first, then one a minute */
#define LPS001WP_RECOVER_FIRST_MS	10
#define LPS001WP_RECOVER_MAX_MS		60000

#define LPS001WP_EVENT(dir) IIO_UNMOD_EVENT_CODE(IIO_PRESSURE, 1, IIO_EV_TYPE_THRESH, dir)
#define LPS001WP_EVENT_BIT(dir) ((dir) == IIO_EV_DIR_RISING ? LPS001WP_INT_PL : LPS001WP_INT_PH)

static bool lps001wp_readable_reg(struct device *dev, unsigned int reg)
{
	return reg == LPS001WP_REG_WHO_AM_I ||
	       (reg >= LPS001WP_REG_CTRL1 && reg <= LPS001WP_REG_CTRL3) ||
	       (reg >= LPS001WP_REG_STATUS && reg <= LPS001WP_REG_DELTA_H) ||
	       (reg >= LPS001WP_REG_REF_P_L && reg <= LPS001WP_REG_INT_ACK);
}

static bool lps001wp_writeable_reg(struct device *dev, unsigned int reg)
{
	return (reg >= LPS001WP_REG_CTRL1 && reg <= LPS001WP_REG_CTRL3) ||
	       (reg >= LPS001WP_REG_REF_P_L && reg <= LPS001WP_REG_INT_CFG);
}

/* CTRL_REG2's BOOT bit may clear itself (spec §3.2 [U]): never replayed */
static bool lps001wp_volatile_reg(struct device *dev, unsigned int reg)
{
	return reg == LPS001WP_REG_WHO_AM_I || reg == LPS001WP_REG_CTRL2 ||
	       (reg >= LPS001WP_REG_STATUS && reg <= LPS001WP_REG_DELTA_H) ||
	       reg >= LPS001WP_REG_INT_SRC;
}

/* Reading an output clears its data-ready bit, reading INT_ACK the latch */
static bool lps001wp_precious_reg(struct device *dev, unsigned int reg)
{
	return (reg >= LPS001WP_REG_PRESS_OUT_L && reg <= LPS001WP_REG_DELTA_H) ||
	       reg == LPS001WP_REG_INT_ACK;
}

static const struct regmap_config lps001wp_regmap_config = {
	.reg_bits = 8,
	.val_bits = 8,
	/* Also on SMBus-only adapters: there the command byte is the sub-address */
	.read_flag_mask = LPS001WP_I2C_AUTO_INCREMENT,
	.write_flag_mask = LPS001WP_I2C_AUTO_INCREMENT,
	.max_register = LPS001WP_REG_INT_ACK,
	.readable_reg = lps001wp_readable_reg,
	.writeable_reg = lps001wp_writeable_reg,
	.volatile_reg = lps001wp_volatile_reg,
	.precious_reg = lps001wp_precious_reg,
	.cache_type = REGCACHE_MAPLE,
};

/* STATUS and the outputs in one read: data-ready bits with their data */
struct lps001wp_burst {
	u8 status;
	__le16 out[3];	/* by enum lps001wp_scan_index */
} __packed;

enum lps001wp_scan_index { LPS001WP_PRESSURE, LPS001WP_TEMP, LPS001WP_DELTA, LPS001WP_TS };

struct lps001wp_data {
	struct device *dev;
	struct regmap *regmap;
	struct iio_trigger *trig;
	int irq;
	bool irq_active_low;
	bool irq_open_drain;
	/*
	 * The configuration, the flags below, and the reads that clear state,
	 * held across a power-up and a read's wait for a sample. Values the
	 * regmap cache holds are read under regmap's own lock.
	 */
	struct mutex lock;
	bool drdy_enabled;
	bool streaming;			/* a buffer runs, on any trigger */
	u8 events_enabled;		/* LPS001WP_INT_PL | LPS001WP_INT_PH */
	bool cold;			/* the next start must be a power-up */
	bool outputs_stale;		/* no sample since the last power-up */
	bool halted;			/* system sleep or unbind: no recovery */
	bool irq_masked;		/* by a failed pass, until a power-up */
	unsigned int recover_ms;
	ktime_t sample_due;
	struct delayed_work recover;
	/* From the INT1 thread to the own trigger's handler, which it runs */
	struct lps001wp_burst drdy_burst;
	s64 drdy_timestamp;
	atomic64_t irq_timestamp;	/* set in hard IRQ context */
	struct {
		__le16 chans[3];
		aligned_s64 timestamp;
	} scan;
};

/* sampling_frequency_available, {Hz, µHz}, and the DR code of each */
#if LPS001WP_ASSUME_DR_ST_TABLE
static const int lps001wp_odr[][2] = { { 7, 0 }, { 12, 500000 } };
static const u8 lps001wp_odr_dr[] = { LPS001WP_DR_01, LPS001WP_DR_11 };
#else
static const int lps001wp_odr[][2] = { { 1, 0 }, { 7, 0 }, { 12, 500000 } };
static const u8 lps001wp_odr_dr[] = { LPS001WP_DR_01, LPS001WP_DR_10, LPS001WP_DR_11 };
#endif

static int lps001wp_dr_index(unsigned int dr)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lps001wp_odr_dr); i++)
		if (lps001wp_odr_dr[i] == dr)
			return i;
	return -EINVAL;
}

/* The timeout holds at the slowest rate any source gives @dr: a wrong table never times out */
static void lps001wp_timing(unsigned int dr, unsigned int *period_us, unsigned int *timeout_us)
{
	int i = lps001wp_dr_index(dr);

	*period_us = i < 0 ? USEC_PER_SEC : 1000 * USEC_PER_SEC /
		     (lps001wp_odr[i][0] * 1000 + lps001wp_odr[i][1] / 1000);
	*timeout_us = LPS001WP_DRDY_TIMEOUT_PERIODS *
		      (dr == LPS001WP_DR_11 ? *period_us : USEC_PER_SEC);
}

/*
 * A transfer failed: the chip is cold. If it must work on its own (events
 * on, a buffer running) or may be left converting (@idle_too), a start, so
 * a power-up, comes later; INT1 stays masked until then, its pad maybe
 * asserted. Caller locks.
 */
static void lps001wp_recover_later(struct lps001wp_data *data, bool idle_too)
{
	data->cold = true;
	if (data->halted || !(idle_too || data->events_enabled || data->streaming))
		return;
	if (data->irq && !data->irq_masked) {
		disable_irq_nosync(data->irq);
		data->irq_masked = true;
	}
	if (queue_delayed_work(system_wq, &data->recover, msecs_to_jiffies(data->recover_ms)))
		data->recover_ms = min(2 * data->recover_ms, LPS001WP_RECOVER_MAX_MS);
}

/* An update that a failed transfer leaves undone in the cache too; caller locks */
static int lps001wp_update(struct lps001wp_data *data, unsigned int reg, unsigned int mask,
			   unsigned int val, size_t len)
{
	__le16 old = 0, new;
	int ret;

	ret = regmap_bulk_read(data->regmap, reg, &old, len);
	if (ret)
		return ret;
	new = cpu_to_le16((le16_to_cpu(old) & ~mask) | (val & mask));
	if (new == old)
		return 0;
	ret = regmap_bulk_write(data->regmap, reg, &new, len);
	if (ret) {
		dev_err_ratelimited(data->dev, "write of 0x%02x failed: %d\n", reg, ret);
		regcache_cache_only(data->regmap, true);
		regmap_bulk_write(data->regmap, reg, &old, len);
		regcache_cache_only(data->regmap, false);
		lps001wp_recover_later(data, false);
	}
	return ret;
}

/* A failed read changes nothing in the chip: a loss shows as a missed sample */
static int lps001wp_read_burst(struct lps001wp_data *data, struct lps001wp_burst *burst)
{
	int ret = regmap_bulk_read(data->regmap, LPS001WP_REG_STATUS, burst, sizeof(*burst));

	if (ret)
		dev_err_ratelimited(data->dev, "output read failed: %d\n", ret);
	else if (burst->status & LPS001WP_STATUS_P_DA)
		data->outputs_stale = false;
	return ret;
}

/* While the own trigger runs, data ready has the pad and the thread reads the latch */
static u8 lps001wp_ctrl3(const struct lps001wp_data *data)
{
	u8 sel = data->drdy_enabled ? LPS001WP_INT1_DRDY :
		 data->events_enabled ? LPS001WP_INT1_P_EITHER : LPS001WP_INT1_GND;

	return FIELD_PREP(LPS001WP_CTRL3_INT1_CFG, sel) |
	       (data->irq_active_low ? LPS001WP_CTRL3_INT_H_L : 0) |
	       (data->irq_open_drain ? LPS001WP_CTRL3_PP_OD : 0);
}

static int lps001wp_route(struct lps001wp_data *data)
{
	return lps001wp_update(data, LPS001WP_REG_CTRL3, 0xff, lps001wp_ctrl3(data), 1);
}

/* INT1's sources and events as asked, a stale latch acknowledged first; caller locks */
static int lps001wp_arm(struct lps001wp_data *data, u8 events, bool ack)
{
	u8 old = data->events_enabled;
	unsigned int dummy;
	int ret = 0;

	if (ack)
		ret = regmap_read(data->regmap, LPS001WP_REG_INT_ACK, &dummy);
	ret = ret ?: lps001wp_update(data, LPS001WP_REG_INT_CFG, 0xff,
				     LPS001WP_INT_CFG_LIR | events, 1);
	if (ret)
		return ret;
	data->events_enabled = events;
	ret = lps001wp_route(data);
	if (ret)
		data->events_enabled = old;
	return ret;
}

static void lps001wp_push_events(struct iio_dev *indio_dev, unsigned int src, s64 timestamp)
{
	if (src & LPS001WP_INT_PL)
		iio_push_event(indio_dev, LPS001WP_EVENT(IIO_EV_DIR_RISING), timestamp);
	if (src & LPS001WP_INT_PH)
		iio_push_event(indio_dev, LPS001WP_EVENT(IIO_EV_DIR_FALLING), timestamp);
}

/* One burst; 1 once every channel in @want has a new sample; caller locks */
static int lps001wp_take_sample(struct lps001wp_data *data, unsigned int want,
				struct lps001wp_burst *burst, unsigned int *seen)
{
	int ret = lps001wp_read_burst(data, burst);

	if (ret)
		return ret;
	*seen |= burst->status & want;
	return *seen == want;
}

/* A new sample of each channel in @want; a missed one makes the chip cold; caller locks */
static int lps001wp_wait_sample(struct lps001wp_data *data, unsigned int want,
				struct lps001wp_burst *burst)
{
	unsigned int ctrl1, period_us, timeout_us, seen = 0;
	s64 wait_us;
	int ret, done;

	ret = regmap_read(data->regmap, LPS001WP_REG_CTRL1, &ctrl1);
	if (ret)
		return ret;
	lps001wp_timing(FIELD_GET(LPS001WP_CTRL1_DR, ctrl1), &period_us, &timeout_us);
	/* A little late, so that one burst usually finds it */
	wait_us = ktime_us_delta(data->sample_due, ktime_get());
	if (wait_us > 0)
		usleep_range(wait_us + period_us / 32, wait_us + period_us / 16);

	ret = read_poll_timeout(lps001wp_take_sample, done, done, period_us / 4, timeout_us,
				false, data, want, burst, &seen);
	data->sample_due = ktime_add_us(ktime_get(), period_us);
	if (done < 0)
		return done;
	if (ret) {
		data->cold = true;
		dev_err_ratelimited(data->dev, "no new sample within %u us (STATUS 0x%02x)\n",
				    timeout_us, burst->status);
	}
	return ret;
}

/*
 * The recovery rule. Every start of conversions is a power-up, and every
 * power-up passes here: the whole configuration written from the cache,
 * the chip started, its first sample dropped, and only then INT1 armed. The
 * chip is cold (needs one) after probe, a runtime suspend, a failed write
 * and a missed sample; nothing else looks for lost registers.
 */
static int lps001wp_power_up(struct lps001wp_data *data)
{
	struct lps001wp_burst burst;
	u8 ref_ths_cfg[5] = { [4] = LPS001WP_INT_CFG_LIR }, ctrls[3] = { };
	unsigned int ctrl1, period_us, timeout_us, src = 0;
	int ret;

	data->cold = true;
	ret = regmap_read(data->regmap, LPS001WP_REG_CTRL1, &ctrl1);
	ret = ret ?: regmap_bulk_read(data->regmap, LPS001WP_REG_REF_P_L, ref_ths_cfg, 4);
	lps001wp_timing(FIELD_GET(LPS001WP_CTRL1_DR, ctrl1), &period_us, &timeout_us);
	ret = ret ?: regmap_bulk_write(data->regmap, LPS001WP_REG_REF_P_L, ref_ths_cfg,
				       sizeof(ref_ths_cfg));
	/*
	 * Started with DELTA, always: one running configuration. CTRL_REG2 back
	 * to its reset value; INT1 idle, with its polarity, until the first
	 * sample is past.
	 */
	ctrls[0] = ctrl1 | LPS001WP_CTRL1_PD | LPS001WP_CTRL1_DIFF_EN;
	ctrls[2] = lps001wp_ctrl3(data) & ~LPS001WP_CTRL3_INT1_CFG;
	ret = ret ?: regmap_bulk_write(data->regmap, LPS001WP_REG_CTRL1, ctrls, sizeof(ctrls));
	if (ret)
		goto err;
	data->sample_due = ktime_add_us(ktime_get(), period_us);
	if (!LPS001WP_ASSUME_FIRST_SAMPLE_VALID)
		ret = lps001wp_wait_sample(data, LPS001WP_STATUS_P_DA, &burst);
	data->outputs_stale = true;
	/* A latch from before (a failed INT1 pass left it) is reported, not dropped */
	if (!ret && data->events_enabled)
		ret = regmap_read(data->regmap, LPS001WP_REG_INT_SRC, &src);
	ret = ret ?: lps001wp_arm(data, data->events_enabled, data->events_enabled);
	if (ret)
		goto err;
	if (src & LPS001WP_INT_SRC_IA)
		lps001wp_push_events(dev_get_drvdata(data->dev), src & data->events_enabled,
				     iio_get_time_ns(dev_get_drvdata(data->dev)));
	data->cold = false;
	data->recover_ms = LPS001WP_RECOVER_FIRST_MS;
	cancel_delayed_work(&data->recover);
	if (data->irq_masked) {
		data->irq_masked = false;
		enable_irq(data->irq);
	}
	return 0;
err:
	dev_err_ratelimited(data->dev, "power up failed: %d\n", ret);
	return ret;
}

static void lps001wp_pm_put(struct lps001wp_data *data)
{
	pm_runtime_mark_last_busy(data->dev);
	pm_runtime_put_autosuspend(data->dev);
}

/* Conversions running as configured; holds a runtime PM reference on success */
static int lps001wp_get_started(struct lps001wp_data *data)
{
	int ret = pm_runtime_resume_and_get(data->dev);

	if (ret)
		return ret;
	scoped_guard(mutex, &data->lock)
		if (data->cold)
			ret = lps001wp_power_up(data);
	if (ret)
		lps001wp_pm_put(data);
	return ret;
}

/* A start, so a power-up, for a chip that must work on its own or was left unsure */
static void lps001wp_recover(struct work_struct *work)
{
	struct lps001wp_data *data = container_of(work, struct lps001wp_data, recover.work);

	if (!lps001wp_get_started(data)) {
		lps001wp_pm_put(data);
		return;
	}
	/* A failed power-down after it schedules its own */
	guard(mutex)(&data->lock);
	lps001wp_recover_later(data, false);
}

/* in_pressure1_raw is REF_P - P whichever way the chip subtracts */
static __le16 lps001wp_output(const struct lps001wp_burst *burst, unsigned int scan_index)
{
	__le16 raw = burst->out[scan_index];

	if (scan_index == LPS001WP_DELTA && !LPS001WP_ASSUME_DELTA_IS_REF_MINUS_P)
		raw = cpu_to_le16(-le16_to_cpu(raw));
	return raw;
}

static int lps001wp_read_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			     int *val, int *val2, long mask)
{
	struct lps001wp_data *data = iio_priv(indio_dev);
	struct lps001wp_burst burst;
	unsigned int ctrl1, tries;
	int ret;

	switch (mask) {
	case IIO_CHAN_INFO_RAW:
		if (!iio_device_claim_direct(indio_dev))
			return -EBUSY;
		/* A missed sample leaves the chip cold: the second try is a power-up */
		for (tries = 2; tries--; ) {
			ret = lps001wp_get_started(data);
			if (ret)
				break;
			scoped_guard(mutex, &data->lock)
				ret = lps001wp_wait_sample(data, chan->type == IIO_TEMP ?
							   LPS001WP_STATUS_T_DA :
							   LPS001WP_STATUS_P_DA, &burst);
			lps001wp_pm_put(data);
			if (ret != -ETIMEDOUT)
				break;
		}
		iio_device_release_direct(indio_dev);
		if (ret)
			return ret;
		*val = le16_to_cpu(lps001wp_output(&burst, chan->scan_index));
		if (chan->scan_type.sign == 's')
			*val = sign_extend32(*val, 15);
		return IIO_VAL_INT;
	case IIO_CHAN_INFO_SCALE:
		/* 160 LSB/kPa; 64 LSB/degC, no offset */
		*val = chan->type == IIO_TEMP ? 125 : 1;
		*val2 = chan->type == IIO_TEMP ? 8 : 160;
		return IIO_VAL_FRACTIONAL;
	case IIO_CHAN_INFO_SAMP_FREQ:
		ret = regmap_read(data->regmap, LPS001WP_REG_CTRL1, &ctrl1);
		if (ret)
			return ret;
		ctrl1 = FIELD_GET(LPS001WP_CTRL1_DR, ctrl1);
		/* DR 00, never programmed here, runs pressure at 7 Hz: the next to last rate */
		ret = ctrl1 ? lps001wp_dr_index(ctrl1) : ARRAY_SIZE(lps001wp_odr) - 2;
		if (ret < 0)
			return ret;
		*val = lps001wp_odr[ret][0];
		*val2 = lps001wp_odr[ret][1];
		return IIO_VAL_INT_PLUS_MICRO;
	default:
		return -EINVAL;
	}
}

static int lps001wp_read_avail(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			       const int **vals, int *type, int *length, long mask)
{
	if (mask != IIO_CHAN_INFO_SAMP_FREQ)
		return -EINVAL;
	*vals = &lps001wp_odr[0][0];
	*type = IIO_VAL_INT_PLUS_MICRO;
	*length = 2 * ARRAY_SIZE(lps001wp_odr);
	return IIO_AVAIL_LIST;
}

static int lps001wp_write_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			      int val, int val2, long mask)
{
	struct lps001wp_data *data = iio_priv(indio_dev);
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(lps001wp_odr); i++)
		if (lps001wp_odr[i][0] == val && lps001wp_odr[i][1] == val2)
			break;
	if (mask != IIO_CHAN_INFO_SAMP_FREQ || i == ARRAY_SIZE(lps001wp_odr))
		return -EINVAL;

	if (!iio_device_claim_direct(indio_dev))
		return -EBUSY;
	scoped_guard(mutex, &data->lock) {
		ret = lps001wp_update(data, LPS001WP_REG_CTRL1, LPS001WP_CTRL1_DR,
				      FIELD_PREP(LPS001WP_CTRL1_DR, lps001wp_odr_dr[i]), 1);
		/* A converting chip that lost the rest restarted half set up: a power-up */
		if (!ret && !data->cold)
			ret = lps001wp_power_up(data);
	}
	iio_device_release_direct(indio_dev);
	return ret;
}

static int lps001wp_read_label(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			       char *label)
{
	static const char * const labels[] = { "absolute", "temperature", "differential" };

	if (chan->scan_index >= ARRAY_SIZE(labels))
		return -EINVAL;
	return sysfs_emit(label, "%s\n", labels[chan->scan_index]);
}

/* REF_P or THS_P, from the cache under regmap's lock: no wait behind a power-up */
static int lps001wp_read_pair(struct lps001wp_data *data, unsigned int reg, int *val)
{
	__le16 raw = 0;
	int ret = regmap_bulk_read(data->regmap, reg, &raw, sizeof(raw));

	*val = le16_to_cpu(raw);
	return ret;
}

static ssize_t lps001wp_reference_read(struct iio_dev *indio_dev, uintptr_t private,
				       const struct iio_chan_spec *chan, char *buf)
{
	int ret, val;

	ret = lps001wp_read_pair(iio_priv(indio_dev), LPS001WP_REG_REF_P_L, &val);
	return ret ?: sysfs_emit(buf, "%d\n", val);
}

static ssize_t lps001wp_reference_write(struct iio_dev *indio_dev, uintptr_t private,
					const struct iio_chan_spec *chan, const char *buf,
					size_t len)
{
	struct lps001wp_data *data = iio_priv(indio_dev);
	struct lps001wp_burst burst;
	u16 ref;
	int ret;

	ret = kstrtou16(buf, 10, &ref);
	if (ret)
		return ret;

	guard(mutex)(&data->lock);
	ret = lps001wp_update(data, LPS001WP_REG_REF_P_L, U16_MAX, ref, 2);
	if (ret)
		return ret;
	/* A waiting sample's DELTA used the old reference: read out, or a new start */
	if (!data->cold) {
		if (lps001wp_read_burst(data, &burst))
			data->cold = true;
		data->outputs_stale = true;
	}
	return len;
}

/* DELTA = REF_P - P: PL (DELTA > THS_P) is rising; one THS_P serves both */
static const struct iio_event_spec lps001wp_events[] = {
	{ .type = IIO_EV_TYPE_THRESH, .dir = IIO_EV_DIR_RISING,
	  .mask_separate = BIT(IIO_EV_INFO_ENABLE) },
	{ .type = IIO_EV_TYPE_THRESH, .dir = IIO_EV_DIR_FALLING,
	  .mask_separate = BIT(IIO_EV_INFO_ENABLE) },
	{ .type = IIO_EV_TYPE_THRESH, .dir = IIO_EV_DIR_EITHER,
	  .mask_separate = BIT(IIO_EV_INFO_VALUE) },
};

static const struct iio_chan_spec_ext_info lps001wp_delta_ext_info[] = {
	{ .name = "reference_raw", .shared = IIO_SEPARATE,
	  .read = lps001wp_reference_read, .write = lps001wp_reference_write },
	{ }
};

#define LPS001WP_CHAN(_type, _scan, _sign)					\
	.type = _type,								\
	.info_mask_separate = BIT(IIO_CHAN_INFO_RAW),				\
	.info_mask_shared_by_type = BIT(IIO_CHAN_INFO_SCALE),			\
	.info_mask_shared_by_all = BIT(IIO_CHAN_INFO_SAMP_FREQ),		\
	.info_mask_shared_by_all_available = BIT(IIO_CHAN_INFO_SAMP_FREQ),	\
	.scan_index = _scan,							\
	.scan_type = { .sign = _sign, .realbits = 16, .storagebits = 16, .endianness = IIO_LE }

static const struct iio_chan_spec lps001wp_channels[] = {
	{ LPS001WP_CHAN(IIO_PRESSURE, LPS001WP_PRESSURE, 'u') },
	{ LPS001WP_CHAN(IIO_TEMP, LPS001WP_TEMP, 's') },
	{
		LPS001WP_CHAN(IIO_PRESSURE, LPS001WP_DELTA, 's'),
		.indexed = 1,
		.channel = 1,
		.ext_info = lps001wp_delta_ext_info,
		.event_spec = lps001wp_events,
		.num_event_specs = ARRAY_SIZE(lps001wp_events),
	},
	IIO_CHAN_SOFT_TIMESTAMP(LPS001WP_TS),
};

static int lps001wp_read_event_config(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
				      enum iio_event_type type, enum iio_event_direction dir)
{
	struct lps001wp_data *data = iio_priv(indio_dev);

	guard(mutex)(&data->lock);
	return !!(data->events_enabled & LPS001WP_EVENT_BIT(dir));
}

/* Enabled events hold a runtime PM reference: they need the chip converting */
static int lps001wp_write_event_config(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
				       enum iio_event_type type, enum iio_event_direction dir,
				       LPS001WP_EVENT_STATE state)
{
	struct lps001wp_data *data = iio_priv(indio_dev);
	u8 bit = LPS001WP_EVENT_BIT(dir), old, cur;
	int ret;

	/* From cold, the power-up drops the first sample before anything is armed */
	ret = lps001wp_get_started(data);
	if (ret)
		return ret;
	scoped_guard(mutex, &data->lock) {
		old = data->events_enabled;
		ret = lps001wp_arm(data, state ? old | bit : old & ~bit, !old && state);
		cur = data->events_enabled;
	}
	if (!old && cur)
		return ret;
	if (old && !cur)
		lps001wp_pm_put(data);
	lps001wp_pm_put(data);
	return ret;
}

static int lps001wp_read_event_value(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
				     enum iio_event_type type, enum iio_event_direction dir,
				     enum iio_event_info info, int *val, int *val2)
{
	int ret = lps001wp_read_pair(iio_priv(indio_dev), LPS001WP_REG_THS_P_L, val);

	return ret ?: IIO_VAL_INT;
}

static int lps001wp_write_event_value(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
				      enum iio_event_type type, enum iio_event_direction dir,
				      enum iio_event_info info, int val, int val2)
{
	struct lps001wp_data *data = iio_priv(indio_dev);

	if (val2 || val < 0 || val > U16_MAX)
		return -EINVAL;

	guard(mutex)(&data->lock);
	return lps001wp_update(data, LPS001WP_REG_THS_P_L, U16_MAX, val, 2);
}

static int lps001wp_debugfs_reg_access(struct iio_dev *indio_dev, unsigned int reg,
				       unsigned int writeval, unsigned int *readval)
{
	struct lps001wp_data *data = iio_priv(indio_dev);

	if (readval ? !lps001wp_readable_reg(NULL, reg) :
		      !lps001wp_writeable_reg(NULL, reg) || writeval > U8_MAX)
		return -EINVAL;

	guard(mutex)(&data->lock);
	if (readval)
		return regmap_read(data->regmap, reg, readval);
	return lps001wp_update(data, reg, 0xff, writeval, 1);
}

static const struct iio_info lps001wp_info = {
	.read_raw = lps001wp_read_raw,
	.read_avail = lps001wp_read_avail,
	.write_raw = lps001wp_write_raw,
	.read_label = lps001wp_read_label,
	.read_event_config = lps001wp_read_event_config,
	.write_event_config = lps001wp_write_event_config,
	.read_event_value = lps001wp_read_event_value,
	.write_event_value = lps001wp_write_event_value,
	.debugfs_reg_access = lps001wp_debugfs_reg_access,
};

static int lps001wp_buffer_preenable(struct iio_dev *indio_dev)
{
	struct lps001wp_data *data = iio_priv(indio_dev);
	struct lps001wp_burst burst;
	int ret;

	ret = lps001wp_get_started(data);
	if (ret)
		return ret;
	/*
	 * Scans start with a sample made after the start, and a chip that lost
	 * its supply while held on is found here, not by a silent stream
	 */
	scoped_guard(mutex, &data->lock)
		ret = lps001wp_read_burst(data, &burst) ?:
		      lps001wp_wait_sample(data, LPS001WP_STATUS_P_DA | LPS001WP_STATUS_T_DA,
					   &burst);
	if (ret)
		lps001wp_pm_put(data);
	return ret;
}

/* From here to the predisable, a resume starts the chip itself */
static int lps001wp_buffer_postenable(struct iio_dev *indio_dev)
{
	struct lps001wp_data *data = iio_priv(indio_dev);

	guard(mutex)(&data->lock);
	data->streaming = true;
	return 0;
}

static int lps001wp_buffer_predisable(struct iio_dev *indio_dev)
{
	struct lps001wp_data *data = iio_priv(indio_dev);

	guard(mutex)(&data->lock);
	data->streaming = false;
	return 0;
}

static int lps001wp_buffer_postdisable(struct iio_dev *indio_dev)
{
	lps001wp_pm_put(iio_priv(indio_dev));
	return 0;
}

static const struct iio_buffer_setup_ops lps001wp_buffer_ops = {
	.preenable = lps001wp_buffer_preenable,
	.postenable = lps001wp_buffer_postenable,
	.predisable = lps001wp_buffer_predisable,
	.postdisable = lps001wp_buffer_postdisable,
};

static irqreturn_t lps001wp_trigger_handler(int irq, void *p)
{
	struct iio_poll_func *pf = p;
	struct iio_dev *indio_dev = pf->indio_dev;
	struct lps001wp_data *data = iio_priv(indio_dev);
	const struct lps001wp_burst *sample = &data->drdy_burst;
	struct lps001wp_burst burst;
	s64 timestamp = data->drdy_timestamp;
	unsigned int i, n = 0;
	bool valid = true;

	/* The own trigger runs from the INT1 thread, which read the sample */
	if (!iio_trigger_using_own(indio_dev)) {
		/* Nested triggers store no time; a stored one is used once */
		timestamp = pf->timestamp ?: iio_get_time_ns(indio_dev);
		pf->timestamp = 0;
		sample = &burst;
		/* After a power-up the outputs hold the dropped sample until the next one */
		scoped_guard(mutex, &data->lock)
			valid = !lps001wp_read_burst(data, &burst) && !data->outputs_stale;
	}

	/* Packed here: the core's demux tables outlive an unbind on some kernels */
	if (valid) {
		memset(data->scan.chans, 0, sizeof(data->scan.chans));
		for (i = 0; i < ARRAY_SIZE(burst.out); i++)
			if (test_bit(i, indio_dev->active_scan_mask))
				data->scan.chans[n++] = lps001wp_output(sample, i);
		iio_push_to_buffers_with_ts(indio_dev, &data->scan, sizeof(data->scan), timestamp);
	}
	iio_trigger_notify_done(indio_dev->trig);
	return IRQ_HANDLED;
}

static int lps001wp_drdy_set_state(struct iio_trigger *trig, bool state)
{
	struct lps001wp_data *data = iio_priv(iio_trigger_get_drvdata(trig));
	struct lps001wp_burst burst;
	int ret;

	guard(mutex)(&data->lock);
	data->drdy_enabled = state;
	ret = lps001wp_route(data);
	/* DRDY must fall for the next sample to raise an edge */
	if (!ret && state)
		ret = lps001wp_read_burst(data, &burst);
	if (!ret)
		return 0;
	/* Off cannot fail (the core keeps the poll function): a power-up routes again */
	data->drdy_enabled = false;
	lps001wp_recover_later(data, true);
	return state ? ret : 0;
}

static const struct iio_trigger_ops lps001wp_trigger_ops = {
	.set_trigger_state = lps001wp_drdy_set_state,
	.validate_device = iio_trigger_validate_own_device,
};

static irqreturn_t lps001wp_irq_handler(int irq, void *private)
{
	struct iio_dev *indio_dev = private;
	struct lps001wp_data *data = iio_priv(indio_dev);

	atomic64_set(&data->irq_timestamp, iio_get_time_ns(indio_dev));
	return IRQ_WAKE_THREAD;
}

/* Events are pushed once acknowledged; a failed pass may leave the pad asserted */
static irqreturn_t lps001wp_irq_thread(int irq, void *private)
{
	struct iio_dev *indio_dev = private;
	struct lps001wp_data *data = iio_priv(indio_dev);
	s64 timestamp = atomic64_read(&data->irq_timestamp);
	unsigned int src = 0, dummy;
	bool sample = false;
	int ret = 0;

	scoped_guard(mutex, &data->lock) {
		if (data->events_enabled) {
			ret = regmap_read(data->regmap, LPS001WP_REG_INT_SRC, &src);
			if (!ret && src & LPS001WP_INT_SRC_IA)
				ret = regmap_read(data->regmap, LPS001WP_REG_INT_ACK, &dummy);
		}
		/* Reading the sample lowers DRDY; the next one raises it again */
		if (!ret && data->drdy_enabled) {
			ret = lps001wp_read_burst(data, &data->drdy_burst);
			sample = !ret && data->drdy_burst.status & LPS001WP_STATUS_P_DA;
		}
		if (ret) {
			dev_err_ratelimited(data->dev, "INT1 pass failed: %d\n", ret);
			lps001wp_recover_later(data, false);
			return IRQ_HANDLED;
		}
		src &= data->events_enabled;
	}
	lps001wp_push_events(indio_dev, src, timestamp);
	if (sample) {
		data->drdy_timestamp = timestamp;
		iio_trigger_poll_nested(data->trig);
	}
	return src || sample ? IRQ_HANDLED : IRQ_NONE;
}

/* Never fails: a sensor does not keep the machine awake */
static int lps001wp_runtime_suspend(struct device *dev)
{
	struct lps001wp_data *data = iio_priv(dev_get_drvdata(dev));
	int ret;

	guard(mutex)(&data->lock);
	data->cold = true;
	ret = regmap_update_bits(data->regmap, LPS001WP_REG_CTRL1,
				 LPS001WP_CTRL1_PD | LPS001WP_CTRL1_DIFF_EN, 0);
	if (ret) {
		dev_err_ratelimited(dev, "power down failed: %d\n", ret);
		lps001wp_recover_later(data, true);
	}
	return 0;
}

/* A running buffer or events need the chip at once; any other user starts it */
static int lps001wp_runtime_resume(struct device *dev)
{
	struct lps001wp_data *data = iio_priv(dev_get_drvdata(dev));

	guard(mutex)(&data->lock);
	if ((data->streaming || data->events_enabled) && lps001wp_power_up(data))
		lps001wp_recover_later(data, false);
	return 0;
}

/* Supplies may drop in system sleep: the chip is cold after it, recovery waits */
static int lps001wp_suspend(struct device *dev)
{
	struct lps001wp_data *data = iio_priv(dev_get_drvdata(dev));

	scoped_guard(mutex, &data->lock)
		data->halted = true;
	cancel_delayed_work_sync(&data->recover);
	return pm_runtime_force_suspend(dev);
}

static int lps001wp_resume(struct device *dev)
{
	struct lps001wp_data *data = iio_priv(dev_get_drvdata(dev));

	scoped_guard(mutex, &data->lock) {
		data->halted = false;
		/* A recovery that the suspend cancelled */
		if (data->irq_masked)
			queue_delayed_work(system_wq, &data->recover, 0);
	}
	return pm_runtime_force_resume(dev);
}

static const struct dev_pm_ops lps001wp_pm_ops = {
	SYSTEM_SLEEP_PM_OPS(lps001wp_suspend, lps001wp_resume)
	RUNTIME_PM_OPS(lps001wp_runtime_suspend, lps001wp_runtime_resume, NULL)
};

/* Known state, stopped: the chip has no software reset */
static int lps001wp_chip_init(struct lps001wp_data *data)
{
	static const u8 ref_ths_cfg[] = { 0, 0, 0, 0, LPS001WP_INT_CFG_LIR };
	unsigned int dummy;
	int ret;

	ret = regmap_write(data->regmap, LPS001WP_REG_CTRL1,
			   LPS001WP_CTRL1_BDU | FIELD_PREP(LPS001WP_CTRL1_DR, LPS001WP_DR_11));
	if (!ret)
		ret = regmap_write(data->regmap, LPS001WP_REG_CTRL3, lps001wp_ctrl3(data));
	if (!ret)
		ret = regmap_bulk_write(data->regmap, LPS001WP_REG_REF_P_L, ref_ths_cfg,
					sizeof(ref_ths_cfg));
	if (!ret)
		ret = regmap_read(data->regmap, LPS001WP_REG_INT_ACK, &dummy);
	return ret;
}

static int lps001wp_get_irq(struct lps001wp_data *data, struct i2c_client *client)
{
	struct fwnode_handle *fwnode = dev_fwnode(data->dev);
	int irq = client->irq, type;

	/* Without names, the I2C core has resolved the first interrupt */
	if (fwnode_property_present(fwnode, "interrupt-names")) {
		/* The package's other seven pads are supplies and the bus */
		if (fwnode_property_match_string(fwnode, "interrupt-names", "int2") >= 0)
			return dev_err_probe(data->dev, -EINVAL,
					     "interrupt-names has \"int2\": the LPS001WP has INT1 only\n");
		irq = fwnode_irq_get_byname(fwnode, "int1");
		if (irq < 0)
			return dev_err_probe(data->dev, irq, "int1 IRQ unusable\n");
	}
	if (irq <= 0)
		return 0;

	type = irq_get_trigger_type(irq);
	if (hweight32(type) > 1)
		return dev_err_probe(data->dev, -EINVAL, "unsupported IRQ trigger type %d\n", type);
	data->irq_active_low = type & (IRQ_TYPE_EDGE_FALLING | IRQ_TYPE_LEVEL_LOW);
	data->irq_open_drain = device_property_read_bool(data->dev, "drive-open-drain");
	/* Wired-OR: no edge for a sample raised while another device holds the line */
	if (data->irq_open_drain && !(type & IRQ_TYPE_LEVEL_MASK))
		dev_warn(data->dev, "open-drain INT1 on an edge: a shared line needs a level trigger\n");
	data->irq = irq;
	return 0;
}

static int lps001wp_setup_irq(struct iio_dev *indio_dev)
{
	struct lps001wp_data *data = iio_priv(indio_dev);
	unsigned int type = irq_get_trigger_type(data->irq);
	/* A level holds until the thread has read the chip; an edge meanwhile queues a pass */
	unsigned long flags = type & IRQ_TYPE_LEVEL_MASK ? IRQF_ONESHOT :
			      type ? 0 : IRQF_TRIGGER_RISING;
	int ret;

	if (data->irq_open_drain)
		flags |= IRQF_SHARED;

	data->trig = devm_iio_trigger_alloc(data->dev, "%s-dev%d", indio_dev->name,
					    iio_device_id(indio_dev));
	if (!data->trig)
		return -ENOMEM;
	data->trig->ops = &lps001wp_trigger_ops;
	iio_trigger_set_drvdata(data->trig, indio_dev);

	/* Before the trigger exists for user space to enable */
	ret = devm_request_threaded_irq(data->dev, data->irq, lps001wp_irq_handler,
					lps001wp_irq_thread, flags, "lps001wp-int1", indio_dev);
	if (ret)
		return dev_err_probe(data->dev, ret, "IRQ %d request failed\n", data->irq);

	ret = devm_iio_trigger_register(data->dev, data->trig);
	if (ret)
		return dev_err_probe(data->dev, ret, "trigger registration failed\n");
	indio_dev->trig = iio_trigger_get(data->trig);
	return 0;
}

/*
 * After unregistration (which leaves events enabled), before the IRQ is freed
 * and the supplies go off: no recovery, events' PM reference back, no pad
 * asserted, the chip stopped even if PM is held.
 */
static void lps001wp_disarm(void *arg)
{
	struct lps001wp_data *data = arg;
	unsigned int dummy;
	int ret;

	scoped_guard(mutex, &data->lock)
		data->halted = true;
	cancel_delayed_work_sync(&data->recover);

	guard(mutex)(&data->lock);
	if (data->events_enabled)
		pm_runtime_put_noidle(data->dev);
	data->drdy_enabled = false;
	data->events_enabled = 0;
	/* Each step whatever the others did */
	ret = regmap_write(data->regmap, LPS001WP_REG_INT_CFG, 0);
	ret = regmap_write(data->regmap, LPS001WP_REG_CTRL3, lps001wp_ctrl3(data)) ?: ret;
	ret = regmap_read(data->regmap, LPS001WP_REG_INT_ACK, &dummy) ?: ret;
	ret = regmap_update_bits(data->regmap, LPS001WP_REG_CTRL1,
				 LPS001WP_CTRL1_PD | LPS001WP_CTRL1_DIFF_EN, 0) ?: ret;
	if (ret)
		dev_warn(data->dev, "chip not disarmed: %d\n", ret);
}

static int lps001wp_probe(struct i2c_client *client)
{
	static const char * const supplies[] = { "vdd", "vddio" };
	struct device *dev = &client->dev;
	struct lps001wp_data *data;
	struct iio_dev *indio_dev;
	struct iio_chan_spec *chans;
	unsigned int who_am_i;
	int ret;

	indio_dev = devm_iio_device_alloc(dev, sizeof(*data));
	if (!indio_dev)
		return -ENOMEM;
	i2c_set_clientdata(client, indio_dev);
	data = iio_priv(indio_dev);
	data->dev = dev;
	ret = devm_mutex_init(dev, &data->lock);
	if (ret)
		return ret;
	data->cold = true;
	data->recover_ms = LPS001WP_RECOVER_FIRST_MS;
	ret = devm_delayed_work_autocancel(dev, &data->recover, lps001wp_recover);
	if (ret)
		return ret;

	data->regmap = devm_regmap_init_i2c(client, &lps001wp_regmap_config);
	if (IS_ERR(data->regmap))
		return dev_err_probe(dev, PTR_ERR(data->regmap), "regmap init failed\n");
	ret = devm_regulator_bulk_get_enable(dev, ARRAY_SIZE(supplies), supplies);
	if (ret)
		return dev_err_probe(dev, ret, "supplies enable failed\n");
	fsleep(LPS001WP_TURN_ON_US);

	ret = regmap_read(data->regmap, LPS001WP_REG_WHO_AM_I, &who_am_i);
	if (ret)
		return dev_err_probe(dev, ret, "WHO_AM_I read failed\n");
	if (who_am_i != LPS001WP_WHO_AM_I_VALUE)
		return dev_err_probe(dev, -ENODEV, "WHO_AM_I 0x%02x, expected 0x%02x\n",
				     who_am_i, LPS001WP_WHO_AM_I_VALUE);
	ret = lps001wp_get_irq(data, client);
	if (ret)
		return ret;
	ret = lps001wp_chip_init(data);
	if (ret)
		return dev_err_probe(dev, ret, "chip init failed\n");

	/* Configured and stopped is what runtime active means here */
	ret = pm_runtime_set_active(dev);
	if (ret)
		return ret;
	pm_runtime_set_autosuspend_delay(dev, LPS001WP_AUTOSUSPEND_MS);
	pm_runtime_use_autosuspend(dev);
	ret = devm_pm_runtime_enable(dev);
	if (ret)
		return ret;

	indio_dev->name = "lps001wp";
	indio_dev->modes = INDIO_DIRECT_MODE;
	indio_dev->info = &lps001wp_info;
	indio_dev->channels = lps001wp_channels;
	indio_dev->num_channels = ARRAY_SIZE(lps001wp_channels);
	/* Events need the interrupt to report them */
	if (!data->irq) {
		chans = devm_kmemdup(dev, lps001wp_channels, sizeof(lps001wp_channels), GFP_KERNEL);
		if (!chans)
			return -ENOMEM;
		chans[LPS001WP_DELTA].num_event_specs = 0;
		indio_dev->channels = chans;
	}

	ret = devm_iio_triggered_buffer_setup(dev, indio_dev, iio_pollfunc_store_time,
					      lps001wp_trigger_handler, &lps001wp_buffer_ops);
	if (ret)
		return dev_err_probe(dev, ret, "buffer setup failed\n");
	if (data->irq) {
		ret = lps001wp_setup_irq(indio_dev);
		if (ret)
			return ret;
	}
	ret = devm_add_action_or_reset(dev, lps001wp_disarm, data);
	if (ret)
		return ret;

	ret = devm_iio_device_register(dev, indio_dev);
	if (ret)
		return dev_err_probe(dev, ret, "IIO registration failed\n");
	/* Nothing uses the chip yet: suspended now, not only once a last_busy expires */
	pm_runtime_suspend(dev);
	return 0;
}

static const struct of_device_id lps001wp_of_match[] = {
	{ .compatible = "st,lps001wp" },
	{ .compatible = "st,lps001wp-press" },
	{ }
};
MODULE_DEVICE_TABLE(of, lps001wp_of_match);

static const struct i2c_device_id lps001wp_id[] = {
	{ "lps001wp" },
	{ }
};
MODULE_DEVICE_TABLE(i2c, lps001wp_id);

static struct i2c_driver lps001wp_driver = {
	.driver = {
		.name = "lps001wp",
		.of_match_table = lps001wp_of_match,
		.pm = pm_ptr(&lps001wp_pm_ops),
	},
	.LPS001WP_I2C_PROBE_MEMBER = lps001wp_probe,
	.id_table = lps001wp_id,
};
module_i2c_driver(lps001wp_driver);

MODULE_DESCRIPTION("STMicroelectronics LPS001WP pressure sensor IIO driver");
MODULE_LICENSE("GPL");
#ifdef LPS001WP_VERSION
MODULE_VERSION(LPS001WP_VERSION);
#endif

#ifdef LPS001WP_KUNIT_TEST
#include "tests/kunit/lps001wp_kunit.c"
#endif
