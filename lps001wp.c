// SPDX-License-Identifier: GPL-2.0
/*
 * IIO driver for the STMicroelectronics LPS001WP pressure sensor (I2C).
 *
 * 300-1100 mbar absolute pressure (u16, 16 LSB/mbar), temperature (s16,
 * 64 LSB/degC) and a differential output DELTA = REF_P - P with a threshold
 * unit that drives the INT1/INT2 pads. I2C address 0x5c (SDO low) or 0x5d.
 *
 * The chip only converts continuously, so a one-shot read powers it up
 * (runtime PM), discards whatever sample is pending, waits for the next
 * data-ready bit and reads that; autosuspend powers it down again. A buffer
 * keeps it running and reads all three outputs in one burst per trigger. With
 * an interrupt wired, the driver offers its own data-ready trigger and
 * threshold events on the differential channel.
 *
 * Register facts and their confidence: lps001wp.h. Datasheet ("Preliminary
 * data", pages 1 and 14 only): https://www.st.com/resource/en/datasheet/lps001wp.pdf
 */

#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/devm-helpers.h>
#include <linux/err.h>
#include <linux/i2c.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/kernel.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pm.h>
#include <linux/pm_runtime.h>
#include <linux/property.h>
#include <linux/regmap.h>
#include <linux/regulator/consumer.h>
#include <linux/sysfs.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include <linux/iio/buffer.h>
#include <linux/iio/events.h>
#include <linux/iio/iio.h>
#include <linux/iio/iio-opaque.h>
#include <linux/iio/sysfs.h>
#include <linux/iio/trigger.h>
#include <linux/iio/trigger_consumer.h>
#include <linux/iio/triggered_buffer.h>

#include "lps001wp.h"

#define LPS001WP_DRV_NAME		"lps001wp"
/*
 * Long enough for reads a period or more apart to find the chip running and
 * a sample waiting, short enough that a read every 10 s keeps the chip
 * powered under 5 % of the time (make bench). Tunable per device in
 * power/autosuspend_delay_ms.
 */
#define LPS001WP_AUTOSUSPEND_MS		250
/*
 * A data-ready wait gives up after this many sample periods, at the slowest
 * rate the code may really run at
 */
#define LPS001WP_DRDY_TIMEOUT_PERIODS	3
/* ...and polls STATUS this many times per period */
#define LPS001WP_DRDY_POLLS_PER_PERIOD	8
/*
 * Failed output reads one pass of the INT1 thread may make before it gives
 * the CPU back and retries later
 */
#define LPS001WP_IRQ_READ_TRIES		8
/* A pad the IRQ thread could not bring back to idle is retried after this */
#define LPS001WP_IRQ_RETRY_MS		20
/*
 * Supplies on to first I2C access. The LPS001WP's turn-on time is not
 * published (spec §7); its successors boot in a few milliseconds, so wait
 * well beyond that.
 */
#define LPS001WP_TURN_ON_US		10000
#define LPS001WP_THS_MAX		U16_MAX

/* regmap: real registers only, so debugfs and regcache never touch others */
static const struct regmap_range lps001wp_readable_ranges[] = {
	regmap_reg_range(LPS001WP_REG_WHO_AM_I, LPS001WP_REG_WHO_AM_I),
	regmap_reg_range(LPS001WP_REG_CTRL1, LPS001WP_REG_CTRL3),
	regmap_reg_range(LPS001WP_REG_STATUS, LPS001WP_REG_DELTA_H),
	regmap_reg_range(LPS001WP_REG_REF_P_L, LPS001WP_REG_INT_ACK),
};

static const struct regmap_access_table lps001wp_readable_table = {
	.yes_ranges = lps001wp_readable_ranges,
	.n_yes_ranges = ARRAY_SIZE(lps001wp_readable_ranges),
};

static const struct regmap_range lps001wp_writeable_ranges[] = {
	regmap_reg_range(LPS001WP_REG_CTRL1, LPS001WP_REG_CTRL3),
	regmap_reg_range(LPS001WP_REG_REF_P_L, LPS001WP_REG_INT_CFG),
};

static const struct regmap_access_table lps001wp_writeable_table = {
	.yes_ranges = lps001wp_writeable_ranges,
	.n_yes_ranges = ARRAY_SIZE(lps001wp_writeable_ranges),
};

/*
 * Not cached: identity, status and data, the interrupt latch, and CTRL_REG2
 * whose BOOT bit may clear itself (spec §3.2 [U]) and must never be replayed
 * by a cache sync.
 */
static const struct regmap_range lps001wp_volatile_ranges[] = {
	regmap_reg_range(LPS001WP_REG_WHO_AM_I, LPS001WP_REG_WHO_AM_I),
	regmap_reg_range(LPS001WP_REG_CTRL2, LPS001WP_REG_CTRL2),
	regmap_reg_range(LPS001WP_REG_STATUS, LPS001WP_REG_DELTA_H),
	regmap_reg_range(LPS001WP_REG_INT_SRC, LPS001WP_REG_INT_ACK),
};

static const struct regmap_access_table lps001wp_volatile_table = {
	.yes_ranges = lps001wp_volatile_ranges,
	.n_yes_ranges = ARRAY_SIZE(lps001wp_volatile_ranges),
};

/*
 * Reads with side effects: an output pair clears its data-ready bit or, with
 * BDU, freezes the pair (spec §3.4, §5); INT_ACK clears the latched INT_SRC.
 */
static const struct regmap_range lps001wp_precious_ranges[] = {
	regmap_reg_range(LPS001WP_REG_PRESS_OUT_L, LPS001WP_REG_DELTA_H),
	regmap_reg_range(LPS001WP_REG_INT_ACK, LPS001WP_REG_INT_ACK),
};

static const struct regmap_access_table lps001wp_precious_table = {
	.yes_ranges = lps001wp_precious_ranges,
	.n_yes_ranges = ARRAY_SIZE(lps001wp_precious_ranges),
};

static const struct regmap_config lps001wp_regmap_config = {
	.reg_bits = 8,
	.val_bits = 8,
	/*
	 * On an SMBus-only adapter regmap-i2c falls back to I2C-block
	 * transfers and the flag travels in the command byte, which the chip
	 * reads as the sub-address: auto-increment works there too.
	 */
	.read_flag_mask = LPS001WP_I2C_AUTO_INCREMENT,
	.write_flag_mask = LPS001WP_I2C_AUTO_INCREMENT,
	.max_register = LPS001WP_REG_INT_ACK,
	.rd_table = &lps001wp_readable_table,
	.wr_table = &lps001wp_writeable_table,
	.volatile_table = &lps001wp_volatile_table,
	.precious_table = &lps001wp_precious_table,
	.cache_type = LPS001WP_REGCACHE,
};

/*
 * STATUS and the three output pairs in one auto-increment read: the data and
 * the data-ready bits that say whether it is new come from one transfer, and
 * the read clears those bits whether reading STATUS or the high bytes does
 * it (spec §3.4 [U]).
 */
struct lps001wp_burst {
	u8 status;
	__le16 out[3];	/* indexed by enum lps001wp_scan_index */
} __packed;

enum lps001wp_scan_index {
	LPS001WP_SCAN_PRESSURE,
	LPS001WP_SCAN_TEMP,
	LPS001WP_SCAN_DELTA,
	LPS001WP_SCAN_TIMESTAMP,
};

struct lps001wp_data {
	struct device *dev;
	struct iio_dev *indio_dev;
	struct regmap *regmap;
	struct iio_trigger *trig;
	int irq_int1;
	int irq_int2;
	bool irq_active_low;
	bool irq_open_drain;
	/*
	 * Guards the chip's control state: read-modify-write of CTRL_REG1,
	 * CTRL_REG3 and INT_CFG together with the flags below that decide their
	 * contents, the discard/wait/read sequence of a one-shot read, which
	 * consumes the STATUS data-ready bits, and the power-up bookkeeping.
	 * Cached registers are read under it too: the power-up check reads
	 * CTRL_REG1 past the cache, and no other reader may go past it then.
	 */
	struct mutex lock;
	bool drdy_enabled;
	bool buffer_enabled;
	u8 events_enabled;	/* LPS001WP_INT_CFG_PL_E | LPS001WP_INT_CFG_PH_E */
	bool discard_pending;	/* a waiting sample may predate the setup */
	/* the next sample is the first after power-up; also read by the IRQ thread */
	bool first_sample_pending;
	bool regs_lost;		/* replay every register at the next power-up */
	ktime_t powered_up;	/* when PD was last set */
	/* Read by the INT1 thread, consumed by the own trigger's handler */
	struct lps001wp_burst drdy_burst;
	s64 irq_timestamp;	/* taken by the hard IRQ handler */
	s64 drdy_timestamp;	/* handed from the IRQ thread to the trigger */
	/* Another pass of an IRQ thread, for pads left asserted by a bus error */
	struct delayed_work irq_retry;
	unsigned long irq_retry_pads;	/* BIT(0) INT1, BIT(1) INT2 */
	/* Zeroed with the rest of priv; pushed whole, padding included */
	struct {
		__le16 chans[3];
		aligned_s64 timestamp;
	} scan;
};

/*
 * Channels. Pressure scale 1/160 kPa (16 LSB/mbar) covers the absolute and
 * the differential channel; temperature 1000/64 m°C per LSB, no offset.
 * The threshold values are the driver's own attributes (event_attrs below),
 * not IIO_EV_INFO_VALUE: the core's parser takes "", "-" or "." as 0 and
 * wraps values beyond 32 bits.
 */
static const struct iio_event_spec lps001wp_delta_events[] = {
	{
		.type = IIO_EV_TYPE_THRESH,
		.dir = IIO_EV_DIR_RISING,
		.mask_separate = BIT(IIO_EV_INFO_ENABLE),
	}, {
		.type = IIO_EV_TYPE_THRESH,
		.dir = IIO_EV_DIR_FALLING,
		.mask_separate = BIT(IIO_EV_INFO_ENABLE),
	},
};

static ssize_t lps001wp_reference_read(struct iio_dev *indio_dev,
				       uintptr_t private,
				       const struct iio_chan_spec *chan,
				       char *buf);
static ssize_t lps001wp_reference_write(struct iio_dev *indio_dev,
					uintptr_t private,
					const struct iio_chan_spec *chan,
					const char *buf, size_t len);

static const struct iio_chan_spec_ext_info lps001wp_delta_ext_info[] = {
	{
		.name = "reference_raw",
		.shared = IIO_SEPARATE,
		.read = lps001wp_reference_read,
		.write = lps001wp_reference_write,
	},
	{ }
};

#define LPS001WP_CHAN_COMMON(_type, _scan, _sign, _reg)			\
	.type = _type,							\
	.address = _reg,						\
	.info_mask_separate = BIT(IIO_CHAN_INFO_RAW),			\
	.info_mask_shared_by_type = BIT(IIO_CHAN_INFO_SCALE),		\
	.info_mask_shared_by_all = BIT(IIO_CHAN_INFO_SAMP_FREQ),	\
	.info_mask_shared_by_all_available = BIT(IIO_CHAN_INFO_SAMP_FREQ), \
	.scan_index = _scan,						\
	.scan_type = {							\
		.sign = _sign,						\
		.realbits = 16,						\
		.storagebits = 16,					\
		.endianness = IIO_LE,					\
	}

#define LPS001WP_DELTA_CHAN(_events, _num_events)			\
	{								\
		LPS001WP_CHAN_COMMON(IIO_PRESSURE, LPS001WP_SCAN_DELTA,	\
				     's', LPS001WP_REG_DELTA_L),	\
		.indexed = 1,						\
		.channel = 1,						\
		.ext_info = lps001wp_delta_ext_info,			\
		.event_spec = _events,					\
		.num_event_specs = _num_events,				\
	}

/* Threshold events need an interrupt line to report them */
static const struct iio_chan_spec lps001wp_channels[] = {
	{ LPS001WP_CHAN_COMMON(IIO_PRESSURE, LPS001WP_SCAN_PRESSURE, 'u',
			       LPS001WP_REG_PRESS_OUT_L) },
	{ LPS001WP_CHAN_COMMON(IIO_TEMP, LPS001WP_SCAN_TEMP, 's',
			       LPS001WP_REG_TEMP_OUT_L) },
	LPS001WP_DELTA_CHAN(lps001wp_delta_events,
			    ARRAY_SIZE(lps001wp_delta_events)),
	IIO_CHAN_SOFT_TIMESTAMP(LPS001WP_SCAN_TIMESTAMP),
};

static const struct iio_chan_spec lps001wp_channels_no_irq[] = {
	{ LPS001WP_CHAN_COMMON(IIO_PRESSURE, LPS001WP_SCAN_PRESSURE, 'u',
			       LPS001WP_REG_PRESS_OUT_L) },
	{ LPS001WP_CHAN_COMMON(IIO_TEMP, LPS001WP_SCAN_TEMP, 's',
			       LPS001WP_REG_TEMP_OUT_L) },
	LPS001WP_DELTA_CHAN(NULL, 0),
	IIO_CHAN_SOFT_TIMESTAMP(LPS001WP_SCAN_TIMESTAMP),
};

/* Pressure rate of each DR code in mHz (LPS001WP_ASSUME_DR_ST_TABLE) */
static const unsigned int lps001wp_dr_mhz[] = {
	[LPS001WP_DR_00] = 7000,	/* temperature at 1 Hz */
	[LPS001WP_DR_01] = LPS001WP_ASSUME_DR_ST_TABLE ? 7000 : 1000,
	[LPS001WP_DR_10] = LPS001WP_ASSUME_DR_ST_TABLE ? 0 : 7000, /* 0: unlisted */
	[LPS001WP_DR_11] = 12500,
};

/* sampling_frequency_available, IIO_VAL_INT_PLUS_MICRO pairs */
static const int lps001wp_odr_avail[] = {
#if !LPS001WP_ASSUME_DR_ST_TABLE
	1, 0,
#endif
	7, 0,
	12, 500000,
};

static const u8 lps001wp_odr_dr[] = {
#if LPS001WP_ASSUME_DR_ST_TABLE
	LPS001WP_DR_01,
#else
	LPS001WP_DR_01,
	LPS001WP_DR_10,
#endif
	LPS001WP_DR_11,
};

/* Pure helpers: register encodings (covered by the KUnit suite) */

static int lps001wp_odr_to_dr(int val, int val2)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lps001wp_odr_dr); i++)
		if (lps001wp_odr_avail[2 * i] == val &&
		    lps001wp_odr_avail[2 * i + 1] == val2)
			return lps001wp_odr_dr[i];

	return -EINVAL;
}

/* Pressure rate of a DR code (the channel all rates are named after) */
static int lps001wp_dr_to_odr(unsigned int dr, int *val, int *val2)
{
	if (dr >= ARRAY_SIZE(lps001wp_dr_mhz) || !lps001wp_dr_mhz[dr])
		return -EINVAL;

	*val = lps001wp_dr_mhz[dr] / 1000;
	*val2 = lps001wp_dr_mhz[dr] % 1000 * 1000;

	return 0;
}

/* IIO units: kPa and milli-degrees Celsius per LSB */
static int lps001wp_scale(enum iio_chan_type type, int *val, int *val2)
{
	switch (type) {
	case IIO_PRESSURE:
		/* 16 LSB/mbar = 160 LSB/kPa, absolute and differential */
		*val = 1;
		*val2 = 160;
		return IIO_VAL_FRACTIONAL;
	case IIO_TEMP:
		/* 64 LSB/degC: 1000/64 m°C per LSB, no offset (spec §6) */
		*val = 125;
		*val2 = 8;
		return IIO_VAL_FRACTIONAL;
	default:
		return -EINVAL;
	}
}

/* The nominal sample period of a channel: what polling is paced by */
static unsigned int lps001wp_sample_period_us(unsigned int dr, bool temp)
{
	unsigned int mhz = dr < ARRAY_SIZE(lps001wp_dr_mhz) ?
			   lps001wp_dr_mhz[dr] : 0;

	if (dr == LPS001WP_DR_00 && temp)
		return USEC_PER_SEC;
	/* ST's unlisted DR 10: assume the 7 Hz of its neighbours */
	if (!mhz)
		mhz = 7000;

	return DIV_ROUND_UP(USEC_PER_SEC * 1000, mhz);
}

/*
 * How long a sample may take before a wait gives up: some periods at the
 * slowest rate any source gives the code, so that a chip whose rate table
 * is not the one assumed runs slower than advertised but never times out
 */
static unsigned int lps001wp_drdy_timeout_us(unsigned int dr, bool temp)
{
	unsigned int period_us = lps001wp_sample_period_us(dr, temp);

	if (dr != LPS001WP_DR_11)
		period_us = max_t(unsigned int, period_us,
				  LPS001WP_DR_SLOWEST_PERIOD_US);

	return LPS001WP_DRDY_TIMEOUT_PERIODS * period_us;
}

static const struct {
	u8 who_am_i;
	const char *part;
} lps001wp_other_parts[] = {
	{ LPS001WP_WHO_AM_I_LPS331AP, "LPS331AP" },
	{ LPS001WP_WHO_AM_I_LPS25H, "LPS25H" },
	{ LPS001WP_WHO_AM_I_LPS22HB, "LPS22HB" },
};

static const char *lps001wp_other_part_name(unsigned int who_am_i)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lps001wp_other_parts); i++)
		if (lps001wp_other_parts[i].who_am_i == who_am_i)
			return lps001wp_other_parts[i].part;

	return NULL;
}

/* INT_CFG enable (and INT_SRC flag) for an IIO event direction on DELTA */
static u8 lps001wp_event_dir_to_int_cfg(enum iio_event_direction dir)
{
	switch (dir) {
	case IIO_EV_DIR_RISING:
		return LPS001WP_INT_CFG_PL_E;	/* REF_P - P > THS_P */
	case IIO_EV_DIR_FALLING:
		return LPS001WP_INT_CFG_PH_E;	/* P - REF_P > THS_P */
	default:
		return 0;
	}
}

/*
 * Pad routing. With an INT2 line, DRDY stays on INT1 and thresholds go to
 * INT2. With INT1 alone, DRDY wins the pad while the own trigger runs and the
 * IRQ thread then checks the latched INT_SRC on every data-ready interrupt;
 * otherwise INT1 carries the thresholds.
 */
static void lps001wp_int_selectors(bool drdy, bool events, bool has_int2,
				   u8 *int1_sel, u8 *int2_sel)
{
	*int1_sel = LPS001WP_INT_CFG_GND;
	*int2_sel = LPS001WP_INT_CFG_GND;

	if (drdy)
		*int1_sel = LPS001WP_INT_CFG_DRDY;
	if (events && has_int2)
		*int2_sel = LPS001WP_INT_CFG_P_EITHER;
	else if (events && !drdy)
		*int1_sel = LPS001WP_INT_CFG_P_EITHER;
}

static u8 lps001wp_ctrl3_value(bool active_low, bool open_drain,
			       u8 int1_sel, u8 int2_sel)
{
	u8 val = FIELD_PREP(LPS001WP_CTRL3_INT1_CFG, int1_sel) |
		 FIELD_PREP(LPS001WP_CTRL3_INT2_CFG, int2_sel);

	if (active_low)
		val |= LPS001WP_CTRL3_INT_H_L;
	if (open_drain)
		val |= LPS001WP_CTRL3_PP_OD;

	return val;
}

/* Chip access. Callers hold data->lock unless noted. */

/*
 * regmap updates its cache before the bus write. After a failed write, drop
 * the range from the cache so it never claims a value the chip lacks.
 */
static int lps001wp_write_done(struct lps001wp_data *data, unsigned int first,
			       unsigned int last, int ret)
{
	if (ret) {
		regcache_drop_region(data->regmap, first, last);
		dev_err_ratelimited(data->dev, "write of 0x%02x failed: %d\n",
				    first, ret);
	}

	return ret;
}

/*
 * Configuration registers come from the cache, except after a failed write
 * dropped one: then the read goes to the bus, which may be failing still.
 */
static int lps001wp_read_config(struct lps001wp_data *data, unsigned int reg,
				unsigned int *val)
{
	int ret;

	ret = regmap_read(data->regmap, reg, val);
	if (ret)
		dev_err_ratelimited(data->dev, "read of 0x%02x failed: %d\n",
				    reg, ret);

	return ret;
}

static int lps001wp_write(struct lps001wp_data *data, unsigned int reg,
			  unsigned int val)
{
	return lps001wp_write_done(data, reg, reg,
				   regmap_write(data->regmap, reg, val));
}

static int lps001wp_update_bits(struct lps001wp_data *data, unsigned int reg,
				unsigned int mask, unsigned int val)
{
	return lps001wp_write_done(data, reg, reg,
				   regmap_update_bits(data->regmap, reg, mask,
						      val));
}

/* A little-endian pair in one auto-increment write */
static int lps001wp_write_pair(struct lps001wp_data *data, unsigned int reg,
			       u16 val)
{
	__le16 raw = cpu_to_le16(val);

	return lps001wp_write_done(data, reg, reg + 1,
				   regmap_bulk_write(data->regmap, reg, &raw,
						     sizeof(raw)));
}

static int lps001wp_update_routing(struct lps001wp_data *data)
{
	u8 int1_sel, int2_sel;

	lps001wp_int_selectors(data->drdy_enabled, data->events_enabled,
			       data->irq_int2 > 0, &int1_sel, &int2_sel);

	return lps001wp_write(data, LPS001WP_REG_CTRL3,
			      lps001wp_ctrl3_value(data->irq_active_low,
						   data->irq_open_drain,
						   int1_sel, int2_sel));
}

/* Clears the data-ready bits: doubles as the discard of a pending sample */
static int lps001wp_read_burst(struct lps001wp_data *data,
			       struct lps001wp_burst *burst)
{
	int ret;

	ret = regmap_bulk_read(data->regmap, LPS001WP_REG_STATUS, burst,
			       sizeof(*burst));
	if (ret)
		dev_err_ratelimited(data->dev, "output read failed: %d\n", ret);

	return ret;
}

static int lps001wp_discard_samples(struct lps001wp_data *data)
{
	struct lps001wp_burst burst;

	return lps001wp_read_burst(data, &burst);
}

/*
 * DIFF_EN stays on while the chip is powered and anything needs DELTA. A
 * sample converted before it was set carries no DELTA.
 */
static int lps001wp_enable_delta(struct lps001wp_data *data)
{
	unsigned int ctrl1;
	int ret;

	ret = lps001wp_read_config(data, LPS001WP_REG_CTRL1, &ctrl1);
	if (ret)
		return ret;
	if (ctrl1 & LPS001WP_CTRL1_DIFF_EN)
		return 0;

	data->discard_pending = true;
	return lps001wp_update_bits(data, LPS001WP_REG_CTRL1,
				    LPS001WP_CTRL1_DIFF_EN,
				    LPS001WP_CTRL1_DIFF_EN);
}

/*
 * Data-ready bits of a burst that can be trusted: a sample that is not the
 * first after power-up (LPS001WP_ASSUME_FIRST_SAMPLE_VALID), or one that
 * an overrun shows to be at least the second. The first one seen clears
 * first_sample_pending either way.
 */
static unsigned int lps001wp_valid_da(struct lps001wp_data *data,
				      const struct lps001wp_burst *burst)
{
	unsigned int da = burst->status & (LPS001WP_STATUS_P_DA |
					   LPS001WP_STATUS_T_DA);
	/* Overrun bits sit 4 above their data-ready bits (spec §3.4) */
	unsigned int ovr = da << 4;

	if (!da || !READ_ONCE(data->first_sample_pending))
		return da;

	WRITE_ONCE(data->first_sample_pending, false);
	if ((burst->status & ovr) == ovr)
		return da;

	dev_dbg(data->dev, "first sample after power-up dropped\n");
	return 0;
}

/*
 * Waits for a sample of every channel in @da_bits made with the present
 * setup and returns the burst that completed it. A sample waiting unread
 * is the newest and at most one period old: taken at once. When it may
 * predate power-up, DIFF_EN or a new REF_P, it is discarded and the wait
 * starts with the first period it cannot beat. Each poll is one burst, so
 * the sample that sets the bit is the one returned.
 */
static int lps001wp_wait_sample(struct lps001wp_data *data,
				unsigned int da_bits, bool temp,
				struct lps001wp_burst *burst)
{
	unsigned int ctrl1, dr, period_us, poll_us, timeout_us, seen = 0;
	ktime_t deadline;
	s64 wait_us;
	int ret;

	ret = lps001wp_read_config(data, LPS001WP_REG_CTRL1, &ctrl1);
	if (ret)
		return ret;
	dr = FIELD_GET(LPS001WP_CTRL1_DR, ctrl1);
	period_us = lps001wp_sample_period_us(dr, temp);
	timeout_us = lps001wp_drdy_timeout_us(dr, temp);
	poll_us = period_us / LPS001WP_DRDY_POLLS_PER_PERIOD;

	if (data->discard_pending) {
		ret = lps001wp_discard_samples(data);
		if (ret)
			return ret;
		data->discard_pending = false;

		/*
		 * Nothing to poll for until the first usable sample is due;
		 * a quarter poll late, so one burst usually finds it
		 */
		wait_us = ktime_us_delta(ktime_add_us(data->powered_up,
						      period_us),
					 ktime_get());
		if (READ_ONCE(data->first_sample_pending))
			wait_us += period_us;
		if (wait_us > 0)
			usleep_range(wait_us + poll_us / 4,
				     wait_us + poll_us / 2);
	}

	deadline = ktime_add_us(ktime_get(), timeout_us);
	for (;;) {
		ret = lps001wp_read_burst(data, burst);
		if (ret)
			return ret;
		seen |= lps001wp_valid_da(data, burst) & da_bits;
		if (seen == da_bits)
			return 0;
		if (ktime_after(ktime_get(), deadline)) {
			dev_err_ratelimited(data->dev,
					    "no new sample within %u us (STATUS 0x%02x)\n",
					    timeout_us, burst->status);
			return -ETIMEDOUT;
		}
		usleep_range(poll_us, poll_us + poll_us / 4);
	}
}

/*
 * An output as its channel reports it: in_pressure1_raw is REF_P - P
 * whichever way the chip subtracts (LPS001WP_ASSUME_DELTA_IS_REF_MINUS_P)
 */
static __le16 lps001wp_output(const struct lps001wp_burst *burst,
			      unsigned int scan_index)
{
	__le16 raw = burst->out[scan_index];

	if (scan_index == LPS001WP_SCAN_DELTA &&
	    !LPS001WP_ASSUME_DELTA_IS_REF_MINUS_P)
		raw = cpu_to_le16(-le16_to_cpu(raw));

	return raw;
}

/* One fresh sample of one channel */
static int lps001wp_read_fresh(struct lps001wp_data *data,
			       const struct iio_chan_spec *chan, int *val)
{
	bool temp = chan->type == IIO_TEMP;
	struct lps001wp_burst burst;
	u16 raw;
	int ret;

	if (chan->scan_index == LPS001WP_SCAN_DELTA) {
		ret = lps001wp_enable_delta(data);
		if (ret)
			return ret;
	}

	ret = lps001wp_wait_sample(data, temp ? LPS001WP_STATUS_T_DA :
				   LPS001WP_STATUS_P_DA, temp, &burst);
	if (ret)
		return ret;

	raw = le16_to_cpu(lps001wp_output(&burst, chan->scan_index));
	if (chan->scan_type.sign == 's')
		*val = sign_extend32(raw, 15);
	else
		*val = raw;

	return IIO_VAL_INT;
}

/*
 * A failed runtime resume leaves power.runtime_error set and the PM core
 * then refuses every later resume; reset the status so a transient bus
 * error costs one read, not the device.
 */
static int lps001wp_pm_get(struct lps001wp_data *data)
{
	int ret;

	ret = pm_runtime_resume_and_get(data->dev);
	if (ret)
		pm_runtime_set_suspended(data->dev);

	return ret;
}

static void lps001wp_pm_put(struct lps001wp_data *data)
{
	pm_runtime_mark_last_busy(data->dev);
	pm_runtime_put_autosuspend(data->dev);
}

static int lps001wp_read_oneshot(struct lps001wp_data *data,
				 const struct iio_chan_spec *chan, int *val)
{
	int ret;

	ret = lps001wp_pm_get(data);
	if (ret)
		return ret;

	mutex_lock(&data->lock);
	ret = lps001wp_read_fresh(data, chan, val);
	mutex_unlock(&data->lock);

	lps001wp_pm_put(data);

	return ret;
}

/* read/write callbacks */

static int lps001wp_read_raw(struct iio_dev *indio_dev,
			     const struct iio_chan_spec *chan,
			     int *val, int *val2, long mask)
{
	struct lps001wp_data *data = iio_priv(indio_dev);
	unsigned int ctrl1;
	int ret;

	switch (mask) {
	case IIO_CHAN_INFO_RAW:
		ret = lps001wp_claim_direct(indio_dev);
		if (ret)
			return ret;
		ret = lps001wp_read_oneshot(data, chan, val);
		lps001wp_release_direct(indio_dev);
		return ret;
	case IIO_CHAN_INFO_SCALE:
		return lps001wp_scale(chan->type, val, val2);
	case IIO_CHAN_INFO_SAMP_FREQ:
		mutex_lock(&data->lock);
		ret = lps001wp_read_config(data, LPS001WP_REG_CTRL1, &ctrl1);
		mutex_unlock(&data->lock);
		if (ret)
			return ret;
		ret = lps001wp_dr_to_odr(FIELD_GET(LPS001WP_CTRL1_DR, ctrl1),
					 val, val2);
		return ret ? ret : IIO_VAL_INT_PLUS_MICRO;
	default:
		return -EINVAL;
	}
}

static int lps001wp_read_avail(struct iio_dev *indio_dev,
			       const struct iio_chan_spec *chan,
			       const int **vals, int *type, int *length,
			       long mask)
{
	switch (mask) {
	case IIO_CHAN_INFO_SAMP_FREQ:
		*vals = lps001wp_odr_avail;
		*type = IIO_VAL_INT_PLUS_MICRO;
		*length = ARRAY_SIZE(lps001wp_odr_avail);
		return IIO_AVAIL_LIST;
	default:
		return -EINVAL;
	}
}

static int lps001wp_write_raw(struct iio_dev *indio_dev,
			      const struct iio_chan_spec *chan,
			      int val, int val2, long mask)
{
	struct lps001wp_data *data = iio_priv(indio_dev);
	int dr, ret;

	switch (mask) {
	case IIO_CHAN_INFO_SAMP_FREQ:
		dr = lps001wp_odr_to_dr(val, val2);
		if (dr < 0)
			return dr;

		ret = lps001wp_claim_direct(indio_dev);
		if (ret)
			return ret;

		mutex_lock(&data->lock);
		ret = lps001wp_update_bits(data, LPS001WP_REG_CTRL1,
					   LPS001WP_CTRL1_DR,
					   FIELD_PREP(LPS001WP_CTRL1_DR, dr));
		mutex_unlock(&data->lock);

		lps001wp_release_direct(indio_dev);
		return ret;
	default:
		return -EINVAL;
	}
}

static int lps001wp_read_label(struct iio_dev *indio_dev,
			       const struct iio_chan_spec *chan, char *label)
{
	switch (chan->scan_index) {
	case LPS001WP_SCAN_PRESSURE:
		return sysfs_emit(label, "absolute\n");
	case LPS001WP_SCAN_DELTA:
		return sysfs_emit(label, "differential\n");
	case LPS001WP_SCAN_TEMP:
		/* the core gives every channel a label file once one has it */
		return sysfs_emit(label, "temperature\n");
	default:
		return -EINVAL;
	}
}

/* in_pressure1_reference_raw: REF_P in raw pressure units, 0..65535 */
static ssize_t lps001wp_reference_read(struct iio_dev *indio_dev,
				       uintptr_t private,
				       const struct iio_chan_spec *chan,
				       char *buf)
{
	struct lps001wp_data *data = iio_priv(indio_dev);
	__le16 raw;
	int ret;

	/* From the cache; from the bus only after a failed write dropped it */
	mutex_lock(&data->lock);
	ret = regmap_bulk_read(data->regmap, LPS001WP_REG_REF_P_L, &raw,
			       sizeof(raw));
	mutex_unlock(&data->lock);
	if (ret)
		return ret;

	return sysfs_emit(buf, "%u\n", le16_to_cpu(raw));
}

static ssize_t lps001wp_reference_write(struct iio_dev *indio_dev,
					uintptr_t private,
					const struct iio_chan_spec *chan,
					const char *buf, size_t len)
{
	struct lps001wp_data *data = iio_priv(indio_dev);
	u16 ref;
	int ret;

	ret = kstrtou16(buf, 10, &ref);
	if (ret)
		return -EINVAL;

	mutex_lock(&data->lock);
	ret = lps001wp_write_pair(data, LPS001WP_REG_REF_P_L, ref);
	/* A waiting sample's DELTA used the old reference */
	data->discard_pending = true;
	mutex_unlock(&data->lock);

	return ret ? ret : len;
}

/* Threshold events on DELTA (directions: see lps001wp.h) */

static int lps001wp_read_event_config(struct iio_dev *indio_dev,
				      const struct iio_chan_spec *chan,
				      enum iio_event_type type,
				      enum iio_event_direction dir)
{
	struct lps001wp_data *data = iio_priv(indio_dev);
	u8 bit = lps001wp_event_dir_to_int_cfg(dir);
	int ret;

	if (!bit)
		return -EINVAL;

	mutex_lock(&data->lock);
	ret = !!(data->events_enabled & bit);
	mutex_unlock(&data->lock);

	return ret;
}

/* With LIR set, INT_SRC (and the pad) stay latched until INT_ACK is read */
static int lps001wp_ack_events(struct lps001wp_data *data)
{
	unsigned int dummy;
	int ret;

	ret = regmap_read(data->regmap, LPS001WP_REG_INT_ACK, &dummy);
	if (ret)
		dev_err_ratelimited(data->dev, "INT_ACK read failed: %d\n", ret);

	return ret;
}

static int lps001wp_apply_events(struct lps001wp_data *data, u8 enabled)
{
	struct lps001wp_burst burst;
	u8 old;
	int ret;

	if (enabled) {
		ret = lps001wp_enable_delta(data);
		if (ret)
			return ret;
	}

	ret = lps001wp_write(data, LPS001WP_REG_INT_CFG,
			     LPS001WP_INT_CFG_LIR | enabled);
	if (ret)
		return ret;

	/*
	 * Right after power-up the chip compares its first sample too, which
	 * may be garbage (LPS001WP_ASSUME_FIRST_SAMPLE_VALID): let it pass
	 * before the latch is cleared and the pad routed.
	 */
	if (enabled && READ_ONCE(data->first_sample_pending)) {
		ret = lps001wp_wait_sample(data, LPS001WP_STATUS_P_DA, false,
					   &burst);
		if (ret)
			return ret;
	}

	/*
	 * Drop a latch left from the earlier configuration before the pad is
	 * routed (it would fire at once) and when a direction goes off (the
	 * pad must not stay asserted for it).
	 */
	ret = lps001wp_ack_events(data);
	if (ret)
		return ret;

	/* events_enabled is what the pads are routed for, nothing else */
	old = data->events_enabled;
	data->events_enabled = enabled;
	ret = lps001wp_update_routing(data);
	if (ret)
		data->events_enabled = old;

	return ret;
}

/*
 * Enabled events keep the chip powered: the reference follows
 * events_enabled as it ends up, so a failed write (and a failed attempt to
 * undo it) can never unbalance the runtime PM count.
 */
static int lps001wp_set_event(struct lps001wp_data *data,
			      enum iio_event_direction dir, bool state)
{
	u8 bit = lps001wp_event_dir_to_int_cfg(dir);
	u8 old, new, cur;
	int ret;

	if (!bit)
		return -EINVAL;

	ret = lps001wp_pm_get(data);
	if (ret)
		return ret;

	mutex_lock(&data->lock);
	old = data->events_enabled;
	new = state ? old | bit : old & ~bit;
	/*
	 * Applied even when unchanged: after a bus error left the chip and
	 * events_enabled apart, writing the enable again re-syncs them.
	 */
	ret = lps001wp_apply_events(data, new);
	if (ret) {
		/* Best effort back to the old state; the error is what counts */
		lps001wp_apply_events(data, old);
	}
	cur = data->events_enabled;
	mutex_unlock(&data->lock);

	if (!old && cur)
		return ret;		/* keep the reference */
	if (old && !cur)
		lps001wp_pm_put(data);	/* the events' reference */
	lps001wp_pm_put(data);

	return ret;
}

/* 6.13 changed @state from int to bool */
#if KERNEL_VERSION(6, 13, 0) > LINUX_VERSION_CODE
static int lps001wp_write_event_config(struct iio_dev *indio_dev,
				       const struct iio_chan_spec *chan,
				       enum iio_event_type type,
				       enum iio_event_direction dir, int state)
#else
static int lps001wp_write_event_config(struct iio_dev *indio_dev,
				       const struct iio_chan_spec *chan,
				       enum iio_event_type type,
				       enum iio_event_direction dir, bool state)
#endif
{
	return lps001wp_set_event(iio_priv(indio_dev), dir, state);
}

/*
 * THS_P is one magnitude for both directions: rising reads +THS_P, falling
 * reads -THS_P, and writing either sets both. The attribute's address is
 * its direction.
 */
static ssize_t lps001wp_thresh_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	struct lps001wp_data *data = iio_priv(dev_to_iio_dev(dev));
	__le16 raw;
	int ret, val;

	/* From the cache; from the bus only after a failed write dropped it */
	mutex_lock(&data->lock);
	ret = regmap_bulk_read(data->regmap, LPS001WP_REG_THS_P_L, &raw,
			       sizeof(raw));
	mutex_unlock(&data->lock);
	if (ret)
		return ret;

	val = le16_to_cpu(raw);
	if (to_iio_dev_attr(attr)->address == IIO_EV_DIR_FALLING)
		val = -val;

	return sysfs_emit(buf, "%d\n", val);
}

/* A decimal integer only: no empty, sign-only, fractional or wrapped input */
static ssize_t lps001wp_thresh_store(struct device *dev,
				     struct device_attribute *attr,
				     const char *buf, size_t len)
{
	struct lps001wp_data *data = iio_priv(dev_to_iio_dev(dev));
	int ret, val;

	ret = kstrtoint(buf, 10, &val);
	if (ret)
		return -EINVAL;

	if (to_iio_dev_attr(attr)->address == IIO_EV_DIR_FALLING) {
		if (val > 0)
			return -EINVAL;
		val = -val;
	}
	if (val < 0 || val > LPS001WP_THS_MAX)
		return -EINVAL;

	mutex_lock(&data->lock);
	ret = lps001wp_write_pair(data, LPS001WP_REG_THS_P_L, val);
	mutex_unlock(&data->lock);

	return ret ? ret : len;
}

static IIO_DEVICE_ATTR(in_pressure1_thresh_rising_value, 0644,
		       lps001wp_thresh_show, lps001wp_thresh_store,
		       IIO_EV_DIR_RISING);
static IIO_DEVICE_ATTR(in_pressure1_thresh_falling_value, 0644,
		       lps001wp_thresh_show, lps001wp_thresh_store,
		       IIO_EV_DIR_FALLING);

static struct attribute *lps001wp_event_attributes[] = {
	&iio_dev_attr_in_pressure1_thresh_rising_value.dev_attr.attr,
	&iio_dev_attr_in_pressure1_thresh_falling_value.dev_attr.attr,
	NULL
};

static const struct attribute_group lps001wp_event_attribute_group = {
	.attrs = lps001wp_event_attributes,
};

/* Real registers only; reserved addresses are -EINVAL */
static int lps001wp_debugfs_reg_access(struct iio_dev *indio_dev,
				       unsigned int reg, unsigned int writeval,
				       unsigned int *readval)
{
	struct lps001wp_data *data = iio_priv(indio_dev);
	int ret;

	if (readval) {
		if (!regmap_check_range_table(data->regmap, reg,
					      &lps001wp_readable_table))
			return -EINVAL;
	} else if (!regmap_check_range_table(data->regmap, reg,
					     &lps001wp_writeable_table) ||
		   writeval > U8_MAX) {
		/* regmap would write the low byte of a wider value */
		return -EINVAL;
	}

	mutex_lock(&data->lock);
	if (readval)
		ret = regmap_read(data->regmap, reg, readval);
	else
		ret = lps001wp_write(data, reg, writeval);
	mutex_unlock(&data->lock);

	return ret;
}

/*
 * The core starts direct_reg_access at address 0, reserved on this chip, so
 * reading it before an address is written (iio_info reads every debugfs
 * file) fails and logs "read failed". The core has no hook for the start
 * address: set it in the opaque state, to WHO_AM_I, the one register whose
 * read is always meaningful.
 */
static void lps001wp_debugfs_init(struct iio_dev *indio_dev)
{
#ifdef CONFIG_DEBUG_FS
	to_iio_dev_opaque(indio_dev)->cached_reg_addr = LPS001WP_REG_WHO_AM_I;
#endif
}

/* With an IRQ wired: threshold events */
static const struct iio_info lps001wp_info = {
	.read_raw = lps001wp_read_raw,
	.read_avail = lps001wp_read_avail,
	.write_raw = lps001wp_write_raw,
	.read_label = lps001wp_read_label,
	.event_attrs = &lps001wp_event_attribute_group,
	.read_event_config = lps001wp_read_event_config,
	.write_event_config = lps001wp_write_event_config,
	.debugfs_reg_access = lps001wp_debugfs_reg_access,
};

static const struct iio_info lps001wp_info_no_irq = {
	.read_raw = lps001wp_read_raw,
	.read_avail = lps001wp_read_avail,
	.write_raw = lps001wp_write_raw,
	.read_label = lps001wp_read_label,
	.debugfs_reg_access = lps001wp_debugfs_reg_access,
};

/* Buffer and trigger */

static int lps001wp_buffer_preenable(struct iio_dev *indio_dev)
{
	struct lps001wp_data *data = iio_priv(indio_dev);
	struct lps001wp_burst burst;
	int ret;

	ret = lps001wp_pm_get(data);
	if (ret)
		return ret;

	/*
	 * Every scan carries DELTA. Wait for a first complete sample made with
	 * DIFF_EN on, so no trigger (own or not) reads a stale or zero one.
	 */
	mutex_lock(&data->lock);
	ret = lps001wp_enable_delta(data);
	if (!ret) {
		/* A sample read in a burst stays in the outputs */
		data->discard_pending = true;
		ret = lps001wp_wait_sample(data, LPS001WP_STATUS_P_DA |
					   LPS001WP_STATUS_T_DA, false, &burst);
	}
	if (!ret)
		data->buffer_enabled = true;
	mutex_unlock(&data->lock);

	if (ret)
		lps001wp_pm_put(data);

	return ret;
}

static int lps001wp_buffer_postdisable(struct iio_dev *indio_dev)
{
	struct lps001wp_data *data = iio_priv(indio_dev);

	mutex_lock(&data->lock);
	data->buffer_enabled = false;
	mutex_unlock(&data->lock);

	lps001wp_pm_put(data);

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
	const struct lps001wp_burst *sample;
	struct lps001wp_burst burst;
	unsigned int i, n = 0;
	s64 timestamp;
	int ret;

	/*
	 * Nested polls skip the pollfunc's top half that stores the time: the
	 * own trigger hands over the hard IRQ's, and a foreign trigger that
	 * never stores one (iio-trig-loop, another device's nested trigger)
	 * gets the current time. pf->timestamp is consumed, so a value stored
	 * under an earlier trigger is never pushed again.
	 */
	if (iio_trigger_using_own(indio_dev)) {
		/* The INT1 thread has read the burst that raised this poll */
		timestamp = data->drdy_timestamp;
		sample = &data->drdy_burst;
	} else {
		timestamp = pf->timestamp;
		pf->timestamp = 0;
		if (!timestamp)
			timestamp = iio_get_time_ns(indio_dev);

		ret = lps001wp_read_burst(data, &burst);
		if (ret)
			goto done;
		/* Garbage after a power-up under a running buffer (resume) */
		if (READ_ONCE(data->first_sample_pending) &&
		    !lps001wp_valid_da(data, &burst))
			goto done;
		sample = &burst;
	}

	/*
	 * Packed here rather than by the core's demux (available_scan_masks):
	 * 6.1 never frees the demux tables of a removed device.
	 */
	memset(data->scan.chans, 0, sizeof(data->scan.chans));
	for (i = 0; i < ARRAY_SIZE(burst.out); i++)
		if (test_bit(i, indio_dev->active_scan_mask))
			data->scan.chans[n++] = lps001wp_output(sample, i);

	lps001wp_push_with_ts(indio_dev, &data->scan, sizeof(data->scan),
			      timestamp);
done:
	iio_trigger_notify_done(indio_dev->trig);

	return IRQ_HANDLED;
}

static int lps001wp_drdy_set_state(struct iio_trigger *trig, bool state)
{
	struct iio_dev *indio_dev = iio_trigger_get_drvdata(trig);
	struct lps001wp_data *data = iio_priv(indio_dev);
	int ret;

	mutex_lock(&data->lock);
	WRITE_ONCE(data->drdy_enabled, state);
	ret = lps001wp_update_routing(data);
	/*
	 * The pad is a level, the interrupt an edge: drop the pending sample
	 * so DRDY falls and the next sample makes a clean edge.
	 */
	if (!ret && state)
		ret = lps001wp_discard_samples(data);
	if (ret && state) {
		/* Nobody would read the outputs: take DRDY off the pad */
		WRITE_ONCE(data->drdy_enabled, false);
		lps001wp_update_routing(data);
	}
	mutex_unlock(&data->lock);

	/*
	 * A failed disable must not fail: 6.1's trigger detach then skips
	 * freeing the poll function's IRQ and the trigger stays half attached.
	 * The pad may stay routed; the IRQ thread ignores data-ready while
	 * drdy_enabled is clear, and the next enable rewrites CTRL_REG3.
	 */
	if (ret && !state) {
		dev_err(data->dev, "data-ready routing off failed: %d\n", ret);
		return 0;
	}

	return ret;
}

static const struct iio_trigger_ops lps001wp_trigger_ops = {
	.set_trigger_state = lps001wp_drdy_set_state,
	.validate_device = iio_trigger_validate_own_device,
};

static irqreturn_t lps001wp_irq_handler(int irq, void *private)
{
	struct iio_dev *indio_dev = private;
	struct lps001wp_data *data = iio_priv(indio_dev);

	WRITE_ONCE(data->irq_timestamp, iio_get_time_ns(indio_dev));

	return IRQ_WAKE_THREAD;
}

/*
 * The pads are levels, the interrupts edges: a thread pass that could not
 * bring its pad back to idle (a failed read left DRDY or the threshold
 * latch set) would never see another edge. It asks for another pass a
 * little later instead, and so on until the bus answers again.
 */
static void lps001wp_irq_retry(struct lps001wp_data *data, unsigned int pad)
{
	set_bit(pad, &data->irq_retry_pads);
	schedule_delayed_work(&data->irq_retry,
			      msecs_to_jiffies(LPS001WP_IRQ_RETRY_MS));
}

static void lps001wp_irq_retry_work(struct work_struct *work)
{
	struct lps001wp_data *data = container_of(to_delayed_work(work),
						  struct lps001wp_data,
						  irq_retry);

	/* No hard IRQ stamps this pass: the events found are this late */
	WRITE_ONCE(data->irq_timestamp, iio_get_time_ns(data->indio_dev));
	if (test_and_clear_bit(0, &data->irq_retry_pads))
		irq_wake_thread(data->irq_int1, data->indio_dev);
	if (test_and_clear_bit(1, &data->irq_retry_pads))
		irq_wake_thread(data->irq_int2, data->indio_dev);
}

/*
 * Pushes the latched threshold events of the enabled directions and clears
 * the latch. Returns 1 when one was latched, 0 when none was, or a negative
 * errno when the latch may still be set; events are pushed only once the
 * latch is acknowledged, so a retry never pushes them twice.
 */
static int lps001wp_handle_events(struct iio_dev *indio_dev, s64 timestamp)
{
	struct lps001wp_data *data = iio_priv(indio_dev);
	unsigned int src;
	int ret;

	ret = regmap_read(data->regmap, LPS001WP_REG_INT_SRC, &src);
	if (ret) {
		dev_err_ratelimited(data->dev, "INT_SRC read failed: %d\n", ret);
		return ret;
	}
	if (!(src & LPS001WP_INT_SRC_IA))
		return 0;

	ret = lps001wp_ack_events(data);
	if (ret)
		return ret;

	/*
	 * A direction switched off since it latched is not reported (INT_SRC
	 * flags and INT_CFG enables share their bit order)
	 */
	src &= READ_ONCE(data->events_enabled);
	if (src & LPS001WP_INT_SRC_PL)
		iio_push_event(indio_dev,
			       IIO_UNMOD_EVENT_CODE(IIO_PRESSURE, 1,
						    IIO_EV_TYPE_THRESH,
						    IIO_EV_DIR_RISING),
			       timestamp);
	if (src & LPS001WP_INT_SRC_PH)
		iio_push_event(indio_dev,
			       IIO_UNMOD_EVENT_CODE(IIO_PRESSURE, 1,
						    IIO_EV_TYPE_THRESH,
						    IIO_EV_DIR_FALLING),
			       timestamp);

	return 1;
}

/*
 * Edge interrupt, level DRDY: DRDY only falls once the outputs are read,
 * so a read that failed leaves it high and no new edge comes. One burst
 * reads STATUS and the sample together and lowers DRDY; a sample landing
 * after it raises a new edge. Returns 0 once a burst was read, -EAGAIN
 * when every attempt failed and DRDY may still be high.
 */
static int lps001wp_read_drdy_sample(struct iio_dev *indio_dev, s64 timestamp,
				     bool *handled)
{
	struct lps001wp_data *data = iio_priv(indio_dev);
	unsigned int i;

	for (i = 0; i < LPS001WP_IRQ_READ_TRIES; i++) {
		if (lps001wp_read_burst(data, &data->drdy_burst))
			continue;
		if (!(lps001wp_valid_da(data, &data->drdy_burst) &
		      LPS001WP_STATUS_P_DA))
			return 0;

		data->drdy_timestamp = timestamp;
		lps001wp_trigger_poll_nested(data->trig);
		*handled = true;
		return 0;
	}

	return -EAGAIN;
}

static irqreturn_t lps001wp_int1_thread(int irq, void *private)
{
	struct iio_dev *indio_dev = private;
	struct lps001wp_data *data = iio_priv(indio_dev);
	s64 timestamp = READ_ONCE(data->irq_timestamp);
	bool handled = false, settled = true;
	int ret;

	if (!data->irq_int2 && READ_ONCE(data->events_enabled)) {
		ret = lps001wp_handle_events(indio_dev, timestamp);
		if (ret < 0)
			settled = false;
		else if (ret)
			handled = true;
	}

	if (READ_ONCE(data->drdy_enabled) &&
	    lps001wp_read_drdy_sample(indio_dev, timestamp, &handled))
		settled = false;

	if (!settled) {
		lps001wp_irq_retry(data, 0);
		return IRQ_HANDLED;
	}

	return handled ? IRQ_HANDLED : IRQ_NONE;
}

static irqreturn_t lps001wp_int2_thread(int irq, void *private)
{
	struct iio_dev *indio_dev = private;
	struct lps001wp_data *data = iio_priv(indio_dev);
	int ret;

	ret = lps001wp_handle_events(indio_dev, READ_ONCE(data->irq_timestamp));
	if (ret < 0) {
		lps001wp_irq_retry(data, 1);
		return IRQ_HANDLED;
	}

	return ret ? IRQ_HANDLED : IRQ_NONE;
}

/* PM */

static int lps001wp_runtime_suspend(struct device *dev)
{
	struct lps001wp_data *data = iio_priv(dev_get_drvdata(dev));
	unsigned int bits = LPS001WP_CTRL1_PD;
	int ret;

	mutex_lock(&data->lock);
	if (!data->buffer_enabled && !data->events_enabled)
		bits |= LPS001WP_CTRL1_DIFF_EN;
	ret = lps001wp_update_bits(data, LPS001WP_REG_CTRL1, bits, 0);
	mutex_unlock(&data->lock);
	if (ret) {
		dev_err_ratelimited(dev, "power down failed: %d\n", ret);
		/*
		 * -EAGAIN keeps runtime PM usable, and a failed autosuspend is
		 * retried only when last_busy has moved: move it, so the chip
		 * is powered down one delay later, not left on until next use.
		 */
		pm_runtime_mark_last_busy(dev);
		return -EAGAIN;
	}

	return 0;
}

/*
 * Power-down keeps the registers; a supply loss resets them. CTRL_REG1 as
 * configured always has BDU set and its reset value is 0, so one read of it
 * tells whether the chip still holds the configuration or everything must
 * be replayed.
 */
static int lps001wp_restore_regs(struct lps001wp_data *data,
				 unsigned int ctrl1)
{
	unsigned int chip_ctrl1;
	int ret;

	if (!data->regs_lost) {
		regcache_cache_bypass(data->regmap, true);
		ret = regmap_read(data->regmap, LPS001WP_REG_CTRL1, &chip_ctrl1);
		regcache_cache_bypass(data->regmap, false);
		if (ret)
			return ret;
		if (chip_ctrl1 == ctrl1)
			return 0;
		dev_dbg(data->dev, "registers lost (CTRL_REG1 0x%02x): replay\n",
			chip_ctrl1);
	}

	/* CTRL_REG1 is replayed with PD = 0, then powered up by the caller */
	regcache_mark_dirty(data->regmap);
	ret = regcache_sync(data->regmap);
	if (ret)
		return ret;
	data->regs_lost = false;

	return 0;
}

static int lps001wp_runtime_resume(struct device *dev)
{
	struct lps001wp_data *data = iio_priv(dev_get_drvdata(dev));
	unsigned int ctrl1;
	int ret;

	mutex_lock(&data->lock);
	ret = regmap_read(data->regmap, LPS001WP_REG_CTRL1, &ctrl1);
	if (ret)
		goto fail;
	ret = lps001wp_restore_regs(data, ctrl1);
	if (ret)
		goto fail;
	ret = regmap_write(data->regmap, LPS001WP_REG_CTRL1,
			   ctrl1 | LPS001WP_CTRL1_PD);
	if (ret) {
		/*
		 * regmap cached PD = 1 before the write failed: put back the
		 * value the next sync must replay (cache only, no bus).
		 */
		regcache_cache_only(data->regmap, true);
		regmap_write(data->regmap, LPS001WP_REG_CTRL1, ctrl1);
		regcache_cache_only(data->regmap, false);
		goto fail;
	}
	data->powered_up = ktime_get();
	/* What the outputs hold was converted before the power-down */
	data->discard_pending = true;
	WRITE_ONCE(data->first_sample_pending,
		   !LPS001WP_ASSUME_FIRST_SAMPLE_VALID);
	mutex_unlock(&data->lock);

	return 0;

fail:
	/*
	 * The device counts as suspended again (lps001wp_pm_get), and the
	 * supplies may drop before the next resume: that one must replay
	 * every register, also those this attempt had already written.
	 */
	data->regs_lost = true;
	mutex_unlock(&data->lock);
	dev_err_ratelimited(dev, "power up failed: %d\n", ret);

	return ret;
}

/* Supplies may go away in system sleep: replay everything on resume */
static int lps001wp_suspend(struct device *dev)
{
	struct lps001wp_data *data = iio_priv(dev_get_drvdata(dev));
	int ret;

	ret = pm_runtime_force_suspend(dev);
	if (ret)
		return ret;

	mutex_lock(&data->lock);
	data->regs_lost = true;
	mutex_unlock(&data->lock);

	return 0;
}

static const struct dev_pm_ops lps001wp_pm_ops = {
	SYSTEM_SLEEP_PM_OPS(lps001wp_suspend, pm_runtime_force_resume)
	RUNTIME_PM_OPS(lps001wp_runtime_suspend, lps001wp_runtime_resume, NULL)
};

/* Probe */

static int lps001wp_check_id(struct lps001wp_data *data)
{
	unsigned int who_am_i;
	const char *part;
	int ret;

	ret = regmap_read(data->regmap, LPS001WP_REG_WHO_AM_I, &who_am_i);
	if (ret)
		return dev_err_probe(data->dev, ret, "WHO_AM_I read failed\n");

	if (who_am_i == LPS001WP_WHO_AM_I_VALUE)
		return 0;

	part = lps001wp_other_part_name(who_am_i);
	if (part)
		return dev_err_probe(data->dev, -ENODEV,
				     "WHO_AM_I 0x%02x is an ST %s, not an LPS001WP (0x%02x)\n",
				     who_am_i, part, LPS001WP_WHO_AM_I_VALUE);

	return dev_err_probe(data->dev, -ENODEV,
			     "unknown WHO_AM_I 0x%02x, expected 0x%02x\n",
			     who_am_i, LPS001WP_WHO_AM_I_VALUE);
}

/* Known state, powered down: the chip has no software reset */
static int lps001wp_chip_init(struct lps001wp_data *data)
{
	static const __le16 zero_ref_ths[2];
	unsigned int dummy;
	int ret;

	ret = regmap_write(data->regmap, LPS001WP_REG_CTRL1,
			   LPS001WP_CTRL1_BDU |
			   FIELD_PREP(LPS001WP_CTRL1_DR, LPS001WP_DR_11));
	if (ret)
		return ret;

	ret = lps001wp_update_routing(data);
	if (ret)
		return ret;

	ret = regmap_bulk_write(data->regmap, LPS001WP_REG_REF_P_L,
				zero_ref_ths, sizeof(zero_ref_ths));
	if (ret)
		return ret;

	ret = regmap_write(data->regmap, LPS001WP_REG_INT_CFG,
			   LPS001WP_INT_CFG_LIR);
	if (ret)
		return ret;

	return regmap_read(data->regmap, LPS001WP_REG_INT_ACK, &dummy);
}

/*
 * A pad the firmware does not name has no IRQ; a named one that cannot be
 * mapped (or whose controller is not there yet) fails the probe.
 */
static int lps001wp_get_named_irq(struct lps001wp_data *data,
				  const char *name, int *irq)
{
	struct fwnode_handle *fwnode = dev_fwnode(data->dev);
	int index;

	*irq = 0;
	index = fwnode_property_match_string(fwnode, "interrupt-names", name);
	if (index == -EINVAL || index == -ENODATA)
		return 0;	/* no interrupt-names, or not this name */
	if (index < 0)
		return dev_err_probe(data->dev, index,
				     "interrupt-names unreadable\n");

	*irq = fwnode_irq_get(fwnode, index);
	if (*irq < 0)
		return dev_err_probe(data->dev, *irq, "%s IRQ unusable\n",
				     name);

	return 0;
}

/* INT1 carries data-ready (and thresholds when INT2 is absent) */
static int lps001wp_get_irqs(struct lps001wp_data *data,
			     struct i2c_client *client)
{
	int irq, type, ret;

	ret = lps001wp_get_named_irq(data, "int1", &data->irq_int1);
	if (ret)
		return ret;
	ret = lps001wp_get_named_irq(data, "int2", &data->irq_int2);
	if (ret)
		return ret;

	/*
	 * Without interrupt-names the first (only) interrupt is INT1. The I2C
	 * core has resolved it: > 0, or 0 for none (it defers by itself).
	 */
	if (!data->irq_int1 && !data->irq_int2 && client->irq > 0)
		data->irq_int1 = client->irq;

	irq = data->irq_int1 ?: data->irq_int2;
	if (!irq)
		return 0;

	/* Both pads share one polarity and one drive setting */
	type = irq_get_trigger_type(irq);
	switch (type) {
	case IRQ_TYPE_EDGE_FALLING:
	case IRQ_TYPE_LEVEL_LOW:
		data->irq_active_low = true;
		break;
	case IRQ_TYPE_NONE:
	case IRQ_TYPE_EDGE_RISING:
	case IRQ_TYPE_LEVEL_HIGH:
		break;
	default:
		return dev_err_probe(data->dev, -EINVAL,
				     "unsupported IRQ trigger type %d\n", type);
	}

	data->irq_open_drain = device_property_read_bool(data->dev,
							 "drive-open-drain");
	return 0;
}

static int lps001wp_request_irq(struct iio_dev *indio_dev, int irq,
				irq_handler_t thread_fn, const char *pad)
{
	struct lps001wp_data *data = iio_priv(indio_dev);
	unsigned long flags = 0;
	const char *name;
	int ret;

	name = devm_kasprintf(data->dev, GFP_KERNEL, "%s-%s", indio_dev->name,
			      pad);
	if (!name)
		return -ENOMEM;

	switch (irq_get_trigger_type(irq)) {
	case IRQ_TYPE_LEVEL_LOW:
	case IRQ_TYPE_LEVEL_HIGH:
		/* A level stays asserted until the thread has read the chip */
		flags |= IRQF_ONESHOT;
		break;
	case IRQ_TYPE_NONE:
		flags |= IRQF_TRIGGER_RISING;
		break;
	default:
		/*
		 * Edges stay unmasked so one arriving while the thread runs
		 * queues another pass instead of being lost.
		 */
		break;
	}
	if (data->irq_open_drain)
		flags |= IRQF_SHARED;

	ret = devm_request_threaded_irq(data->dev, irq, lps001wp_irq_handler,
					thread_fn, flags, name, indio_dev);
	if (ret)
		return dev_err_probe(data->dev, ret, "%s IRQ %d request failed\n",
				     pad, irq);

	return 0;
}

static int lps001wp_setup_irqs(struct iio_dev *indio_dev)
{
	struct lps001wp_data *data = iio_priv(indio_dev);
	int ret;

	/* Cancelled after the IRQs are freed: no thread can queue it again */
	ret = devm_delayed_work_autocancel(data->dev, &data->irq_retry,
					   lps001wp_irq_retry_work);
	if (ret)
		return ret;

	if (data->irq_int1) {
		/*
		 * No module owner: the trigger is the default one, and the
		 * reference the core holds on it would otherwise pin the module
		 * while the device is bound, so rmmod failed with nothing
		 * streaming. Nothing outside this driver can hold the trigger
		 * (validate_device: own device only), and while a buffer runs
		 * the core pins the module through the device's poll function.
		 */
		data->trig = __devm_iio_trigger_alloc(data->dev, NULL,
						      "%s-dev%d",
						      indio_dev->name,
						      iio_device_id(indio_dev));
		if (!data->trig)
			return -ENOMEM;

		data->trig->ops = &lps001wp_trigger_ops;
		iio_trigger_set_drvdata(data->trig, indio_dev);

		/* Before the trigger exists for user space to enable */
		ret = lps001wp_request_irq(indio_dev, data->irq_int1,
					   lps001wp_int1_thread, "int1");
		if (ret)
			return ret;

		ret = devm_iio_trigger_register(data->dev, data->trig);
		if (ret)
			return dev_err_probe(data->dev, ret,
					     "trigger registration failed\n");

		indio_dev->trig = iio_trigger_get(data->trig);
	}

	if (data->irq_int2) {
		ret = lps001wp_request_irq(indio_dev, data->irq_int2,
					   lps001wp_int2_thread, "int2");
		if (ret)
			return ret;
	}

	return 0;
}

static void lps001wp_pm_disable(void *dev)
{
	pm_runtime_disable(dev);
	/* Unbound within the autosuspend delay: power down now */
	if (!pm_runtime_status_suspended(dev))
		lps001wp_runtime_suspend(dev);
	pm_runtime_set_suspended(dev);
	pm_runtime_dont_use_autosuspend(dev);
}

/*
 * Unbound with events enabled (IIO does not disable them on unregister): no
 * pad may stay asserted on a line that another device can share, so route
 * both pads to GND, turn the threshold unit off and clear its latch. Runs
 * after the IIO device is gone and before the IRQs are freed.
 */
static void lps001wp_disarm_pads(void *arg)
{
	struct lps001wp_data *data = arg;
	unsigned int dummy;
	int ret;

	mutex_lock(&data->lock);
	data->drdy_enabled = false;
	data->events_enabled = 0;
	ret = lps001wp_write(data, LPS001WP_REG_INT_CFG, 0);
	if (!ret)
		ret = lps001wp_update_routing(data);
	if (!ret)
		ret = regmap_read(data->regmap, LPS001WP_REG_INT_ACK, &dummy);
	mutex_unlock(&data->lock);
	if (ret)
		dev_warn(data->dev, "interrupt pads not disarmed: %d\n", ret);
}

/* Enabled events hold a runtime PM reference; give it back on unbind */
static void lps001wp_drop_events_pm_ref(void *arg)
{
	struct lps001wp_data *data = arg;

	if (data->events_enabled)
		pm_runtime_put_noidle(data->dev);
}

/* The chip was left powered down by lps001wp_chip_init(): start suspended */
static int lps001wp_setup_pm(struct lps001wp_data *data)
{
	pm_runtime_set_autosuspend_delay(data->dev, LPS001WP_AUTOSUSPEND_MS);
	pm_runtime_use_autosuspend(data->dev);
	pm_runtime_enable(data->dev);

	return devm_add_action_or_reset(data->dev, lps001wp_pm_disable,
					data->dev);
}

static int lps001wp_probe(struct i2c_client *client)
{
	static const char * const supplies[] = { "vdd", "vddio" };
	struct device *dev = &client->dev;
	struct lps001wp_data *data;
	struct iio_dev *indio_dev;
	int ret;

	indio_dev = devm_iio_device_alloc(dev, sizeof(*data));
	if (!indio_dev)
		return -ENOMEM;

	i2c_set_clientdata(client, indio_dev);
	data = iio_priv(indio_dev);
	data->dev = dev;
	data->indio_dev = indio_dev;
	mutex_init(&data->lock);

	data->regmap = devm_regmap_init_i2c(client, &lps001wp_regmap_config);
	if (IS_ERR(data->regmap))
		return dev_err_probe(dev, PTR_ERR(data->regmap),
				     "regmap init failed\n");

	ret = devm_regulator_bulk_get_enable(dev, ARRAY_SIZE(supplies),
					     supplies);
	if (ret)
		return dev_err_probe(dev, ret, "supplies enable failed\n");

	/* Nothing to poll before the chip answers at all */
	fsleep(LPS001WP_TURN_ON_US);

	ret = lps001wp_check_id(data);
	if (ret)
		return ret;

	ret = lps001wp_get_irqs(data, client);
	if (ret)
		return ret;

	ret = lps001wp_chip_init(data);
	if (ret)
		return dev_err_probe(dev, ret, "chip init failed\n");

	indio_dev->name = LPS001WP_DRV_NAME;
	indio_dev->modes = INDIO_DIRECT_MODE;
	lps001wp_debugfs_init(indio_dev);
	if (data->irq_int1 || data->irq_int2) {
		indio_dev->info = &lps001wp_info;
		indio_dev->channels = lps001wp_channels;
		indio_dev->num_channels = ARRAY_SIZE(lps001wp_channels);
	} else {
		indio_dev->info = &lps001wp_info_no_irq;
		indio_dev->channels = lps001wp_channels_no_irq;
		indio_dev->num_channels = ARRAY_SIZE(lps001wp_channels_no_irq);
	}

	ret = devm_iio_triggered_buffer_setup(dev, indio_dev,
					      iio_pollfunc_store_time,
					      lps001wp_trigger_handler,
					      &lps001wp_buffer_ops);
	if (ret)
		return dev_err_probe(dev, ret, "buffer setup failed\n");

	ret = lps001wp_setup_irqs(indio_dev);
	if (ret)
		return ret;

	/* Registered first so it runs last, after the events' reference is put */
	ret = devm_add_action_or_reset(dev, lps001wp_disarm_pads, data);
	if (ret)
		return ret;

	ret = devm_add_action_or_reset(dev, lps001wp_drop_events_pm_ref, data);
	if (ret)
		return ret;

	ret = devm_iio_device_register(dev, indio_dev);
	if (ret)
		return dev_err_probe(dev, ret, "IIO registration failed\n");

	/*
	 * Runtime PM last: registering the IIO device resumes its parent (the
	 * driver core does so around attaching any child), which would power
	 * the chip up for an autosuspend delay at every probe. Undone first on
	 * removal, so the chip is powered down before the IIO device goes.
	 */
	ret = lps001wp_setup_pm(data);
	if (ret)
		return dev_err_probe(dev, ret, "runtime PM setup failed\n");

	return 0;
}

/* Tables */

/*
 * "st,lps001wp-press" is mainline's (st,st-sensors.yaml): board trees
 * written for st_pressure bind here unchanged.
 */
static const struct of_device_id lps001wp_of_match[] = {
	{ .compatible = "st,lps001wp" },
	{ .compatible = "st,lps001wp-press" },
	{ }
};
MODULE_DEVICE_TABLE(of, lps001wp_of_match);

static const struct i2c_device_id lps001wp_id[] = {
	{ LPS001WP_DRV_NAME },
	{ }
};
MODULE_DEVICE_TABLE(i2c, lps001wp_id);

static struct i2c_driver lps001wp_driver = {
	.driver = {
		.name = LPS001WP_DRV_NAME,
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
