// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the LPS001WP driver's pure logic: the rate table and
 * timing, DELTA's sign, event direction and pad routing,
 * and the regmap access rules. Included at the end of lps001wp.c when the bench builds
 * with LPS001WP_KUNIT=1, so it can reach the driver's static functions; it
 * runs when the module loads.
 */

#include <kunit/test.h>

/* Every advertised rate has its DR code, and the timing of each code */
static void lps001wp_test_odr(struct kunit *test)
{
	unsigned int period, timeout;

	KUNIT_ASSERT_EQ(test, ARRAY_SIZE(lps001wp_odr), ARRAY_SIZE(lps001wp_odr_dr));
	KUNIT_EXPECT_EQ(test, ARRAY_SIZE(lps001wp_odr), LPS001WP_ASSUME_DR_ST_TABLE ? 2 : 3);
	/* DR 11 at 12.5 Hz in every source's table */
	KUNIT_EXPECT_EQ(test, lps001wp_dr_index(0x3), ARRAY_SIZE(lps001wp_odr) - 1);
	KUNIT_EXPECT_EQ(test, lps001wp_odr[lps001wp_dr_index(0x3)][0], 12);
	KUNIT_EXPECT_EQ(test, lps001wp_odr[lps001wp_dr_index(0x3)][1], 500000);
	/* DR 00 is never programmed */
	KUNIT_EXPECT_EQ(test, lps001wp_dr_index(0x0), -EINVAL);
	KUNIT_EXPECT_EQ(test, lps001wp_dr_index(0x4), -EINVAL);
#if LPS001WP_ASSUME_DR_ST_TABLE
	/* ST's table: 7 Hz is DR 01, DR 10 unlisted */
	KUNIT_EXPECT_EQ(test, lps001wp_odr[lps001wp_dr_index(0x1)][0], 7);
	KUNIT_EXPECT_EQ(test, lps001wp_dr_index(0x2), -EINVAL);
#else
	/* mainline's: 1 Hz is DR 01, 7 Hz DR 10 */
	KUNIT_EXPECT_EQ(test, lps001wp_odr[lps001wp_dr_index(0x1)][0], 1);
	KUNIT_EXPECT_EQ(test, lps001wp_odr[lps001wp_dr_index(0x2)][0], 7);
#endif

	lps001wp_timing(0x3, &period, &timeout);
	KUNIT_EXPECT_EQ(test, period, 80000);
	KUNIT_EXPECT_EQ(test, timeout, 240000);
	lps001wp_timing(0x1, &period, &timeout);
	KUNIT_EXPECT_EQ(test, period, LPS001WP_ASSUME_DR_ST_TABLE ? 142857 : 1000000);
	/* Timeouts hold if the code runs at the slowest rate any table gives */
	KUNIT_EXPECT_EQ(test, timeout, 3000000);
	lps001wp_timing(0x0, &period, &timeout);
	KUNIT_EXPECT_EQ(test, period, 1000000);
	KUNIT_EXPECT_EQ(test, timeout, 3000000);
}

/* in_pressure1_raw is REF_P - P whatever the register holds */
static void lps001wp_test_delta_sign(struct kunit *test)
{
	struct lps001wp_burst burst = { };
	s16 reg = LPS001WP_ASSUME_DELTA_IS_REF_MINUS_P ? -212 : 212;

	burst.out[LPS001WP_PRESSURE] = cpu_to_le16(16212);
	burst.out[LPS001WP_DELTA] = cpu_to_le16(reg);
	KUNIT_EXPECT_EQ(test, (s16)le16_to_cpu(lps001wp_output(&burst,
							       LPS001WP_DELTA)),
			-212);
	KUNIT_EXPECT_EQ(test, le16_to_cpu(lps001wp_output(&burst,
							  LPS001WP_PRESSURE)),
			16212);
}

/* DELTA = REF - P: PL (REF - P > THS) is rising, PH is falling */
static void lps001wp_test_event_direction(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, LPS001WP_EVENT_BIT(IIO_EV_DIR_RISING), BIT(1));
	KUNIT_EXPECT_EQ(test, LPS001WP_EVENT_BIT(IIO_EV_DIR_FALLING), BIT(0));
}

static void lps001wp_test_ctrl3(struct kunit *test)
{
	struct lps001wp_data *data;

	data = kunit_kzalloc(test, sizeof(*data), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, data);
	KUNIT_EXPECT_EQ(test, lps001wp_ctrl3(data), 0x00);
	data->events_enabled = LPS001WP_INT_PL;
	KUNIT_EXPECT_EQ(test, lps001wp_ctrl3(data), 0x03);
	/* one pad, both: data ready wins, the latch is read per sample */
	data->drdy_enabled = true;
	KUNIT_EXPECT_EQ(test, lps001wp_ctrl3(data), 0x04);
	data->irq_active_low = true;
	KUNIT_EXPECT_EQ(test, lps001wp_ctrl3(data), 0x84);
	data->irq_open_drain = true;
	data->drdy_enabled = false;
	KUNIT_EXPECT_EQ(test, lps001wp_ctrl3(data), 0xc3);
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
		if (cfg->readable_reg(NULL, reg))
			got |= R;
		if (cfg->writeable_reg(NULL, reg))
			got |= W;
		if (cfg->readable_reg(NULL, reg) && cfg->volatile_reg(NULL, reg))
			got |= V;
		if (cfg->readable_reg(NULL, reg) && cfg->precious_reg(NULL, reg))
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
	KUNIT_EXPECT_EQ(test, offsetof(struct lps001wp_burst, out[ch[0].scan_index]), 0x28 - 0x27);
	KUNIT_EXPECT_EQ(test, ch[1].type, IIO_TEMP);
	KUNIT_EXPECT_EQ(test, ch[1].scan_type.sign, 's');
	KUNIT_EXPECT_EQ(test, offsetof(struct lps001wp_burst, out[ch[1].scan_index]), 0x2a - 0x27);
	KUNIT_EXPECT_EQ(test, ch[2].type, IIO_PRESSURE);
	KUNIT_EXPECT_EQ(test, ch[2].scan_type.sign, 's');
	KUNIT_EXPECT_TRUE(test, ch[2].indexed);
	KUNIT_EXPECT_EQ(test, ch[2].channel, 1);
	KUNIT_EXPECT_EQ(test, offsetof(struct lps001wp_burst, out[ch[2].scan_index]), 0x2c - 0x27);
	KUNIT_EXPECT_EQ(test, ch[2].num_event_specs, 3);
	KUNIT_EXPECT_EQ(test, ch[2].event_spec[2].dir, IIO_EV_DIR_EITHER);
}

static struct kunit_case lps001wp_test_cases[] = {
	KUNIT_CASE(lps001wp_test_odr),
	KUNIT_CASE(lps001wp_test_delta_sign),
	KUNIT_CASE(lps001wp_test_event_direction),
	KUNIT_CASE(lps001wp_test_ctrl3),
	KUNIT_CASE(lps001wp_test_register_access),
	KUNIT_CASE(lps001wp_test_scan_layout),
	{ }
};

static struct kunit_suite lps001wp_test_suite = {
	.name = "lps001wp",
	.test_cases = lps001wp_test_cases,
};

kunit_test_suite(lps001wp_test_suite);
