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
/* Bus attempts of one interrupt pass, spread over about a 12.5 Hz period */
#define LPS001WP_IRQ_TRIES		8
#define LPS001WP_IRQ_RETRY_US		10000
/* Then a pass again this much later, until the bus answers */
#define LPS001WP_RECHECK_MS			1000

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
	/* The configuration, the flags deciding it, and reads that clear state */
	struct mutex lock;
	bool drdy_enabled;
	u8 events_enabled;		/* LPS001WP_INT_PL | LPS001WP_INT_PH */
	bool discard_pending;		/* the outputs may predate the setup */
	bool first_sample_pending;
	bool regs_lost;			/* replay all at the next start or resume */
	bool check_pending;		/* a read failed: were the registers lost? */
	ktime_t powered_up;
	struct delayed_work irq_recheck;
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

/* An update with rollback: the cache alone knows the rest of the register; caller locks */
static int lps001wp_update(struct lps001wp_data *data, unsigned int reg, unsigned int mask,
			   unsigned int val, size_t len)
{
	__le16 old = 0, new;
	int ret;

	ret = regmap_bulk_read(data->regmap, reg, &old, len);
	if (ret)
		goto err;
	new = cpu_to_le16((le16_to_cpu(old) & ~mask) | (val & mask));
	/* As regmap_update_bits(): no bit changed, no transfer. Whole registers always go out */
	if (new == old && mask != GENMASK(8 * len - 1, 0))
		return 0;
	ret = regmap_bulk_write(data->regmap, reg, &new, len);
	if (ret) {
		regcache_cache_only(data->regmap, true);
		regmap_bulk_write(data->regmap, reg, &old, len);
		regcache_cache_only(data->regmap, false);
		data->regs_lost = true;
	}
err:
	if (ret)
		dev_err_ratelimited(data->dev, "write of 0x%02x failed: %d\n", reg, ret);
	return ret;
}

static int lps001wp_read_burst(struct lps001wp_data *data, struct lps001wp_burst *burst)
{
	int ret = regmap_bulk_read(data->regmap, LPS001WP_REG_STATUS, burst, sizeof(*burst));

	/* Maybe a supply dip: the next start checks */
	data->check_pending |= ret;
	if (ret)
		dev_err_ratelimited(data->dev, "output read failed: %d\n", ret);
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

/*
 * A supply loss resets INT_CFG (LIR set from probe on, spec §3.7) and PD: all
 * is written again, from a stopped chip. Checked at resume, after a failed read.
 */
static int lps001wp_restore(struct lps001wp_data *data, bool check)
{
	unsigned int int_cfg, chip_int_cfg;
	int ret = 0;

	if (check && !data->regs_lost) {
		ret = regmap_read(data->regmap, LPS001WP_REG_INT_CFG, &int_cfg);
		regcache_cache_bypass(data->regmap, true);
		ret = ret ?: regmap_read(data->regmap, LPS001WP_REG_INT_CFG, &chip_int_cfg);
		regcache_cache_bypass(data->regmap, false);
		if (ret)
			return ret;
		data->check_pending = false;
		if (chip_int_cfg != int_cfg) {
			dev_warn(data->dev, "registers lost (INT_CFG 0x%02x), restoring\n",
				 chip_int_cfg);
			data->regs_lost = true;
			regcache_cache_only(data->regmap, true);
			regmap_update_bits(data->regmap, LPS001WP_REG_CTRL1, LPS001WP_CTRL1_PD, 0);
			regcache_cache_only(data->regmap, false);
		}
	}
	if (!data->regs_lost)
		return 0;
	regcache_mark_dirty(data->regmap);
	ret = regcache_sync(data->regmap);
	data->regs_lost = !!ret;
	return ret;
}

/* Converting, with DELTA if asked; the caller holds a runtime PM reference */
static int lps001wp_start(struct lps001wp_data *data, bool delta)
{
	unsigned int ctrl1, bits = LPS001WP_CTRL1_PD | (delta ? LPS001WP_CTRL1_DIFF_EN : 0);
	int ret;

	ret = lps001wp_restore(data, data->check_pending);
	if (ret)
		goto err;
	ret = regmap_read(data->regmap, LPS001WP_REG_CTRL1, &ctrl1);
	if (ret || (ctrl1 & bits) == bits)
		return ret;
	ret = lps001wp_update(data, LPS001WP_REG_CTRL1, bits, bits, 1);
	if (ret)
		goto err;
	/* What the outputs hold predates the power-up, or has no DELTA */
	data->discard_pending = true;
	if (!(ctrl1 & LPS001WP_CTRL1_PD)) {
		data->powered_up = ktime_get();
		data->first_sample_pending = !LPS001WP_ASSUME_FIRST_SAMPLE_VALID;
	}
	return 0;
err:
	dev_err_ratelimited(data->dev, "power up failed: %d\n", ret);
	return ret;
}

/* Trusted data-ready bits: the first sample after power-up needs an overrun */
static unsigned int lps001wp_valid_da(struct lps001wp_data *data,
				      const struct lps001wp_burst *burst)
{
	unsigned int da = burst->status & (LPS001WP_STATUS_P_DA | LPS001WP_STATUS_T_DA);
	unsigned int or = FIELD_PREP(LPS001WP_STATUS_P_OR | LPS001WP_STATUS_T_OR, da);

	if (!da || !data->first_sample_pending)
		return da;
	data->first_sample_pending = false;
	if ((burst->status & or) == or)
		return da;
	dev_dbg(data->dev, "first sample after power-up dropped\n");
	return 0;
}

/* in_pressure1_raw is REF_P - P whichever way the chip subtracts */
static __le16 lps001wp_output(const struct lps001wp_burst *burst, unsigned int scan_index)
{
	__le16 raw = burst->out[scan_index];

	if (scan_index == LPS001WP_DELTA && !LPS001WP_ASSUME_DELTA_IS_REF_MINUS_P)
		raw = cpu_to_le16(-le16_to_cpu(raw));
	return raw;
}

/* One burst; 1 once every channel in @want has had a trusted sample */
static int lps001wp_take_sample(struct lps001wp_data *data, unsigned int want,
				struct lps001wp_burst *burst, unsigned int *seen)
{
	int ret;

	guard(mutex)(&data->lock);
	ret = lps001wp_read_burst(data, burst);
	if (ret)
		return ret;
	*seen |= lps001wp_valid_da(data, burst) & want;
	return *seen == want;
}

/* A sample of each channel in @want made with the present setup; locked per access */
static int lps001wp_wait_sample(struct lps001wp_data *data, unsigned int want,
				struct lps001wp_burst *burst)
{
	unsigned int ctrl1, period_us, timeout_us, seen = 0;
	s64 wait_us = 0;
	int ret, done;

	scoped_guard(mutex, &data->lock) {
		ret = regmap_read(data->regmap, LPS001WP_REG_CTRL1, &ctrl1);
		if (ret)
			return ret;
		lps001wp_timing(FIELD_GET(LPS001WP_CTRL1_DR, ctrl1), &period_us, &timeout_us);
		if (data->discard_pending) {
			ret = lps001wp_read_burst(data, burst);
			if (ret)
				return ret;
			data->discard_pending = false;
			wait_us = ktime_us_delta(ktime_add_us(data->powered_up, period_us),
						 ktime_get());
			if (data->first_sample_pending)
				wait_us += period_us;
		}
	}
	/* A little late, so that one burst usually finds it */
	if (wait_us > 0)
		usleep_range(wait_us + period_us / 32, wait_us + period_us / 16);

	ret = read_poll_timeout(lps001wp_take_sample, done, done, period_us / 4, timeout_us,
				false, data, want, burst, &seen);
	if (done < 0)
		return done;
	if (ret)
		dev_err_ratelimited(data->dev, "no new sample within %u us (STATUS 0x%02x)\n",
				    timeout_us, burst->status);
	return ret;
}

/* A failed resume sets runtime_error, which refuses every later one */
static int lps001wp_pm_get(struct lps001wp_data *data)
{
	int ret = pm_runtime_resume_and_get(data->dev);

	if (ret)
		pm_runtime_set_suspended(data->dev);
	return ret;
}

static void lps001wp_pm_put(struct lps001wp_data *data)
{
	pm_runtime_mark_last_busy(data->dev);
	pm_runtime_put_autosuspend(data->dev);
}

/* Holds a runtime PM reference on success */
static int lps001wp_get_started(struct lps001wp_data *data, bool delta)
{
	int ret = lps001wp_pm_get(data);

	if (ret)
		return ret;
	scoped_guard(mutex, &data->lock)
		ret = lps001wp_start(data, delta);
	if (ret)
		lps001wp_pm_put(data);
	return ret;
}

static int lps001wp_read_raw(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			     int *val, int *val2, long mask)
{
	struct lps001wp_data *data = iio_priv(indio_dev);
	struct lps001wp_burst burst;
	unsigned int ctrl1;
	int ret;

	switch (mask) {
	case IIO_CHAN_INFO_RAW:
		if (!iio_device_claim_direct(indio_dev))
			return -EBUSY;
		ret = lps001wp_get_started(data, chan->scan_index == LPS001WP_DELTA);
		if (!ret) {
			ret = lps001wp_wait_sample(data, chan->type == IIO_TEMP ?
						   LPS001WP_STATUS_T_DA : LPS001WP_STATUS_P_DA,
						   &burst);
			lps001wp_pm_put(data);
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
		scoped_guard(mutex, &data->lock)
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
	scoped_guard(mutex, &data->lock)
		ret = lps001wp_update(data, LPS001WP_REG_CTRL1, LPS001WP_CTRL1_DR,
				      FIELD_PREP(LPS001WP_CTRL1_DR, lps001wp_odr_dr[i]), 1);
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

/* REF_P or THS_P, from the cache */
static int lps001wp_read_pair(struct lps001wp_data *data, unsigned int reg, int *val)
{
	__le16 raw = 0;
	int ret;

	scoped_guard(mutex, &data->lock)
		ret = regmap_bulk_read(data->regmap, reg, &raw, sizeof(raw));
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
	u16 ref;
	int ret;

	if (kstrtou16(buf, 10, &ref))
		return -EINVAL;

	guard(mutex)(&data->lock);
	ret = lps001wp_update(data, LPS001WP_REG_REF_P_L, U16_MAX, ref, 2);
	/* A waiting sample's DELTA used the old reference */
	data->discard_pending = true;
	return ret ?: len;
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

static int lps001wp_apply_events(struct lps001wp_data *data, u8 enabled)
{
	u8 old = data->events_enabled;
	unsigned int dummy;
	int ret;

	ret = lps001wp_update(data, LPS001WP_REG_INT_CFG, 0xff, LPS001WP_INT_CFG_LIR | enabled, 1);
	/* A latch from before events were on would fire; one from while on is the thread's */
	if (!ret && (!old || !enabled) && old != enabled)
		ret = regmap_read(data->regmap, LPS001WP_REG_INT_ACK, &dummy);
	if (ret)
		return ret;
	data->events_enabled = enabled;
	ret = lps001wp_route(data);
	if (ret)
		data->events_enabled = old;
	return ret;
}

/* Enabled events hold a runtime PM reference: they need the chip converting */
static int lps001wp_write_event_config(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
				       enum iio_event_type type, enum iio_event_direction dir,
				       LPS001WP_EVENT_STATE state)
{
	struct lps001wp_data *data = iio_priv(indio_dev);
	u8 bit = LPS001WP_EVENT_BIT(dir), old, cur;
	struct lps001wp_burst burst;
	bool first = false;
	int ret;

	ret = state ? lps001wp_get_started(data, true) : lps001wp_pm_get(data);
	if (ret)
		return ret;
	/* The chip compares its first sample too, which may be garbage */
	scoped_guard(mutex, &data->lock)
		first = state && data->first_sample_pending;
	if (first)
		ret = lps001wp_wait_sample(data, LPS001WP_STATUS_P_DA, &burst);

	scoped_guard(mutex, &data->lock) {
		old = data->events_enabled;
		/* Applied even when unchanged, to re-sync after a bus error */
		if (!ret) {
			ret = lps001wp_apply_events(data, state ? old | bit : old & ~bit);
			if (ret)
				lps001wp_apply_events(data, old);
		}
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

/* Every scan carries DELTA: no trigger may read a sample made without it */
static int lps001wp_buffer_preenable(struct iio_dev *indio_dev)
{
	struct lps001wp_data *data = iio_priv(indio_dev);
	struct lps001wp_burst burst;
	int ret;

	ret = lps001wp_get_started(data, true);
	if (ret)
		return ret;
	/* A sample a burst has read stays in the outputs */
	scoped_guard(mutex, &data->lock)
		data->discard_pending = true;
	ret = lps001wp_wait_sample(data, LPS001WP_STATUS_P_DA | LPS001WP_STATUS_T_DA, &burst);
	if (ret)
		lps001wp_pm_put(data);
	return ret;
}

static int lps001wp_buffer_postdisable(struct iio_dev *indio_dev)
{
	lps001wp_pm_put(iio_priv(indio_dev));
	return 0;
}

static const struct iio_buffer_setup_ops lps001wp_buffer_ops = {
	.preenable = lps001wp_buffer_preenable,
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
		scoped_guard(mutex, &data->lock) {
			valid = !lps001wp_read_burst(data, &burst);
			/* After a resume under a running buffer */
			if (valid && data->first_sample_pending)
				valid = lps001wp_valid_da(data, &burst);
		}
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
	if (ret && state) {
		data->drdy_enabled = false;
		lps001wp_route(data);
		return ret;
	}
	/* Off cannot fail (the core keeps the poll function): the INT1 thread routes again */
	if (ret)
		schedule_delayed_work(&data->irq_recheck, msecs_to_jiffies(LPS001WP_RECHECK_MS));
	return 0;
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

/* Events are pushed once acknowledged; an errno means the pad may still be asserted */
static int lps001wp_irq_pass(struct iio_dev *indio_dev, s64 timestamp, bool *handled, bool *sample)
{
	struct lps001wp_data *data = iio_priv(indio_dev);
	unsigned int src = 0, status = LPS001WP_STATUS_P_OR, ctrl3, dummy;
	int ret;

	/* A routing change that failed (data-ready off) may leave DRDY on the pad */
	ret = regmap_read(data->regmap, LPS001WP_REG_CTRL3, &ctrl3);
	if (!ret && ctrl3 != lps001wp_ctrl3(data))
		ret = lps001wp_route(data);
	if (!ret && data->events_enabled) {
		ret = regmap_read(data->regmap, LPS001WP_REG_INT_SRC, &src);
		/* The first sample after power-up is compared too: no overrun with its latch */
		if (!ret && src & LPS001WP_INT_SRC_IA && data->first_sample_pending)
			ret = regmap_read(data->regmap, LPS001WP_REG_STATUS, &status);
		if (!ret && src & LPS001WP_INT_SRC_IA)
			ret = regmap_read(data->regmap, LPS001WP_REG_INT_ACK, &dummy);
	}
	if (ret) {
		dev_err_ratelimited(data->dev, "INT1 source read failed: %d\n", ret);
		return ret;
	}
	if (src & LPS001WP_INT_SRC_IA) {
		*handled = true;
		/* The data-ready burst decides for the stream */
		data->first_sample_pending &= data->drdy_enabled;
		src &= status & LPS001WP_STATUS_P_OR ? data->events_enabled : 0;
		if (src & LPS001WP_INT_PL)
			iio_push_event(indio_dev, LPS001WP_EVENT(IIO_EV_DIR_RISING), timestamp);
		if (src & LPS001WP_INT_PH)
			iio_push_event(indio_dev, LPS001WP_EVENT(IIO_EV_DIR_FALLING), timestamp);
	}
	if (!data->drdy_enabled)
		return 0;

	/* Reading the sample lowers DRDY; the next one raises it again */
	ret = lps001wp_read_burst(data, &data->drdy_burst);
	if (ret)
		return ret;
	*handled |= data->drdy_burst.status & LPS001WP_STATUS_P_DA;
	if (lps001wp_valid_da(data, &data->drdy_burst) & LPS001WP_STATUS_P_DA) {
		data->drdy_timestamp = timestamp;
		*sample = true;
	}
	return 0;
}

/* A pass again later: an edge line brings none while the pad stays asserted */
static void lps001wp_irq_recheck(struct work_struct *work)
{
	struct lps001wp_data *data = container_of(work, struct lps001wp_data, irq_recheck.work);

	irq_wake_thread(data->irq, dev_get_drvdata(data->dev));
}

/* A failed pass is retried until the bus answers; a level line's detector sees IRQ_NONE */
static irqreturn_t lps001wp_irq_thread(int irq, void *private)
{
	struct iio_dev *indio_dev = private;
	struct lps001wp_data *data = iio_priv(indio_dev);
	s64 timestamp = atomic64_read(&data->irq_timestamp);
	bool handled = false, sample;
	unsigned int i;
	int ret;

	for (i = 1; ; i++) {
		sample = false;
		scoped_guard(mutex, &data->lock)
			ret = lps001wp_irq_pass(indio_dev, timestamp, &handled, &sample);
		if (sample)
			iio_trigger_poll_nested(data->trig);
		if (!ret || i == LPS001WP_IRQ_TRIES)
			break;
		usleep_range(LPS001WP_IRQ_RETRY_US, LPS001WP_IRQ_RETRY_US * 5 / 4);
	}
	if (ret)
		schedule_delayed_work(&data->irq_recheck, msecs_to_jiffies(LPS001WP_RECHECK_MS));
	return handled ? IRQ_HANDLED : IRQ_NONE;
}

static int lps001wp_runtime_suspend(struct device *dev)
{
	struct lps001wp_data *data = iio_priv(dev_get_drvdata(dev));
	int ret;

	guard(mutex)(&data->lock);
	ret = lps001wp_update(data, LPS001WP_REG_CTRL1, LPS001WP_CTRL1_PD | LPS001WP_CTRL1_DIFF_EN,
			      0, 1);
	if (ret) {
		dev_err_ratelimited(dev, "power down failed: %d\n", ret);
		/* Keeps runtime PM usable; an autosuspend retries once last_busy moved */
		pm_runtime_mark_last_busy(dev);
		return -EAGAIN;
	}
	return 0;
}

/* Conversions start with the first user, or here for a running buffer or events */
static int lps001wp_runtime_resume(struct device *dev)
{
	struct iio_dev *indio_dev = dev_get_drvdata(dev);
	struct lps001wp_data *data = iio_priv(indio_dev);
	struct lps001wp_burst burst;
	int ret;

	guard(mutex)(&data->lock);
	ret = lps001wp_restore(data, true);
	/* Data-ready bits (and DRDY, whose edge would not come) predating the sleep */
	if (!ret && (iio_buffer_enabled(indio_dev) || data->events_enabled))
		ret = lps001wp_start(data, true) ?: lps001wp_read_burst(data, &burst);
	if (ret) {
		/* Replay all at the next try, also what this one wrote */
		data->regs_lost = true;
		dev_err_ratelimited(dev, "power up failed: %d\n", ret);
	}
	return ret;
}

/* Supplies may drop in system sleep, partly or whole */
static int lps001wp_suspend(struct device *dev)
{
	struct lps001wp_data *data = iio_priv(dev_get_drvdata(dev));
	int ret = pm_runtime_force_suspend(dev);

	if (ret)
		return ret;
	guard(mutex)(&data->lock);
	data->regs_lost = true;
	return 0;
}

static const struct dev_pm_ops lps001wp_pm_ops = {
	SYSTEM_SLEEP_PM_OPS(lps001wp_suspend, pm_runtime_force_resume)
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
 * After unregistration (which leaves events enabled), before the IRQ is freed:
 * events' PM reference back, no pad asserted, the chip stopped even if PM is held.
 */
static void lps001wp_disarm(void *arg)
{
	struct lps001wp_data *data = arg;
	unsigned int dummy;
	int ret;

	guard(mutex)(&data->lock);
	if (data->events_enabled)
		pm_runtime_put_noidle(data->dev);
	data->drdy_enabled = false;
	data->events_enabled = 0;
	ret = lps001wp_update(data, LPS001WP_REG_INT_CFG, 0xff, 0, 1);
	if (!ret)
		ret = lps001wp_route(data);
	if (!ret)
		ret = regmap_read(data->regmap, LPS001WP_REG_INT_ACK, &dummy);
	if (!ret)
		ret = lps001wp_update(data, LPS001WP_REG_CTRL1,
				      LPS001WP_CTRL1_PD | LPS001WP_CTRL1_DIFF_EN, 0, 1);
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
	ret = devm_delayed_work_autocancel(dev, &data->irq_recheck, lps001wp_irq_recheck);
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
