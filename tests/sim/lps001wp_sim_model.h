/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Register model of one ST LPS001WP, kept free of bus, timer and interrupt
 * code so that KUnit can drive it directly. The caller serialises access.
 *
 * Section numbers refer to the bench's lps001wp-spec.md.
 */
#ifndef LPS001WP_SIM_MODEL_H
#define LPS001WP_SIM_MODEL_H

#include <linux/bits.h>
#include <linux/time64.h>
#include <linux/types.h>

/* Register map, spec section 3 */
#define LPS_REG_WHO_AM_I	0x0f
#define LPS_REG_CTRL1		0x20
#define LPS_REG_CTRL2		0x21
#define LPS_REG_CTRL3		0x22
#define LPS_REG_STATUS		0x27
#define LPS_REG_PRESS_L		0x28
#define LPS_REG_PRESS_H		0x29
#define LPS_REG_TEMP_L		0x2a
#define LPS_REG_TEMP_H		0x2b
#define LPS_REG_DELTA_L		0x2c
#define LPS_REG_DELTA_H		0x2d
#define LPS_REG_REF_L		0x30
#define LPS_REG_REF_H		0x31
#define LPS_REG_THS_L		0x32
#define LPS_REG_THS_H		0x33
#define LPS_REG_INT_CFG		0x34
#define LPS_REG_INT_SRC		0x35
#define LPS_REG_INT_ACK		0x36

#define LPS_WHO_AM_I_VALUE	0xba

/* I2C sub-address: bit 7 requests auto-increment (spec 2.1) */
#define LPS_SUB_AUTOINC		BIT(7)
#define LPS_SUB_REG_MASK	0x7f
/* The I2C register field has 7 bits, so the pointer space is 0x00..0x7f */
#define LPS_NUM_ADDRS		0x80

#define LPS_CTRL1_LPOW		BIT(7)
#define LPS_CTRL1_PD		BIT(6)
#define LPS_CTRL1_DR_MASK	GENMASK(5, 4)
#define LPS_CTRL1_DR_SHIFT	4
#define LPS_CTRL1_DIFF_EN	BIT(3)
#define LPS_CTRL1_BDU		BIT(2)

#define LPS_CTRL2_BOOT		BIT(7)

#define LPS_CTRL3_INT_H_L	BIT(7)
#define LPS_CTRL3_PP_OD		BIT(6)
#define LPS_CTRL3_INT2_SHIFT	3
#define LPS_CTRL3_CFG_MASK	0x7

#define LPS_STATUS_P_OR		BIT(5)
#define LPS_STATUS_T_OR		BIT(4)
#define LPS_STATUS_P_DA		BIT(1)
#define LPS_STATUS_T_DA		BIT(0)

#define LPS_INT_CFG_LIR		BIT(2)
#define LPS_INT_CFG_PL_E	BIT(1)
#define LPS_INT_CFG_PH_E	BIT(0)

#define LPS_INT_SRC_IA		BIT(2)
#define LPS_INT_SRC_PL		BIT(1)
#define LPS_INT_SRC_PH		BIT(0)

/* CTRL_REG3 INTx_CFG codes, spec 3.3 */
#define LPS_PAD_CFG_GND		0
#define LPS_PAD_CFG_PH		1
#define LPS_PAD_CFG_PL		2
#define LPS_PAD_CFG_PHPL	3
#define LPS_PAD_CFG_DRDY	4
#define LPS_PAD_CFG_HIZ		7

/* lps_model_pad_level() result for a tri-stated pad */
#define LPS_PAD_HIZ		(-1)

/* DR codes, spec 4 */
#define LPS_DR_P7_T1		0
#define LPS_DR_P7_T7		1
#define LPS_DR_RESERVED		2
#define LPS_DR_P12_T12		3

/*
 * Modelling choices for [S]/[U] facts, the only place they are made.
 *
 * 2.1 [U]  SUB bit 7 clear: a multi-byte access stays on one register.
 * 2.1/11 [U] Auto-increment wraps 0x7f -> 0x00 and skips nothing.
 * 3 [U]    Reserved addresses (and 0x40..0x7f) read 0 and ignore bus
 *          writes; a debugfs poke can give them content (e.g. trim data).
 * 3 [S]    R/W registers keep all eight bits, reserved bits included;
 *          only the documented bits have an effect.
 * 3.4 [U]  P_DA/P_OR clear when PRESS_OUT_H is read, T_DA/T_OR when
 *          TEMP_OUT_H is read; DELTA has no status bit.
 * 5 [U]    BDU granularity is per pair: reading either byte of a pair holds
 *          that pair until its other byte is read. A sample arriving meanwhile
 *          is kept pending and shown at release, and because nobody has read
 *          it yet its DA bit is set again at release (its OR is not).
 *          Clearing BDU releases every held pair.
 * 5 [U]    DELTA = REF - P by default (DL and SEED wording); P - REF is
 *          selectable. DELTA and the comparator only run while DIFF_EN is
 *          set; DELTA holds its value otherwise.
 * 5 [U]    Threshold comparison is strict and evaluated once per pressure
 *          sample: PH if P - REF > THS, PL if REF - P > THS. A sample taken
 *          with DIFF_EN clear compares false.
 * 3.7 [U]  LIR = 0: INT_SRC shows the latest comparison masked by the
 *          enables. LIR = 1: enabled events OR into a latch that only an
 *          INT_ACK read clears; reading INT_SRC clears nothing.
 * 3.3 [U]  INTx_CFG codes 101/110 drive the same as 000 (signal low).
 *          A code is a logical signal; INT_H_L inverts it on the pad, so
 *          code 000 with INT_H_L = 1 idles high. PP_OD has no effect on the
 *          level (a board pull-up is assumed). Tri-state reports HIZ and the
 *          glue holds the line at its last level.
 * 4 [S]    DR 00: P 7 Hz / T 1 Hz, 01: 7/7, 11: 12.5/12.5; the reserved 10
 *          behaves as 01. 1 Hz temperature is every 7th pressure period.
 * 7 [U]    First sample one period after PD 0->1 and after a DR change.
 * 3.2 [U]  BOOT self-clears after LPS_BOOT_DELAY_MS; nothing else changes.
 * 9.4 [S]  LPOW is stored and has no effect.
 * 5/11 [S] PD = 0: no samples; outputs, STATUS and INT_SRC keep their values.
 *          INT_ACK reads 0x00.
 * 7 [S]    A sample the host was too slow to take still happens: a late
 *          timer produces every period it missed (up to LPS_MAX_CATCHUP).
 */
#define LPS_PERIOD_7HZ_NS	(NSEC_PER_SEC / 7)
#define LPS_PERIOD_12HZ5_NS	(80 * NSEC_PER_MSEC)
#define LPS_T_DIV_1HZ		7
#define LPS_BOOT_DELAY_MS	5
#define LPS_MAX_CATCHUP		8

/* Default stimulus: 1013.25 mbar, 25 degC (spec 6) */
#define LPS_STIM_DEFAULT_P	16212
#define LPS_STIM_DEFAULT_T	1600

enum lps_pair_id {
	LPS_PAIR_PRESS,
	LPS_PAIR_TEMP,
	LPS_PAIR_DELTA,
	LPS_NUM_PAIRS,
};

/* One 16-bit output register pair with its block-data-update hold. */
struct lps_pair {
	u16 out;		/* what the bus reads */
	u16 pending;		/* newest sample while the pair is held */
	bool held;
	bool has_pending;
	bool held_by_high;	/* which byte started the hold */
};

enum lps_stim_mode {
	LPS_STIM_CONST,
	LPS_STIM_RAMP,
	LPS_STIM_COUNTER,
};

struct lps_stimulus {
	enum lps_stim_mode mode;
	s32 p0, dp, t0, dt;
	u32 np, nt;		/* samples produced since the stimulus was set */
};

struct lps_model {
	u8 who_am_i;
	u8 ctrl1, ctrl2, ctrl3;
	u8 status;
	u16 ref, ths;
	u8 int_cfg;
	u8 cmp;			/* PH/PL of the latest comparison */
	u8 latched;		/* PH/PL latched while LIR = 1 */
	u8 reserved[LPS_NUM_ADDRS];	/* only reachable through poke */
	struct lps_pair pair[LPS_NUM_PAIRS];
	bool delta_p_minus_ref;
	struct lps_stimulus stim;
	u32 ticks;		/* pressure periods since power-up/DR change */

	/* bus pointer, persists between transfers */
	u8 ptr;
	bool autoinc;

	/* statistics */
	u64 samples;		/* pressure samples */
	u64 t_samples;
	u64 power_ups;
	u64 p_overruns;		/* pressure samples that overwrote an unread one */
	u32 reads[LPS_NUM_ADDRS];
	u32 writes[LPS_NUM_ADDRS];
};

void lps_model_init(struct lps_model *m);
void lps_model_reset_counters(struct lps_model *m);

/* Bus side: SUB byte, then data bytes with the pointer semantics of 2.1 */
void lps_model_set_sub(struct lps_model *m, u8 sub);
u8 lps_model_read_next(struct lps_model *m, u8 *reg);
void lps_model_write_next(struct lps_model *m, u8 val);

/* Single register access as the bus master sees it (side effects, counted) */
u8 lps_model_read(struct lps_model *m, u8 reg);
void lps_model_write(struct lps_model *m, u8 reg, u8 val);

/* Test side: no side effects, no access rules */
u8 lps_model_peek(const struct lps_model *m, u8 reg);
void lps_model_poke(struct lps_model *m, u8 reg, u8 val);

/* One pressure period has elapsed. Returns true if a sample was produced. */
bool lps_model_tick(struct lps_model *m);
void lps_model_boot_done(struct lps_model *m);

bool lps_model_powered(const struct lps_model *m);
unsigned int lps_model_dr(const struct lps_model *m);
u64 lps_model_period_ns(unsigned int dr);
unsigned int lps_model_t_divider(unsigned int dr);

u8 lps_model_int_src(const struct lps_model *m);
int lps_model_pad_level(const struct lps_model *m, unsigned int pad);

void lps_model_set_stimulus(struct lps_model *m, enum lps_stim_mode mode,
			    s32 p0, s32 dp, s32 t0, s32 dt);

#endif /* LPS001WP_SIM_MODEL_H */
