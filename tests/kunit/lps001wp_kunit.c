// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the LPS001WP driver's pure logic: register encodings,
 * scales, the part table, event direction and pad routing, and the regmap
 * access tables. Included at the end of lps001wp.c when the bench builds
 * with LPS001WP_KUNIT=1, so it can reach the driver's static functions; it
 * runs when the module loads.
 */

#include <kunit/test.h>

static void lps001wp_test_odr_to_dr(struct kunit *test)
{
	/* DR 11 at 12.5 Hz in every source's table */
	KUNIT_EXPECT_EQ(test, lps001wp_odr_to_dr(12, 500000), LPS001WP_DR_11);
	KUNIT_EXPECT_EQ(test, LPS001WP_DR_11, 0x3);
#if LPS001WP_ASSUME_DR_ST_TABLE
	/* ST's table: 7 Hz is DR 01; no 1 Hz */
	KUNIT_EXPECT_EQ(test, lps001wp_odr_to_dr(7, 0), 0x1);
	KUNIT_EXPECT_EQ(test, lps001wp_odr_to_dr(1, 0), -EINVAL);
#else
	/* mainline's: 1 Hz is DR 01, 7 Hz DR 10 */
	KUNIT_EXPECT_EQ(test, lps001wp_odr_to_dr(1, 0), 0x1);
	KUNIT_EXPECT_EQ(test, lps001wp_odr_to_dr(7, 0), 0x2);
#endif

	KUNIT_EXPECT_EQ(test, lps001wp_odr_to_dr(0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, lps001wp_odr_to_dr(7, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, lps001wp_odr_to_dr(12, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, lps001wp_odr_to_dr(12, 499999), -EINVAL);
	KUNIT_EXPECT_EQ(test, lps001wp_odr_to_dr(13, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, lps001wp_odr_to_dr(-7, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, lps001wp_odr_to_dr(0, 500000), -EINVAL);
}

static void lps001wp_expect_odr(struct kunit *test, unsigned int dr,
				int want, int want2)
{
	int val = -1, val2 = -1;

	KUNIT_ASSERT_EQ_MSG(test, lps001wp_dr_to_odr(dr, &val, &val2), 0,
			    "DR %u", dr);
	KUNIT_EXPECT_EQ_MSG(test, val, want, "DR %u", dr);
	KUNIT_EXPECT_EQ_MSG(test, val2, want2, "DR %u", dr);
}

static void lps001wp_test_dr_to_odr(struct kunit *test)
{
	int val, val2;

	lps001wp_expect_odr(test, 0x3, 12, 500000);
	/* DR 00 runs pressure at 7 Hz (temperature at 1 Hz) */
	lps001wp_expect_odr(test, 0x0, 7, 0);
#if LPS001WP_ASSUME_DR_ST_TABLE
	lps001wp_expect_odr(test, 0x1, 7, 0);
	/* unlisted in ST's table */
	KUNIT_EXPECT_EQ(test, lps001wp_dr_to_odr(0x2, &val, &val2), -EINVAL);
#else
	lps001wp_expect_odr(test, 0x1, 1, 0);
	lps001wp_expect_odr(test, 0x2, 7, 0);
#endif
	KUNIT_EXPECT_EQ(test, lps001wp_dr_to_odr(0x4, &val, &val2), -EINVAL);
}

/* Every advertised rate maps to a code that maps back to the same rate */
static void lps001wp_test_odr_avail_round_trip(struct kunit *test)
{
	unsigned int i;
	int dr, val, val2;

	KUNIT_EXPECT_EQ(test, ARRAY_SIZE(lps001wp_odr_avail),
			LPS001WP_ASSUME_DR_ST_TABLE ? 4 : 6);
	KUNIT_EXPECT_EQ(test, ARRAY_SIZE(lps001wp_odr_avail),
			2 * ARRAY_SIZE(lps001wp_odr_dr));
	for (i = 0; i < ARRAY_SIZE(lps001wp_odr_avail); i += 2) {
		dr = lps001wp_odr_to_dr(lps001wp_odr_avail[i],
					lps001wp_odr_avail[i + 1]);
		KUNIT_ASSERT_GE(test, dr, 0);
		KUNIT_EXPECT_EQ(test, lps001wp_dr_to_odr(dr, &val, &val2), 0);
		KUNIT_EXPECT_EQ(test, val, lps001wp_odr_avail[i]);
		KUNIT_EXPECT_EQ(test, val2, lps001wp_odr_avail[i + 1]);
	}
}

static void lps001wp_test_sample_period(struct kunit *test)
{
	unsigned int dr01 = LPS001WP_ASSUME_DR_ST_TABLE ? 142858 : 1000000;

	KUNIT_EXPECT_EQ(test, lps001wp_sample_period_us(0x1, false), dr01);
	KUNIT_EXPECT_EQ(test, lps001wp_sample_period_us(0x1, true), dr01);
	KUNIT_EXPECT_EQ(test, lps001wp_sample_period_us(0x3, true), 80000);
	KUNIT_EXPECT_EQ(test, lps001wp_sample_period_us(0x0, false), 142858);
	KUNIT_EXPECT_EQ(test, lps001wp_sample_period_us(0x0, true), 1000000);
	KUNIT_EXPECT_EQ(test, lps001wp_sample_period_us(0x2, false), 142858);

	/* Timeouts hold if the code runs at the slowest rate any table gives */
	KUNIT_EXPECT_EQ(test, lps001wp_drdy_timeout_us(0x3, false), 240000);
	KUNIT_EXPECT_EQ(test, lps001wp_drdy_timeout_us(0x1, false), 3000000);
	KUNIT_EXPECT_EQ(test, lps001wp_drdy_timeout_us(0x2, false), 3000000);
	KUNIT_EXPECT_EQ(test, lps001wp_drdy_timeout_us(0x0, true), 3000000);
}

/* in_pressure1_raw is REF_P - P whatever the register holds */
static void lps001wp_test_delta_sign(struct kunit *test)
{
	struct lps001wp_burst burst = { };
	s16 reg = LPS001WP_ASSUME_DELTA_IS_REF_MINUS_P ? -212 : 212;

	burst.out[LPS001WP_SCAN_PRESSURE] = cpu_to_le16(16212);
	burst.out[LPS001WP_SCAN_DELTA] = cpu_to_le16(reg);
	KUNIT_EXPECT_EQ(test, (s16)le16_to_cpu(lps001wp_output(&burst,
							       LPS001WP_SCAN_DELTA)),
			-212);
	KUNIT_EXPECT_EQ(test, le16_to_cpu(lps001wp_output(&burst,
							  LPS001WP_SCAN_PRESSURE)),
			16212);
}

/* The first sample after power-up: dropped unless an overrun vouches */
static void lps001wp_test_first_sample(struct kunit *test)
{
	struct lps001wp_data *data;
	struct lps001wp_burst burst = { };
	const unsigned int both = LPS001WP_STATUS_P_DA | LPS001WP_STATUS_T_DA;

	data = kunit_kzalloc(test, sizeof(*data), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, data);

	/* not pending: what STATUS says */
	burst.status = both;
	KUNIT_EXPECT_EQ(test, lps001wp_valid_da(data, &burst), both);

	/* pending, nothing new: still pending */
	data->first_sample_pending = true;
	burst.status = 0;
	KUNIT_EXPECT_EQ(test, lps001wp_valid_da(data, &burst), 0);
	KUNIT_EXPECT_TRUE(test, data->first_sample_pending);

	/* pending, one sample: it is the first, dropped */
	burst.status = both;
	KUNIT_EXPECT_EQ(test, lps001wp_valid_da(data, &burst), 0);
	KUNIT_EXPECT_FALSE(test, data->first_sample_pending);
	KUNIT_EXPECT_EQ(test, lps001wp_valid_da(data, &burst), both);

	/* pending, overrun: at least the second, taken */
	data->first_sample_pending = true;
	burst.status = both | LPS001WP_STATUS_P_OR | LPS001WP_STATUS_T_OR;
	KUNIT_EXPECT_EQ(test, lps001wp_valid_da(data, &burst), both);
	KUNIT_EXPECT_FALSE(test, data->first_sample_pending);
}

static void lps001wp_expect_scale(struct kunit *test, enum iio_chan_type type,
				  const char *expected)
{
	int vals[2];
	char *buf;
	int ret;

	/* sysfs_emit() wants a page-aligned buffer, as sysfs gives it */
	buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_TRUE(test, PAGE_ALIGNED(buf));
	ret = lps001wp_scale(type, &vals[0], &vals[1]);
	KUNIT_ASSERT_EQ(test, ret, IIO_VAL_FRACTIONAL);
	iio_format_value(buf, ret, ARRAY_SIZE(vals), vals);
	KUNIT_EXPECT_STREQ(test, buf, expected);
}

static void lps001wp_test_scales(struct kunit *test)
{
	int val, val2;

	/* 16 LSB/mbar -> kPa; 64 LSB/degC -> m°C (spec §6) */
	lps001wp_expect_scale(test, IIO_PRESSURE, "0.006250000\n");
	lps001wp_expect_scale(test, IIO_TEMP, "15.625000000\n");
	KUNIT_EXPECT_EQ(test, lps001wp_scale(IIO_HUMIDITYRELATIVE, &val, &val2),
			-EINVAL);
}

static void lps001wp_test_part_names(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, lps001wp_other_part_name(0xbb), "LPS331AP");
	KUNIT_EXPECT_STREQ(test, lps001wp_other_part_name(0xbd), "LPS25H");
	KUNIT_EXPECT_STREQ(test, lps001wp_other_part_name(0xb1), "LPS22HB");
	KUNIT_EXPECT_NULL(test, lps001wp_other_part_name(LPS001WP_WHO_AM_I_VALUE));
	KUNIT_EXPECT_NULL(test, lps001wp_other_part_name(0x00));
	KUNIT_EXPECT_NULL(test, lps001wp_other_part_name(0xff));
}

/* DELTA = REF - P: PL (REF - P > THS) is rising, PH is falling */
static void lps001wp_test_event_direction(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, lps001wp_event_dir_to_int_cfg(IIO_EV_DIR_RISING),
			(u8)BIT(1));
	KUNIT_EXPECT_EQ(test, lps001wp_event_dir_to_int_cfg(IIO_EV_DIR_FALLING),
			(u8)BIT(0));
	KUNIT_EXPECT_EQ(test, lps001wp_event_dir_to_int_cfg(IIO_EV_DIR_EITHER), 0);
	KUNIT_EXPECT_EQ(test, lps001wp_event_dir_to_int_cfg(IIO_EV_DIR_NONE), 0);
	/* INT_SRC flags sit where INT_CFG's enables do */
	KUNIT_EXPECT_EQ(test, LPS001WP_INT_SRC_PL, LPS001WP_INT_CFG_PL_E);
	KUNIT_EXPECT_EQ(test, LPS001WP_INT_SRC_PH, LPS001WP_INT_CFG_PH_E);
}

static void lps001wp_test_ctrl3_value(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, lps001wp_ctrl3_value(false, false, 0, 0), 0x00);
	KUNIT_EXPECT_EQ(test, lps001wp_ctrl3_value(false, false,
						   LPS001WP_INT_CFG_DRDY, 0), 0x04);
	KUNIT_EXPECT_EQ(test, lps001wp_ctrl3_value(true, false,
						   LPS001WP_INT_CFG_DRDY, 0), 0x84);
	KUNIT_EXPECT_EQ(test, lps001wp_ctrl3_value(false, true,
						   LPS001WP_INT_CFG_DRDY,
						   LPS001WP_INT_CFG_P_EITHER), 0x5c);
	KUNIT_EXPECT_EQ(test, lps001wp_ctrl3_value(true, true,
						   LPS001WP_INT_CFG_P_EITHER, 0), 0xc3);
	KUNIT_EXPECT_EQ(test, lps001wp_ctrl3_value(true, false, 0,
						   LPS001WP_INT_CFG_P_EITHER), 0x98);
}

struct lps001wp_routing_case {
	bool drdy, events, has_int2;
	u8 int1, int2;
};

static void lps001wp_test_int_selectors(struct kunit *test)
{
	static const struct lps001wp_routing_case cases[] = {
		{ false, false, false, 0x0, 0x0 },
		{ true, false, false, 0x4, 0x0 },
		{ false, true, false, 0x3, 0x0 },
		/* one line, both: DRDY wins, INT_SRC polled per sample */
		{ true, true, false, 0x4, 0x0 },
		{ false, false, true, 0x0, 0x0 },
		{ true, false, true, 0x4, 0x0 },
		{ false, true, true, 0x0, 0x3 },
		{ true, true, true, 0x4, 0x3 },
	};
	unsigned int i;
	u8 int1, int2;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		int1 = 0xff;
		int2 = 0xff;
		lps001wp_int_selectors(cases[i].drdy, cases[i].events,
				       cases[i].has_int2, &int1, &int2);
		KUNIT_EXPECT_EQ_MSG(test, int1, cases[i].int1, "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, int2, cases[i].int2, "case %u", i);
	}
}

/* R(eadable) W(riteable) V(olatile) P(recious), per spec §3 */
#define R	BIT(0)
#define W	BIT(1)
#define V	BIT(2)
#define P	BIT(3)

static void lps001wp_test_register_access(struct kunit *test)
{
	static const u8 expected[0x40] = {
		[0x0f] = R | V,			/* WHO_AM_I */
		[0x20] = R | W,			/* CTRL_REG1 */
		[0x21] = R | W | V,		/* CTRL_REG2: BOOT self-clears */
		[0x22] = R | W,			/* CTRL_REG3 */
		[0x27] = R | V,			/* STATUS */
		[0x28] = R | V | P, [0x29] = R | V | P,	/* PRESS_OUT */
		[0x2a] = R | V | P, [0x2b] = R | V | P,	/* TEMP_OUT */
		[0x2c] = R | V | P, [0x2d] = R | V | P,	/* DELTA */
		[0x30] = R | W, [0x31] = R | W,	/* REF_P */
		[0x32] = R | W, [0x33] = R | W,	/* THS_P */
		[0x34] = R | W,			/* INT_CFG */
		[0x35] = R | V,			/* INT_SRC */
		[0x36] = R | V | P,		/* INT_ACK: read clears */
	};
	const struct regmap_config *cfg = &lps001wp_regmap_config;
	unsigned int reg;
	u8 got;

	for (reg = 0; reg < ARRAY_SIZE(expected); reg++) {
		got = 0;
		if (regmap_check_range_table(NULL, reg, cfg->rd_table))
			got |= R;
		if (regmap_check_range_table(NULL, reg, cfg->wr_table))
			got |= W;
		if (regmap_check_range_table(NULL, reg, cfg->volatile_table))
			got |= V;
		if (regmap_check_range_table(NULL, reg, cfg->precious_table))
			got |= P;
		KUNIT_EXPECT_EQ_MSG(test, got, expected[reg], "register 0x%02x", reg);
	}
	KUNIT_EXPECT_EQ(test, cfg->max_register, 0x36);
	KUNIT_EXPECT_EQ(test, cfg->read_flag_mask, 0x80);
	KUNIT_EXPECT_EQ(test, cfg->write_flag_mask, 0x80);
}

#undef R
#undef W
#undef V
#undef P

/* What the triggered buffer pushes, and how the channels describe it */
static void lps001wp_test_scan_layout(struct kunit *test)
{
	const struct iio_chan_spec *ch = lps001wp_channels;

	KUNIT_EXPECT_EQ(test, sizeof(((struct lps001wp_data *)NULL)->scan), 16);
	KUNIT_EXPECT_EQ(test, offsetof(struct lps001wp_data, scan.timestamp) -
			offsetof(struct lps001wp_data, scan), 8);
	KUNIT_EXPECT_EQ(test, offsetof(struct lps001wp_data, scan) % 8, 0);

	KUNIT_ASSERT_EQ(test, ARRAY_SIZE(lps001wp_channels), 4);
	KUNIT_EXPECT_EQ(test, ch[0].type, IIO_PRESSURE);
	KUNIT_EXPECT_EQ(test, ch[0].scan_type.sign, 'u');
	KUNIT_EXPECT_FALSE(test, ch[0].indexed);
	KUNIT_EXPECT_EQ(test, ch[0].address, 0x28);
	KUNIT_EXPECT_EQ(test, ch[1].type, IIO_TEMP);
	KUNIT_EXPECT_EQ(test, ch[1].scan_type.sign, 's');
	KUNIT_EXPECT_EQ(test, ch[1].address, 0x2a);
	KUNIT_EXPECT_EQ(test, ch[2].type, IIO_PRESSURE);
	KUNIT_EXPECT_EQ(test, ch[2].scan_type.sign, 's');
	KUNIT_EXPECT_TRUE(test, ch[2].indexed);
	KUNIT_EXPECT_EQ(test, ch[2].channel, 1);
	KUNIT_EXPECT_EQ(test, ch[2].address, 0x2c);
	KUNIT_EXPECT_EQ(test, ch[2].num_event_specs, 2);
	KUNIT_EXPECT_EQ(test, lps001wp_channels_no_irq[2].num_event_specs, 0);
}

static struct kunit_case lps001wp_test_cases[] = {
	KUNIT_CASE(lps001wp_test_odr_to_dr),
	KUNIT_CASE(lps001wp_test_dr_to_odr),
	KUNIT_CASE(lps001wp_test_odr_avail_round_trip),
	KUNIT_CASE(lps001wp_test_sample_period),
	KUNIT_CASE(lps001wp_test_delta_sign),
	KUNIT_CASE(lps001wp_test_first_sample),
	KUNIT_CASE(lps001wp_test_scales),
	KUNIT_CASE(lps001wp_test_part_names),
	KUNIT_CASE(lps001wp_test_event_direction),
	KUNIT_CASE(lps001wp_test_ctrl3_value),
	KUNIT_CASE(lps001wp_test_int_selectors),
	KUNIT_CASE(lps001wp_test_register_access),
	KUNIT_CASE(lps001wp_test_scan_layout),
	{ }
};

static struct kunit_suite lps001wp_test_suite = {
	.name = "lps001wp",
	.test_cases = lps001wp_test_cases,
};

kunit_test_suite(lps001wp_test_suite);
