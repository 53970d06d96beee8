/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Register model of one ST LPS001WP, kept free of bus, timer and interrupt
 * code so that KUnit can drive it directly. The caller serialises access.
 *
 * Section numbers refer to Documentation/chip-facts.md.
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
 * Fixed choices:
 * 2.1 [U]  SUB bit 7 clear: a multi-byte access stays on one register.
 * 2.1/11 [U] Auto-increment wraps 0x7f -> 0x00 and skips nothing.
 * 3 [U]    Reserved addresses (and 0x40..0x7f) read 0 and ignore bus
 *          writes; a debugfs poke can give them content (e.g. trim data).
 * 3 [S]    R/W registers keep all eight bits, reserved bits included;
 *          only the documented bits have an effect.
 * 3.3 [U]  INTx_CFG codes 101/110 drive the same as 000 (signal low).
 *          A code is a logical signal; INT_H_L inverts it on the pad, so
 *          code 000 with INT_H_L = 1 idles high. PP_OD has no effect on the
 *          level (a board pull-up is assumed). Tri-state reports HIZ and the
 *          glue holds the line at its last level.
 * 4 [S]    DR 00: P 7 Hz / T 1 Hz, 11: 12.5/12.5. 1 Hz temperature at DR 00
 *          is every 7th pressure period.
 * 7 [U]    First sample one period after PD 0->1 and after a DR change.
 * 3.2 [U]  BOOT self-clears after LPS_BOOT_DELAY_MS; nothing else changes.
 * 9.4 [S]  LPOW is stored and has no effect.
 * 5/11 [S] PD = 0: no samples; outputs, STATUS and INT_SRC keep their values.
 *          INT_ACK reads 0x00.
 * 7 [S]    A sample the host was too slow to take still happens: a late
 *          timer produces every period it missed (up to LPS_MAX_CATCHUP).
 *
 * Switchable choices (struct lps_variant, debugfs <chip>/variant as
 * "key=value"). Value 0, listed first, is the default and today's model;
 * the others are the plausible alternatives a real chip may show.
 *
 * dr01=7|1 (4 [S], 9.1): DR 01 is P 7 Hz / T 7 Hz (ST table) or P and T
 *          1 Hz (mainline st_pressure's table).
 * dr10=7|12.5|1 (4 [U]): the unlisted DR 10 behaves as 7/7 Hz (as the ST
 *          table's 01; mainline calls it 7 Hz), as 12.5 Hz (as 11) or as
 *          1 Hz. A notice is logged once when it is used.
 * da_clear=out_h|status (3.4 [U]): P_DA/P_OR clear when PRESS_OUT_H is
 *          read, T_DA/T_OR when TEMP_OUT_H is read; or reading STATUS
 *          clears all four and reading the outputs clears nothing. DELTA
 *          has no status bit.
 * bdu=pair|block (5 [U]): with BDU = 1, reading either byte of a pair holds
 *          that pair until its other byte is read; or reading any byte of
 *          0x28..0x2d holds all three pairs until both bytes of every pair
 *          read from since have been read. A sample arriving meanwhile is
 *          kept pending and shown at release, and because nobody has read
 *          it yet its DA bit is set again at release (its OR is not).
 *          Clearing BDU releases every held pair.
 * drdy=level|pulse (3.3 [U]): a pad routed to DRDY follows P_DA (falls
 *          when the sample is taken), or gives one short pulse per new
 *          pressure sample and idles otherwise.
 * irq=edge|level (glue, board-dependent): the interrupt controller the
 *          pads are wired to takes edge types only, or level types only;
 *          at level, an edge type asked for (new_device irq=, an edge
 *          request) is turned into the matching level (rising -> high,
 *          falling -> low), and a line unmasked while its level is active
 *          fires again (IRQF_ONESHOT re-interrupts).
 * shared=0|1 (glue, board-dependent): INT1 is one open-drain line with the
 *          other chip's INT1 pad: the line is asserted when either pad is
 *          (wired-AND when this chip's INT_H_L = 1, wired-OR otherwise; a
 *          tri-stated pad does not drive).
 * first_sample=valid|garbage (7 [U]): the first pressure and the first
 *          temperature sample after PD 0->1 are real, or unsettled
 *          (LPS_GARBAGE_P/T; mainline discards two samples after power-up).
 * delta=ref-p|p-ref (5 [U], 9.7): DELTA = REF - P (DL and SEED wording) or
 *          P - REF. DELTA and the comparator only run while DIFF_EN is
 *          set; DELTA holds its value otherwise.
 * ths=strict|inclusive (5 [U]): evaluated once per pressure sample, PH if
 *          P - REF > THS, PL if REF - P > THS; or >= for both. A sample
 *          taken with DIFF_EN clear compares false.
 * lir=latch|ignored (3.7 [S]): LIR = 1 ORs enabled events into a latch
 *          that only an INT_ACK read clears (reading INT_SRC clears
 *          nothing); or LIR has no effect. Without a latch INT_SRC shows
 *          the latest comparison masked by the enables.
 * int2=present|absent (3.3 [U], 8-pad package): the INT2 pad exists, or
 *          it is not bonded out: its line is never driven whatever
 *          CTRL_REG3 says (the bits are still stored).
 */
enum lps_var_id {
	LPS_VAR_DR01,
	LPS_VAR_DR10,
	LPS_VAR_DA_CLEAR,
	LPS_VAR_BDU,
	LPS_VAR_DRDY,
	LPS_VAR_IRQ,
	LPS_VAR_SHARED,
	LPS_VAR_FIRST_SAMPLE,
	LPS_VAR_DELTA,
	LPS_VAR_THS,
	LPS_VAR_LIR,
	LPS_VAR_INT2,
	LPS_NUM_VARS,
};

/* Values of each switch, in the order of the names in lps_var_names */
#define LPS_DR01_7HZ		0
#define LPS_DR01_1HZ		1
#define LPS_DR10_7HZ		0
#define LPS_DR10_12HZ5		1
#define LPS_DR10_1HZ		2
#define LPS_DA_CLEAR_OUT_H	0
#define LPS_DA_CLEAR_STATUS	1
#define LPS_BDU_PAIR		0
#define LPS_BDU_BLOCK		1
#define LPS_DRDY_LEVEL		0
#define LPS_DRDY_PULSE		1
#define LPS_IRQ_EDGE		0
#define LPS_IRQ_LEVEL		1
#define LPS_FIRST_VALID		0
#define LPS_FIRST_GARBAGE	1
#define LPS_DELTA_REF_MINUS_P	0
#define LPS_DELTA_P_MINUS_REF	1
#define LPS_THS_STRICT		0
#define LPS_THS_INCLUSIVE	1
#define LPS_LIR_LATCH		0
#define LPS_LIR_IGNORED		1
#define LPS_INT2_PRESENT	0
#define LPS_INT2_ABSENT		1

#define LPS_VAR_MAX_VALUES	3

struct lps_variant {
	u8 v[LPS_NUM_VARS];	/* all 0: the default model */
};

/* lps_var_names[id][0] is the key, [1..] the values, NULL-terminated */
extern const char *const lps_var_names[LPS_NUM_VARS][LPS_VAR_MAX_VALUES + 2];

/* Unsettled first conversion: 0 mbar and -512 degC, both out of range */
#define LPS_GARBAGE_P		0x0000
#define LPS_GARBAGE_T		0x8000

#define LPS_PERIOD_7HZ_NS	(NSEC_PER_SEC / 7)
#define LPS_PERIOD_12HZ5_NS	(80 * NSEC_PER_MSEC)
#define LPS_PERIOD_1HZ_NS	NSEC_PER_SEC
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
	struct lps_variant var;
	/* bdu=block: the whole output block is held; bytes read since */
	bool block_held;
	u8 block_seen;
	/* first_sample=garbage: samples not yet produced since power-up */
	bool p_unsettled, t_unsettled;
	/* drdy=pulse: a pressure sample landed, the glue has not pulsed yet */
	bool drdy_pulse;
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
u64 lps_model_period_ns(const struct lps_model *m, unsigned int dr);
unsigned int lps_model_t_divider(const struct lps_model *m, unsigned int dr);

u8 lps_model_int_src(const struct lps_model *m);
int lps_model_pad_level(const struct lps_model *m, unsigned int pad);
bool lps_model_pad_pulses(const struct lps_model *m, unsigned int pad);
bool lps_model_take_pulse(struct lps_model *m);

int lps_variant_parse(struct lps_variant *var, const char *tok);

void lps_model_set_stimulus(struct lps_model *m, enum lps_stim_mode mode,
			    s32 p0, s32 dp, s32 t0, s32 dt);

#endif /* LPS001WP_SIM_MODEL_H */
