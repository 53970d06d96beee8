// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite lps001wp_sim_model, the register model alone. It drives the
 * model the way the I2C glue does (SUB byte, then data bytes) and checks
 * values that a model with the matching bug would get wrong.
 */

#include <kunit/test.h>
#include <linux/slab.h>

#include "lps001wp_sim.h"

static struct lps_model *new_model(struct kunit *test)
{
	struct lps_model *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, m);
	lps_model_init(m);
	return m;
}

/* One I2C read transaction: SUB, repeated start, @n data bytes. */
static void bus_read(struct lps_model *m, u8 sub, u8 *buf, unsigned int n)
{
	u8 reg;

	lps_model_set_sub(m, sub);
	while (n--)
		*buf++ = lps_model_read_next(m, &reg);
}

static u8 bus_read1(struct lps_model *m, u8 reg)
{
	u8 val;

	bus_read(m, reg, &val, 1);
	return val;
}

static void bus_write(struct lps_model *m, u8 sub, const u8 *buf,
		      unsigned int n)
{
	lps_model_set_sub(m, sub);
	while (n--)
		lps_model_write_next(m, *buf++);
}

static void bus_write1(struct lps_model *m, u8 reg, u8 val)
{
	bus_write(m, reg, &val, 1);
}

static void power_up(struct lps_model *m, u8 extra)
{
	bus_write1(m, LPS_REG_CTRL1, LPS_CTRL1_PD | extra);
}

static void test_who_am_i(struct kunit *test)
{
	struct lps_model *m = new_model(test);

	KUNIT_EXPECT_EQ(test, bus_read1(m, LPS_REG_WHO_AM_I), 0xba);
	/* mainline reads it with the auto-increment flag */
	KUNIT_EXPECT_EQ(test, bus_read1(m, 0x8f), 0xba);
	bus_write1(m, LPS_REG_WHO_AM_I, 0x00);
	KUNIT_EXPECT_EQ(test, bus_read1(m, LPS_REG_WHO_AM_I), 0xba);
}

static void test_reset_values(struct kunit *test)
{
	struct lps_model *m = new_model(test);
	unsigned int reg;

	for (reg = 0; reg < LPS_NUM_ADDRS; reg++)
		if (reg != LPS_REG_WHO_AM_I)
			KUNIT_EXPECT_EQ_MSG(test, lps_model_peek(m, reg), 0,
					    "reg 0x%02x", reg);
	KUNIT_EXPECT_FALSE(test, lps_model_powered(m));
}

static void test_autoinc_read(struct kunit *test)
{
	static const u8 ctrl[] = { 0x14, 0x01, 0x22 };
	struct lps_model *m = new_model(test);
	u8 buf[4];

	bus_write(m, LPS_SUB_AUTOINC | LPS_REG_CTRL1, ctrl, 3);
	bus_read(m, LPS_SUB_AUTOINC | LPS_REG_CTRL1, buf, 4);
	KUNIT_EXPECT_EQ(test, buf[0], 0x14);
	KUNIT_EXPECT_EQ(test, buf[1], 0x01);
	KUNIT_EXPECT_EQ(test, buf[2], 0x22);
	KUNIT_EXPECT_EQ(test, buf[3], 0x00);	/* reserved 0x23 */
}

static void test_repeat_without_autoinc(struct kunit *test)
{
	static const u8 ctrl[] = { 0x14, 0x01, 0x22 };
	struct lps_model *m = new_model(test);
	u8 buf[3];

	bus_write(m, LPS_SUB_AUTOINC | LPS_REG_CTRL1, ctrl, 3);
	bus_read(m, LPS_REG_CTRL1, buf, 3);
	KUNIT_EXPECT_EQ(test, buf[0], 0x14);
	KUNIT_EXPECT_EQ(test, buf[1], 0x14);
	KUNIT_EXPECT_EQ(test, buf[2], 0x14);

	/* a write without the flag lands on one register, last byte wins */
	bus_write(m, LPS_REG_REF_L, (const u8[]){ 0x11, 0x22 }, 2);
	KUNIT_EXPECT_EQ(test, m->ref, 0x0022);
	KUNIT_EXPECT_EQ(test, m->writes[LPS_REG_REF_L], 2);
	KUNIT_EXPECT_EQ(test, m->writes[LPS_REG_REF_H], 0);
}

static void test_autoinc_write(struct kunit *test)
{
	static const u8 v[] = { 0x34, 0x12, 0x78, 0x56 };
	struct lps_model *m = new_model(test);

	bus_write(m, LPS_SUB_AUTOINC | LPS_REG_REF_L, v, 4);
	KUNIT_EXPECT_EQ(test, m->ref, 0x1234);
	KUNIT_EXPECT_EQ(test, m->ths, 0x5678);
}

static void test_wrap(struct kunit *test)
{
	struct lps_model *m = new_model(test);
	u8 buf[3];

	lps_model_poke(m, 0x7f, 0x11);
	lps_model_poke(m, 0x00, 0x22);
	lps_model_poke(m, 0x01, 0x33);
	bus_read(m, LPS_SUB_AUTOINC | 0x7f, buf, 3);
	KUNIT_EXPECT_EQ(test, buf[0], 0x11);
	KUNIT_EXPECT_EQ(test, buf[1], 0x22);
	KUNIT_EXPECT_EQ(test, buf[2], 0x33);
	KUNIT_EXPECT_EQ(test, m->ptr, 0x02);
	KUNIT_EXPECT_EQ(test, m->reads[0x7f], 1);
	KUNIT_EXPECT_EQ(test, m->reads[0x00], 1);
}

static void test_reserved(struct kunit *test)
{
	static const u8 rsv[] = { 0x00, 0x0e, 0x10, 0x1f, 0x23, 0x26, 0x2e,
				  0x2f, 0x37, 0x3f, 0x40, 0x7f };
	struct lps_model *m = new_model(test);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rsv); i++) {
		bus_write1(m, rsv[i], 0x5a);
		KUNIT_EXPECT_EQ_MSG(test, bus_read1(m, rsv[i]), 0,
				    "reg 0x%02x", rsv[i]);
		KUNIT_EXPECT_EQ(test, m->writes[rsv[i]], 1);
	}
	/* and a burst over reserved space does not spill into neighbours */
	bus_write(m, LPS_SUB_AUTOINC | 0x23, (const u8[]){ 1, 2, 3, 4, 5 }, 5);
	KUNIT_EXPECT_EQ(test, bus_read1(m, LPS_REG_STATUS), 0);
}

static void test_read_only(struct kunit *test)
{
	static const u8 ro[] = { LPS_REG_STATUS, LPS_REG_PRESS_L,
				 LPS_REG_PRESS_H, LPS_REG_TEMP_L,
				 LPS_REG_TEMP_H, LPS_REG_DELTA_L,
				 LPS_REG_DELTA_H, LPS_REG_INT_SRC,
				 LPS_REG_INT_ACK };
	struct lps_model *m = new_model(test);
	u8 before[ARRAY_SIZE(ro)];
	unsigned int i;

	power_up(m, LPS_CTRL1_DIFF_EN);
	lps_model_tick(m);
	for (i = 0; i < ARRAY_SIZE(ro); i++)
		before[i] = lps_model_peek(m, ro[i]);
	KUNIT_EXPECT_EQ(test, before[1], 16212 & 0xff);
	for (i = 0; i < ARRAY_SIZE(ro); i++)
		bus_write1(m, ro[i], ~before[i]);
	for (i = 0; i < ARRAY_SIZE(ro); i++)
		KUNIT_EXPECT_EQ_MSG(test, lps_model_peek(m, ro[i]), before[i],
				    "reg 0x%02x", ro[i]);
}

static void test_peek_no_side_effects(struct kunit *test)
{
	struct lps_model *m = new_model(test);

	power_up(m, 0);
	lps_model_tick(m);
	KUNIT_EXPECT_EQ(test, lps_model_peek(m, LPS_REG_PRESS_H), 16212 >> 8);
	KUNIT_EXPECT_EQ(test, m->status & LPS_STATUS_P_DA, LPS_STATUS_P_DA);
	KUNIT_EXPECT_EQ(test, m->reads[LPS_REG_PRESS_H], 0);
	bus_read1(m, LPS_REG_PRESS_H);
	KUNIT_EXPECT_EQ(test, m->status & LPS_STATUS_P_DA, 0);
	KUNIT_EXPECT_EQ(test, m->reads[LPS_REG_PRESS_H], 1);
}

static void test_pd_gates_samples(struct kunit *test)
{
	struct lps_model *m = new_model(test);

	KUNIT_EXPECT_FALSE(test, lps_model_tick(m));
	KUNIT_EXPECT_EQ(test, m->samples, 0);
	KUNIT_EXPECT_EQ(test, bus_read1(m, LPS_REG_STATUS), 0);
	KUNIT_EXPECT_EQ(test, bus_read1(m, LPS_REG_PRESS_L), 0);

	/* DR = 01: pressure and temperature every period */
	power_up(m, 1 << LPS_CTRL1_DR_SHIFT);
	KUNIT_EXPECT_EQ(test, m->power_ups, 1);
	KUNIT_EXPECT_TRUE(test, lps_model_tick(m));
	KUNIT_EXPECT_EQ(test, m->samples, 1);
	KUNIT_EXPECT_EQ(test, lps_model_peek(m, LPS_REG_STATUS),
			LPS_STATUS_P_DA | LPS_STATUS_T_DA);
	KUNIT_EXPECT_EQ(test, m->pair[LPS_PAIR_PRESS].out, 16212);
	KUNIT_EXPECT_EQ(test, m->pair[LPS_PAIR_TEMP].out, 1600);

	/* power down: outputs kept, nothing new */
	lps_model_set_stimulus(m, LPS_STIM_CONST, 5000, 0, -5, 0);
	bus_write1(m, LPS_REG_CTRL1, 0);
	KUNIT_EXPECT_FALSE(test, lps_model_tick(m));
	KUNIT_EXPECT_EQ(test, m->samples, 1);
	KUNIT_EXPECT_EQ(test, m->pair[LPS_PAIR_PRESS].out, 16212);

	/* rewriting PD = 1 is not a second power-up */
	power_up(m, 0);
	power_up(m, 0);
	KUNIT_EXPECT_EQ(test, m->power_ups, 2);
}

static void test_da_cleared_by_high_byte(struct kunit *test)
{
	struct lps_model *m = new_model(test);

	power_up(m, 1 << LPS_CTRL1_DR_SHIFT);
	lps_model_tick(m);
	bus_read1(m, LPS_REG_PRESS_L);
	KUNIT_EXPECT_EQ(test, bus_read1(m, LPS_REG_STATUS),
			LPS_STATUS_P_DA | LPS_STATUS_T_DA);
	bus_read1(m, LPS_REG_PRESS_H);
	KUNIT_EXPECT_EQ(test, bus_read1(m, LPS_REG_STATUS), LPS_STATUS_T_DA);
	bus_read1(m, LPS_REG_TEMP_L);
	KUNIT_EXPECT_EQ(test, bus_read1(m, LPS_REG_STATUS), LPS_STATUS_T_DA);
	bus_read1(m, LPS_REG_TEMP_H);
	KUNIT_EXPECT_EQ(test, bus_read1(m, LPS_REG_STATUS), 0);
}

static void test_overrun(struct kunit *test)
{
	struct lps_model *m = new_model(test);
	u8 buf[4];

	power_up(m, 1 << LPS_CTRL1_DR_SHIFT);
	lps_model_tick(m);
	KUNIT_EXPECT_EQ(test, lps_model_peek(m, LPS_REG_STATUS), 0x03);
	lps_model_tick(m);
	KUNIT_EXPECT_EQ(test, lps_model_peek(m, LPS_REG_STATUS), 0x33);
	/* one burst of P and T clears DA and OR of both */
	bus_read(m, LPS_SUB_AUTOINC | LPS_REG_PRESS_L, buf, 4);
	KUNIT_EXPECT_EQ(test, lps_model_peek(m, LPS_REG_STATUS), 0x00);
	lps_model_tick(m);
	KUNIT_EXPECT_EQ(test, lps_model_peek(m, LPS_REG_STATUS), 0x03);
}

static void test_bdu_holds_pair(struct kunit *test)
{
	struct lps_model *m = new_model(test);
	u8 lo, hi;

	lps_model_set_stimulus(m, LPS_STIM_COUNTER, 0x01ff, 0, 0x00ff, 0);
	power_up(m, LPS_CTRL1_BDU | 1 << LPS_CTRL1_DR_SHIFT);
	lps_model_tick(m);			/* 0x01ff */
	lo = bus_read1(m, LPS_REG_PRESS_L);
	lps_model_tick(m);			/* 0x0200 arrives */
	hi = bus_read1(m, LPS_REG_PRESS_H);
	KUNIT_EXPECT_EQ(test, hi << 8 | lo, 0x01ff);
	/* the held-back sample is now visible and unread */
	KUNIT_EXPECT_EQ(test, m->status & (LPS_STATUS_P_DA | LPS_STATUS_P_OR),
			LPS_STATUS_P_DA);
	lo = bus_read1(m, LPS_REG_PRESS_L);
	hi = bus_read1(m, LPS_REG_PRESS_H);
	KUNIT_EXPECT_EQ(test, hi << 8 | lo, 0x0200);

	/* H first works too, and the temperature pair is independent */
	lps_model_tick(m);			/* P 0x0201, T 0x0101 */
	hi = bus_read1(m, LPS_REG_TEMP_H);	/* T 0x0101 held */
	lps_model_tick(m);			/* P 0x0202, T 0x0102 pending */
	KUNIT_EXPECT_EQ(test, m->pair[LPS_PAIR_PRESS].out, 0x0202);
	lo = bus_read1(m, LPS_REG_TEMP_L);
	KUNIT_EXPECT_EQ(test, hi << 8 | lo, 0x0101);
	KUNIT_EXPECT_EQ(test, m->pair[LPS_PAIR_TEMP].out, 0x0102);
}

static void test_no_bdu_tears(struct kunit *test)
{
	struct lps_model *m = new_model(test);
	u8 lo, hi;

	lps_model_set_stimulus(m, LPS_STIM_COUNTER, 0x01ff, 0, 0, 0);
	power_up(m, 1 << LPS_CTRL1_DR_SHIFT);
	lps_model_tick(m);
	lo = bus_read1(m, LPS_REG_PRESS_L);
	lps_model_tick(m);
	hi = bus_read1(m, LPS_REG_PRESS_H);
	KUNIT_EXPECT_EQ(test, hi << 8 | lo, 0x02ff);
}

static void test_bdu_clear_releases(struct kunit *test)
{
	struct lps_model *m = new_model(test);

	lps_model_set_stimulus(m, LPS_STIM_COUNTER, 100, 0, 0, 0);
	power_up(m, LPS_CTRL1_BDU);
	lps_model_tick(m);
	bus_read1(m, LPS_REG_PRESS_L);
	lps_model_tick(m);
	KUNIT_EXPECT_EQ(test, m->pair[LPS_PAIR_PRESS].out, 100);
	power_up(m, 0);
	KUNIT_EXPECT_EQ(test, m->pair[LPS_PAIR_PRESS].out, 101);
	KUNIT_EXPECT_FALSE(test, m->pair[LPS_PAIR_PRESS].held);
}

static u16 delta_of(struct lps_model *m)
{
	u8 buf[2];

	bus_read(m, LPS_SUB_AUTOINC | LPS_REG_DELTA_L, buf, 2);
	return buf[1] << 8 | buf[0];
}

static void test_delta_sign(struct kunit *test)
{
	struct lps_model *m = new_model(test);

	bus_write(m, LPS_SUB_AUTOINC | LPS_REG_REF_L,
		  (const u8[]){ 16000 & 0xff, 16000 >> 8 }, 2);
	power_up(m, LPS_CTRL1_DIFF_EN);
	lps_model_tick(m);				/* P = 16212 */
	KUNIT_EXPECT_EQ(test, (s16)delta_of(m), -212);

	m->var.v[LPS_VAR_DELTA] = LPS_DELTA_P_MINUS_REF;
	lps_model_tick(m);
	KUNIT_EXPECT_EQ(test, (s16)delta_of(m), 212);

	/* DIFF_EN clear: DELTA holds although P and REF move */
	power_up(m, 0);
	bus_write1(m, LPS_REG_REF_H, 0);
	lps_model_set_stimulus(m, LPS_STIM_CONST, 9, 0, 0, 0);
	lps_model_tick(m);
	KUNIT_EXPECT_EQ(test, (s16)delta_of(m), 212);
	KUNIT_EXPECT_EQ(test, m->pair[LPS_PAIR_PRESS].out, 9);
}

static void set_ref_ths(struct lps_model *m, u16 ref, u16 ths)
{
	u8 v[4] = { ref & 0xff, ref >> 8, ths & 0xff, ths >> 8 };

	bus_write(m, LPS_SUB_AUTOINC | LPS_REG_REF_L, v, 4);
}

static u8 src_after(struct lps_model *m, u16 press)
{
	lps_model_set_stimulus(m, LPS_STIM_CONST, press, 0, 0, 0);
	lps_model_tick(m);
	return bus_read1(m, LPS_REG_INT_SRC);
}

static void test_threshold_compare(struct kunit *test)
{
	struct lps_model *m = new_model(test);

	set_ref_ths(m, 16200, 12);
	bus_write1(m, LPS_REG_INT_CFG, LPS_INT_CFG_PH_E | LPS_INT_CFG_PL_E);
	power_up(m, LPS_CTRL1_DIFF_EN);

	KUNIT_EXPECT_EQ(test, src_after(m, 16212), 0);	/* +12: not > 12 */
	KUNIT_EXPECT_EQ(test, src_after(m, 16213),
			LPS_INT_SRC_IA | LPS_INT_SRC_PH);
	KUNIT_EXPECT_EQ(test, src_after(m, 16188), 0);	/* -12 */
	KUNIT_EXPECT_EQ(test, src_after(m, 16187),
			LPS_INT_SRC_IA | LPS_INT_SRC_PL);
	/* LIR = 0: flags follow the latest comparison */
	KUNIT_EXPECT_EQ(test, src_after(m, 16200), 0);

	/* only enabled events show */
	bus_write1(m, LPS_REG_INT_CFG, LPS_INT_CFG_PL_E);
	KUNIT_EXPECT_EQ(test, src_after(m, 20000), 0);
	KUNIT_EXPECT_EQ(test, src_after(m, 100),
			LPS_INT_SRC_IA | LPS_INT_SRC_PL);

	/* comparator off without DIFF_EN */
	power_up(m, 0);
	KUNIT_EXPECT_EQ(test, src_after(m, 100), 0);
}

static void test_lir_latch(struct kunit *test)
{
	struct lps_model *m = new_model(test);

	set_ref_ths(m, 16200, 0);
	bus_write1(m, LPS_REG_INT_CFG, LPS_INT_CFG_LIR | LPS_INT_CFG_PH_E |
		   LPS_INT_CFG_PL_E);
	power_up(m, LPS_CTRL1_DIFF_EN);

	KUNIT_EXPECT_EQ(test, src_after(m, 16300),
			LPS_INT_SRC_IA | LPS_INT_SRC_PH);
	/* back in band: still latched, and reading INT_SRC clears nothing */
	KUNIT_EXPECT_EQ(test, src_after(m, 16200),
			LPS_INT_SRC_IA | LPS_INT_SRC_PH);
	KUNIT_EXPECT_EQ(test, src_after(m, 16100),
			LPS_INT_SRC_IA | LPS_INT_SRC_PH | LPS_INT_SRC_PL);
	KUNIT_EXPECT_EQ(test, bus_read1(m, LPS_REG_INT_ACK), 0);
	KUNIT_EXPECT_EQ(test, bus_read1(m, LPS_REG_INT_SRC), 0);
	/* the next event latches again */
	KUNIT_EXPECT_EQ(test, src_after(m, 16100),
			LPS_INT_SRC_IA | LPS_INT_SRC_PL);
}

static void test_pad_routing(struct kunit *test)
{
	struct lps_model *m = new_model(test);

	set_ref_ths(m, 16200, 0);
	bus_write1(m, LPS_REG_INT_CFG, LPS_INT_CFG_PH_E | LPS_INT_CFG_PL_E);
	power_up(m, LPS_CTRL1_DIFF_EN | 1 << LPS_CTRL1_DR_SHIFT);
	src_after(m, 16300);		/* PH, P_DA and T_DA set */

	bus_write1(m, LPS_REG_CTRL3, LPS_PAD_CFG_PH |
		   LPS_PAD_CFG_PL << LPS_CTRL3_INT2_SHIFT);
	KUNIT_EXPECT_EQ(test, lps_model_pad_level(m, 0), 1);
	KUNIT_EXPECT_EQ(test, lps_model_pad_level(m, 1), 0);
	bus_write1(m, LPS_REG_CTRL3, LPS_PAD_CFG_PHPL |
		   LPS_PAD_CFG_HIZ << LPS_CTRL3_INT2_SHIFT);
	KUNIT_EXPECT_EQ(test, lps_model_pad_level(m, 0), 1);
	KUNIT_EXPECT_EQ(test, lps_model_pad_level(m, 1), LPS_PAD_HIZ);

	/* INT_H_L inverts every driven code, GND included */
	bus_write1(m, LPS_REG_CTRL3, LPS_CTRL3_INT_H_L | LPS_PAD_CFG_PH |
		   LPS_PAD_CFG_GND << LPS_CTRL3_INT2_SHIFT);
	KUNIT_EXPECT_EQ(test, lps_model_pad_level(m, 0), 0);
	KUNIT_EXPECT_EQ(test, lps_model_pad_level(m, 1), 1);
	bus_write1(m, LPS_REG_CTRL3, LPS_PAD_CFG_GND);
	KUNIT_EXPECT_EQ(test, lps_model_pad_level(m, 0), 0);

	/* DRDY follows P_DA, not T_DA; open drain does not change levels */
	bus_write1(m, LPS_REG_CTRL3, LPS_CTRL3_PP_OD |
		   LPS_PAD_CFG_DRDY << LPS_CTRL3_INT2_SHIFT);
	KUNIT_EXPECT_EQ(test, lps_model_pad_level(m, 1), 1);
	bus_read1(m, LPS_REG_PRESS_H);
	KUNIT_EXPECT_EQ(test, lps_model_pad_level(m, 1), 0);
	KUNIT_EXPECT_EQ(test, m->status & LPS_STATUS_T_DA, LPS_STATUS_T_DA);
	bus_write1(m, LPS_REG_CTRL3, LPS_CTRL3_INT_H_L |
		   LPS_PAD_CFG_DRDY << LPS_CTRL3_INT2_SHIFT);
	KUNIT_EXPECT_EQ(test, lps_model_pad_level(m, 1), 1);
	lps_model_tick(m);
	KUNIT_EXPECT_EQ(test, lps_model_pad_level(m, 1), 0);
}

static void test_dr_periods(struct kunit *test)
{
	struct lps_model *m = new_model(test);
	unsigned int i;

	KUNIT_EXPECT_EQ(test, lps_model_period_ns(m, LPS_DR_P7_T1),
			142857142ULL);
	KUNIT_EXPECT_EQ(test, lps_model_period_ns(m, LPS_DR_P7_T7),
			142857142ULL);
	KUNIT_EXPECT_EQ(test, lps_model_period_ns(m, LPS_DR_RESERVED),
			142857142ULL);
	KUNIT_EXPECT_EQ(test, lps_model_period_ns(m, LPS_DR_P12_T12),
			80000000ULL);
	KUNIT_EXPECT_EQ(test, lps_model_t_divider(m, LPS_DR_P7_T1), 7);
	KUNIT_EXPECT_EQ(test, lps_model_t_divider(m, LPS_DR_P7_T7), 1);
	KUNIT_EXPECT_EQ(test, lps_model_t_divider(m, LPS_DR_RESERVED), 1);

	/* DR = 00: temperature on every 7th pressure sample only */
	power_up(m, 0);
	KUNIT_EXPECT_EQ(test, lps_model_dr(m), LPS_DR_P7_T1);
	for (i = 0; i < 6; i++)
		lps_model_tick(m);
	KUNIT_EXPECT_EQ(test, m->samples, 6);
	KUNIT_EXPECT_EQ(test, m->t_samples, 0);
	KUNIT_EXPECT_EQ(test, m->status & LPS_STATUS_T_DA, 0);
	lps_model_tick(m);
	KUNIT_EXPECT_EQ(test, m->t_samples, 1);
	KUNIT_EXPECT_EQ(test, m->status & LPS_STATUS_T_DA, LPS_STATUS_T_DA);

	/* a DR change restarts the divider */
	for (i = 0; i < 3; i++)
		lps_model_tick(m);
	power_up(m, 3 << LPS_CTRL1_DR_SHIFT);
	KUNIT_EXPECT_EQ(test, lps_model_dr(m), LPS_DR_P12_T12);
	lps_model_tick(m);
	lps_model_tick(m);
	KUNIT_EXPECT_EQ(test, m->t_samples, 3);
	power_up(m, 0);
	for (i = 0; i < 5; i++)
		lps_model_tick(m);
	KUNIT_EXPECT_EQ(test, m->t_samples, 3);
	lps_model_tick(m);
	lps_model_tick(m);
	KUNIT_EXPECT_EQ(test, m->t_samples, 4);
}

static void test_stimulus(struct kunit *test)
{
	struct lps_model *m = new_model(test);

	KUNIT_EXPECT_EQ(test, m->stim.mode, LPS_STIM_CONST);
	power_up(m, 1 << LPS_CTRL1_DR_SHIFT);

	lps_model_set_stimulus(m, LPS_STIM_RAMP, 1000, -3, -10, 2);
	lps_model_tick(m);
	KUNIT_EXPECT_EQ(test, m->pair[LPS_PAIR_PRESS].out, 1000);
	KUNIT_EXPECT_EQ(test, (s16)m->pair[LPS_PAIR_TEMP].out, -10);
	lps_model_tick(m);
	lps_model_tick(m);
	KUNIT_EXPECT_EQ(test, m->pair[LPS_PAIR_PRESS].out, 994);
	KUNIT_EXPECT_EQ(test, (s16)m->pair[LPS_PAIR_TEMP].out, -6);
	KUNIT_EXPECT_EQ(test, bus_read1(m, LPS_REG_TEMP_H), 0xff);

	/* counter restarts at n = 0 and wraps at 16 bits */
	lps_model_set_stimulus(m, LPS_STIM_COUNTER, 65535, 0, 7, 0);
	lps_model_tick(m);
	KUNIT_EXPECT_EQ(test, m->pair[LPS_PAIR_PRESS].out, 65535);
	KUNIT_EXPECT_EQ(test, m->pair[LPS_PAIR_TEMP].out, 7);
	lps_model_tick(m);
	KUNIT_EXPECT_EQ(test, m->pair[LPS_PAIR_PRESS].out, 0);
	KUNIT_EXPECT_EQ(test, m->pair[LPS_PAIR_TEMP].out, 8);

	lps_model_set_stimulus(m, LPS_STIM_CONST, 4800, 0, -2560, 0);
	lps_model_tick(m);
	lps_model_tick(m);
	KUNIT_EXPECT_EQ(test, m->pair[LPS_PAIR_PRESS].out, 4800);
	KUNIT_EXPECT_EQ(test, m->pair[LPS_PAIR_TEMP].out, 0xf600);
}

static void test_boot_self_clears(struct kunit *test)
{
	struct lps_model *m = new_model(test);

	bus_write1(m, LPS_REG_REF_L, 0x42);
	bus_write1(m, LPS_REG_CTRL2, LPS_CTRL2_BOOT);
	KUNIT_EXPECT_EQ(test, bus_read1(m, LPS_REG_CTRL2), LPS_CTRL2_BOOT);
	lps_model_boot_done(m);
	KUNIT_EXPECT_EQ(test, bus_read1(m, LPS_REG_CTRL2), 0);
	KUNIT_EXPECT_EQ(test, bus_read1(m, LPS_REG_REF_L), 0x42);
}

/*
 * Variant switches (struct lps_variant). Each case checks a value that the
 * default model gets otherwise, so a switch the model ignored fails it.
 */
static void test_var_parse(struct kunit *test)
{
	struct lps_variant var = { };

	KUNIT_EXPECT_EQ(test, lps_variant_parse(&var, "dr01=1"), 0);
	KUNIT_EXPECT_EQ(test, var.v[LPS_VAR_DR01], LPS_DR01_1HZ);
	KUNIT_EXPECT_EQ(test, lps_variant_parse(&var, "dr10=12.5"), 0);
	KUNIT_EXPECT_EQ(test, var.v[LPS_VAR_DR10], LPS_DR10_12HZ5);
	KUNIT_EXPECT_EQ(test, lps_variant_parse(&var, "int2=absent"), 0);
	KUNIT_EXPECT_EQ(test, var.v[LPS_VAR_INT2], LPS_INT2_ABSENT);
	KUNIT_EXPECT_EQ(test, lps_variant_parse(&var, "dr01=7"), 0);
	KUNIT_EXPECT_EQ(test, var.v[LPS_VAR_DR01], LPS_DR01_7HZ);
	/* unknown key or value, prefix of a key, no '=': refused, unchanged */
	KUNIT_EXPECT_EQ(test, lps_variant_parse(&var, "dr10=2"), -EINVAL);
	KUNIT_EXPECT_EQ(test, lps_variant_parse(&var, "dr=1"), -EINVAL);
	KUNIT_EXPECT_EQ(test, lps_variant_parse(&var, "dr011=1"), -EINVAL);
	KUNIT_EXPECT_EQ(test, lps_variant_parse(&var, "bdu"), -EINVAL);
	KUNIT_EXPECT_EQ(test, var.v[LPS_VAR_DR10], LPS_DR10_12HZ5);
	KUNIT_EXPECT_STREQ(test, lps_var_names[LPS_VAR_LIR][0], "lir");
}

static void test_var_dr_rates(struct kunit *test)
{
	struct lps_model *m = new_model(test);

	m->var.v[LPS_VAR_DR01] = LPS_DR01_1HZ;
	KUNIT_EXPECT_EQ(test, lps_model_period_ns(m, LPS_DR_P7_T7),
			1000000000ULL);
	KUNIT_EXPECT_EQ(test, lps_model_t_divider(m, LPS_DR_P7_T7), 1);
	/* 00 and 11 are not affected, and 10 keeps its own setting */
	KUNIT_EXPECT_EQ(test, lps_model_period_ns(m, LPS_DR_P7_T1),
			142857142ULL);
	KUNIT_EXPECT_EQ(test, lps_model_period_ns(m, LPS_DR_RESERVED),
			142857142ULL);

	m->var.v[LPS_VAR_DR10] = LPS_DR10_12HZ5;
	KUNIT_EXPECT_EQ(test, lps_model_period_ns(m, LPS_DR_RESERVED),
			80000000ULL);
	m->var.v[LPS_VAR_DR10] = LPS_DR10_1HZ;
	KUNIT_EXPECT_EQ(test, lps_model_period_ns(m, LPS_DR_RESERVED),
			1000000000ULL);
	KUNIT_EXPECT_EQ(test, lps_model_t_divider(m, LPS_DR_RESERVED), 1);
	KUNIT_EXPECT_EQ(test, lps_model_period_ns(m, LPS_DR_P12_T12),
			80000000ULL);
}

static void test_var_da_cleared_by_status(struct kunit *test)
{
	struct lps_model *m = new_model(test);
	u8 buf[4];

	m->var.v[LPS_VAR_DA_CLEAR] = LPS_DA_CLEAR_STATUS;
	power_up(m, 1 << LPS_CTRL1_DR_SHIFT);
	lps_model_tick(m);
	lps_model_tick(m);
	/* the outputs clear nothing */
	bus_read(m, LPS_SUB_AUTOINC | LPS_REG_PRESS_L, buf, 4);
	KUNIT_EXPECT_EQ(test, lps_model_peek(m, LPS_REG_STATUS), 0x33);
	/* STATUS shows its bits once, then they are gone */
	KUNIT_EXPECT_EQ(test, bus_read1(m, LPS_REG_STATUS), 0x33);
	KUNIT_EXPECT_EQ(test, bus_read1(m, LPS_REG_STATUS), 0x00);
	lps_model_tick(m);
	KUNIT_EXPECT_EQ(test, bus_read1(m, LPS_REG_STATUS), 0x03);
}

static void test_var_bdu_block(struct kunit *test)
{
	struct lps_model *m = new_model(test);
	u8 lo, hi, t[2];

	m->var.v[LPS_VAR_BDU] = LPS_BDU_BLOCK;
	lps_model_set_stimulus(m, LPS_STIM_COUNTER, 0x01ff, 0, 0x00ff, 0);
	power_up(m, LPS_CTRL1_BDU | 1 << LPS_CTRL1_DR_SHIFT);
	lps_model_tick(m);			/* P 0x01ff, T 0x00ff */
	lo = bus_read1(m, LPS_REG_PRESS_L);	/* holds the whole block */
	lps_model_tick(m);			/* P 0x0200, T 0x0100 pending */
	/* per pair, T would be the new 0x0100 here */
	bus_read(m, LPS_SUB_AUTOINC | LPS_REG_TEMP_L, t, 2);
	KUNIT_EXPECT_EQ(test, t[1] << 8 | t[0], 0x00ff);
	/* T complete, P not: still held */
	KUNIT_EXPECT_EQ(test, m->pair[LPS_PAIR_TEMP].out, 0x00ff);
	hi = bus_read1(m, LPS_REG_PRESS_H);
	KUNIT_EXPECT_EQ(test, hi << 8 | lo, 0x01ff);
	/* P complete too: both pairs released */
	KUNIT_EXPECT_EQ(test, m->pair[LPS_PAIR_PRESS].out, 0x0200);
	KUNIT_EXPECT_EQ(test, m->pair[LPS_PAIR_TEMP].out, 0x0100);
	KUNIT_EXPECT_FALSE(test, m->block_held);
}

static void test_var_drdy_pulse(struct kunit *test)
{
	struct lps_model *m = new_model(test);

	m->var.v[LPS_VAR_DRDY] = LPS_DRDY_PULSE;
	bus_write1(m, LPS_REG_CTRL3, LPS_PAD_CFG_DRDY |
		   LPS_PAD_CFG_PH << LPS_CTRL3_INT2_SHIFT);
	power_up(m, 0);
	lps_model_tick(m);
	/* P_DA is set, yet the pad idles: level DRDY would read 1 */
	KUNIT_EXPECT_EQ(test, m->status & LPS_STATUS_P_DA, LPS_STATUS_P_DA);
	KUNIT_EXPECT_EQ(test, lps_model_pad_level(m, 0), 0);
	KUNIT_EXPECT_TRUE(test, lps_model_pad_pulses(m, 0));
	KUNIT_EXPECT_FALSE(test, lps_model_pad_pulses(m, 1));
	KUNIT_EXPECT_TRUE(test, lps_model_take_pulse(m));
	KUNIT_EXPECT_FALSE(test, lps_model_take_pulse(m));
	lps_model_tick(m);
	KUNIT_EXPECT_TRUE(test, lps_model_take_pulse(m));

	m->var.v[LPS_VAR_DRDY] = LPS_DRDY_LEVEL;
	KUNIT_EXPECT_EQ(test, lps_model_pad_level(m, 0), 1);
	KUNIT_EXPECT_FALSE(test, lps_model_pad_pulses(m, 0));
}

static void test_var_first_sample_garbage(struct kunit *test)
{
	struct lps_model *m = new_model(test);

	m->var.v[LPS_VAR_FIRST_SAMPLE] = LPS_FIRST_GARBAGE;
	lps_model_set_stimulus(m, LPS_STIM_COUNTER, 16000, 0, 1600, 0);
	power_up(m, 0);			/* DR 00: T on the 7th sample */
	lps_model_tick(m);
	KUNIT_EXPECT_EQ(test, m->pair[LPS_PAIR_PRESS].out, LPS_GARBAGE_P);
	lps_model_tick(m);
	KUNIT_EXPECT_EQ(test, m->pair[LPS_PAIR_PRESS].out, 16001);
	while (m->t_samples < 1)
		lps_model_tick(m);
	KUNIT_EXPECT_EQ(test, m->pair[LPS_PAIR_TEMP].out, LPS_GARBAGE_T);
	while (m->t_samples < 2)
		lps_model_tick(m);
	KUNIT_EXPECT_EQ(test, m->pair[LPS_PAIR_TEMP].out, 1601);

	/* every power-up, not a DR change */
	power_up(m, 3 << LPS_CTRL1_DR_SHIFT);
	lps_model_tick(m);
	KUNIT_EXPECT_NE(test, m->pair[LPS_PAIR_PRESS].out, LPS_GARBAGE_P);
	bus_write1(m, LPS_REG_CTRL1, 0);
	power_up(m, 3 << LPS_CTRL1_DR_SHIFT);
	lps_model_tick(m);
	KUNIT_EXPECT_EQ(test, m->pair[LPS_PAIR_PRESS].out, LPS_GARBAGE_P);
	KUNIT_EXPECT_EQ(test, m->pair[LPS_PAIR_TEMP].out, LPS_GARBAGE_T);
}

static void test_var_ths_inclusive(struct kunit *test)
{
	struct lps_model *m = new_model(test);

	m->var.v[LPS_VAR_THS] = LPS_THS_INCLUSIVE;
	set_ref_ths(m, 16200, 12);
	bus_write1(m, LPS_REG_INT_CFG, LPS_INT_CFG_PH_E | LPS_INT_CFG_PL_E);
	power_up(m, LPS_CTRL1_DIFF_EN);

	/* strict would give 0 for exactly +-12 */
	KUNIT_EXPECT_EQ(test, src_after(m, 16212),
			LPS_INT_SRC_IA | LPS_INT_SRC_PH);
	KUNIT_EXPECT_EQ(test, src_after(m, 16188),
			LPS_INT_SRC_IA | LPS_INT_SRC_PL);
	KUNIT_EXPECT_EQ(test, src_after(m, 16211), 0);
	KUNIT_EXPECT_EQ(test, src_after(m, 16189), 0);
}

static void test_var_lir_ignored(struct kunit *test)
{
	struct lps_model *m = new_model(test);

	m->var.v[LPS_VAR_LIR] = LPS_LIR_IGNORED;
	set_ref_ths(m, 16200, 0);
	bus_write1(m, LPS_REG_INT_CFG, LPS_INT_CFG_LIR | LPS_INT_CFG_PH_E |
		   LPS_INT_CFG_PL_E);
	power_up(m, LPS_CTRL1_DIFF_EN);

	KUNIT_EXPECT_EQ(test, src_after(m, 16300),
			LPS_INT_SRC_IA | LPS_INT_SRC_PH);
	/* a latch would still show PH here */
	KUNIT_EXPECT_EQ(test, src_after(m, 16200), 0);
	KUNIT_EXPECT_EQ(test, src_after(m, 16100),
			LPS_INT_SRC_IA | LPS_INT_SRC_PL);
}

static void test_var_int2_absent(struct kunit *test)
{
	struct lps_model *m = new_model(test);

	m->var.v[LPS_VAR_INT2] = LPS_INT2_ABSENT;
	bus_write1(m, LPS_REG_CTRL3, LPS_CTRL3_INT_H_L | LPS_PAD_CFG_GND |
		   LPS_PAD_CFG_GND << LPS_CTRL3_INT2_SHIFT);
	/* INT1 inverted to 1; a present INT2 would read 1 as well */
	KUNIT_EXPECT_EQ(test, lps_model_pad_level(m, 0), 1);
	KUNIT_EXPECT_EQ(test, lps_model_pad_level(m, 1), LPS_PAD_HIZ);
	/* the bits are stored all the same */
	KUNIT_EXPECT_EQ(test, bus_read1(m, LPS_REG_CTRL3), LPS_CTRL3_INT_H_L);
}

static struct kunit_case lps_model_cases[] = {
	KUNIT_CASE(test_who_am_i),
	KUNIT_CASE(test_reset_values),
	KUNIT_CASE(test_autoinc_read),
	KUNIT_CASE(test_repeat_without_autoinc),
	KUNIT_CASE(test_autoinc_write),
	KUNIT_CASE(test_wrap),
	KUNIT_CASE(test_reserved),
	KUNIT_CASE(test_read_only),
	KUNIT_CASE(test_peek_no_side_effects),
	KUNIT_CASE(test_pd_gates_samples),
	KUNIT_CASE(test_da_cleared_by_high_byte),
	KUNIT_CASE(test_overrun),
	KUNIT_CASE(test_bdu_holds_pair),
	KUNIT_CASE(test_no_bdu_tears),
	KUNIT_CASE(test_bdu_clear_releases),
	KUNIT_CASE(test_delta_sign),
	KUNIT_CASE(test_threshold_compare),
	KUNIT_CASE(test_lir_latch),
	KUNIT_CASE(test_pad_routing),
	KUNIT_CASE(test_dr_periods),
	KUNIT_CASE(test_stimulus),
	KUNIT_CASE(test_boot_self_clears),
	KUNIT_CASE(test_var_parse),
	KUNIT_CASE(test_var_dr_rates),
	KUNIT_CASE(test_var_da_cleared_by_status),
	KUNIT_CASE(test_var_bdu_block),
	KUNIT_CASE(test_var_drdy_pulse),
	KUNIT_CASE(test_var_first_sample_garbage),
	KUNIT_CASE(test_var_ths_inclusive),
	KUNIT_CASE(test_var_lir_ignored),
	KUNIT_CASE(test_var_int2_absent),
	{}
};

static struct kunit_suite lps_model_suite = {
	.name = "lps001wp_sim_model",
	.test_cases = lps_model_cases,
};

kunit_test_suites(&lps_model_suite);
