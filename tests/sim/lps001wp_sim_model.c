// SPDX-License-Identifier: GPL-2.0
/*
 * LPS001WP register model.
 *
 * Only facts tagged [C] in the spec are certain. Every behaviour that rests
 * on an [S] (sibling LPS001DL / ST convention) or [U] (unknown) fact is
 * decided in the "Modelling choices" block of lps001wp_sim_model.h, so a
 * datasheet finding changes one place.
 */

#include <linux/kernel.h>
#include <linux/string.h>

#include "lps001wp_sim_model.h"

const char *const lps_var_names[LPS_NUM_VARS][LPS_VAR_MAX_VALUES + 2] = {
	[LPS_VAR_DR01]		= { "dr01", "7", "1" },
	[LPS_VAR_DR10]		= { "dr10", "7", "12.5", "1" },
	[LPS_VAR_DA_CLEAR]	= { "da_clear", "out_h", "status" },
	[LPS_VAR_BDU]		= { "bdu", "pair", "block" },
	[LPS_VAR_DRDY]		= { "drdy", "level", "pulse" },
	[LPS_VAR_IRQ]		= { "irq", "edge", "level" },
	[LPS_VAR_SHARED]	= { "shared", "0", "1" },
	[LPS_VAR_FIRST_SAMPLE]	= { "first_sample", "valid", "garbage" },
	[LPS_VAR_DELTA]		= { "delta", "ref-p", "p-ref" },
	[LPS_VAR_THS]		= { "ths", "strict", "inclusive" },
	[LPS_VAR_LIR]		= { "lir", "latch", "ignored" },
	[LPS_VAR_INT2]		= { "int2", "present", "absent" },
};

/* One "key=value" token into var; -EINVAL (var untouched) if unknown. */
int lps_variant_parse(struct lps_variant *var, const char *tok)
{
	const char *eq = strchr(tok, '=');
	unsigned int id, i;

	if (!eq)
		return -EINVAL;
	for (id = 0; id < LPS_NUM_VARS; id++) {
		const char *key = lps_var_names[id][0];

		if (strlen(key) != eq - tok || strncmp(tok, key, eq - tok))
			continue;
		for (i = 1; lps_var_names[id][i]; i++) {
			if (!strcmp(eq + 1, lps_var_names[id][i])) {
				var->v[id] = i - 1;
				return 0;
			}
		}
		return -EINVAL;
	}
	return -EINVAL;
}

static bool lps_var(const struct lps_model *m, enum lps_var_id id, u8 val)
{
	return m->var.v[id] == val;
}

static bool lps_bdu(const struct lps_model *m)
{
	return m->ctrl1 & LPS_CTRL1_BDU;
}

static void lps_pair_release(struct lps_model *m, enum lps_pair_id id)
{
	struct lps_pair *p = &m->pair[id];

	p->held = false;
	if (!p->has_pending)
		return;
	p->out = p->pending;
	p->has_pending = false;
	if (id == LPS_PAIR_PRESS)
		m->status |= LPS_STATUS_P_DA;
	else if (id == LPS_PAIR_TEMP)
		m->status |= LPS_STATUS_T_DA;
}

static void lps_pair_update(struct lps_model *m, enum lps_pair_id id, u16 val)
{
	struct lps_pair *p = &m->pair[id];

	if (p->held) {
		p->pending = val;
		p->has_pending = true;
	} else {
		p->out = val;
	}
}

void lps_model_reset_counters(struct lps_model *m)
{
	m->samples = 0;
	m->t_samples = 0;
	m->power_ups = 0;
	m->p_overruns = 0;
	memset(m->reads, 0, sizeof(m->reads));
	memset(m->writes, 0, sizeof(m->writes));
}

void lps_model_init(struct lps_model *m)
{
	memset(m, 0, sizeof(*m));
	m->who_am_i = LPS_WHO_AM_I_VALUE;
	lps_model_set_stimulus(m, LPS_STIM_CONST, LPS_STIM_DEFAULT_P, 0,
			       LPS_STIM_DEFAULT_T, 0);
}

void lps_model_set_stimulus(struct lps_model *m, enum lps_stim_mode mode,
			    s32 p0, s32 dp, s32 t0, s32 dt)
{
	struct lps_stimulus *s = &m->stim;

	s->mode = mode;
	s->p0 = p0;
	s->t0 = t0;
	switch (mode) {
	case LPS_STIM_CONST:
		s->dp = 0;
		s->dt = 0;
		break;
	case LPS_STIM_COUNTER:
		s->dp = 1;
		s->dt = 1;
		break;
	case LPS_STIM_RAMP:
		s->dp = dp;
		s->dt = dt;
		break;
	}
	s->np = 0;
	s->nt = 0;
}

bool lps_model_powered(const struct lps_model *m)
{
	return m->ctrl1 & LPS_CTRL1_PD;
}

unsigned int lps_model_dr(const struct lps_model *m)
{
	return (m->ctrl1 & LPS_CTRL1_DR_MASK) >> LPS_CTRL1_DR_SHIFT;
}

enum lps_rate {
	LPS_RATE_P7_T1,
	LPS_RATE_P7_T7,
	LPS_RATE_P12_T12,
	LPS_RATE_P1_T1,
};

/* What a DR code does in this variant (dr01=, dr10=) */
static enum lps_rate lps_rate_of(const struct lps_model *m, unsigned int dr)
{
	switch (dr) {
	case LPS_DR_P7_T1:
		return LPS_RATE_P7_T1;
	case LPS_DR_P7_T7:
		if (lps_var(m, LPS_VAR_DR01, LPS_DR01_1HZ))
			return LPS_RATE_P1_T1;
		return LPS_RATE_P7_T7;
	case LPS_DR_RESERVED:
		if (lps_var(m, LPS_VAR_DR10, LPS_DR10_12HZ5))
			return LPS_RATE_P12_T12;
		if (lps_var(m, LPS_VAR_DR10, LPS_DR10_1HZ))
			return LPS_RATE_P1_T1;
		return LPS_RATE_P7_T7;
	default:
		return LPS_RATE_P12_T12;
	}
}

u64 lps_model_period_ns(const struct lps_model *m, unsigned int dr)
{
	switch (lps_rate_of(m, dr)) {
	case LPS_RATE_P12_T12:
		return LPS_PERIOD_12HZ5_NS;
	case LPS_RATE_P1_T1:
		return LPS_PERIOD_1HZ_NS;
	default:
		return LPS_PERIOD_7HZ_NS;
	}
}

unsigned int lps_model_t_divider(const struct lps_model *m, unsigned int dr)
{
	return lps_rate_of(m, dr) == LPS_RATE_P7_T1 ? LPS_T_DIV_1HZ : 1;
}

static void lps_set_ctrl1(struct lps_model *m, u8 val)
{
	u8 old = m->ctrl1;
	unsigned int i;

	m->ctrl1 = val;
	if (!(old & LPS_CTRL1_PD) && (val & LPS_CTRL1_PD)) {
		m->power_ups++;
		m->ticks = 0;
		m->p_unsettled = true;
		m->t_unsettled = true;
	}
	if ((old ^ val) & LPS_CTRL1_DR_MASK)
		m->ticks = 0;
	if ((old & LPS_CTRL1_BDU) && !(val & LPS_CTRL1_BDU)) {
		for (i = 0; i < LPS_NUM_PAIRS; i++)
			lps_pair_release(m, i);
		m->block_held = false;
	}
}

u8 lps_model_int_src(const struct lps_model *m)
{
	u8 en = m->int_cfg & (LPS_INT_CFG_PH_E | LPS_INT_CFG_PL_E);
	u8 flags;

	if ((m->int_cfg & LPS_INT_CFG_LIR) &&
	    lps_var(m, LPS_VAR_LIR, LPS_LIR_LATCH))
		flags = m->latched;
	else
		flags = m->cmp & en;
	if (flags)
		flags |= LPS_INT_SRC_IA;
	return flags;
}

u8 lps_model_peek(const struct lps_model *m, u8 reg)
{
	reg &= LPS_SUB_REG_MASK;

	switch (reg) {
	case LPS_REG_WHO_AM_I:
		return m->who_am_i;
	case LPS_REG_CTRL1:
		return m->ctrl1;
	case LPS_REG_CTRL2:
		return m->ctrl2;
	case LPS_REG_CTRL3:
		return m->ctrl3;
	case LPS_REG_STATUS:
		return m->status;
	case LPS_REG_PRESS_L ... LPS_REG_DELTA_H: {
		const struct lps_pair *p = &m->pair[(reg - LPS_REG_PRESS_L) / 2];

		return (reg & 1) ? p->out >> 8 : p->out & 0xff;
	}
	case LPS_REG_REF_L:
		return m->ref & 0xff;
	case LPS_REG_REF_H:
		return m->ref >> 8;
	case LPS_REG_THS_L:
		return m->ths & 0xff;
	case LPS_REG_THS_H:
		return m->ths >> 8;
	case LPS_REG_INT_CFG:
		return m->int_cfg;
	case LPS_REG_INT_SRC:
		return lps_model_int_src(m);
	case LPS_REG_INT_ACK:
		return 0;
	default:
		return m->reserved[reg];
	}
}

/* Writes that the bus and the test side share: plain storage. */
static bool lps_store_rw(struct lps_model *m, u8 reg, u8 val)
{
	switch (reg) {
	case LPS_REG_CTRL1:
		lps_set_ctrl1(m, val);
		return true;
	case LPS_REG_CTRL2:
		m->ctrl2 = val;
		return true;
	case LPS_REG_CTRL3:
		m->ctrl3 = val;
		return true;
	case LPS_REG_REF_L:
		m->ref = (m->ref & 0xff00) | val;
		return true;
	case LPS_REG_REF_H:
		m->ref = (m->ref & 0x00ff) | (val << 8);
		return true;
	case LPS_REG_THS_L:
		m->ths = (m->ths & 0xff00) | val;
		return true;
	case LPS_REG_THS_H:
		m->ths = (m->ths & 0x00ff) | (val << 8);
		return true;
	case LPS_REG_INT_CFG:
		m->int_cfg = val;
		return true;
	default:
		return false;
	}
}

void lps_model_poke(struct lps_model *m, u8 reg, u8 val)
{
	reg &= LPS_SUB_REG_MASK;

	if (lps_store_rw(m, reg, val))
		return;

	switch (reg) {
	case LPS_REG_WHO_AM_I:
		m->who_am_i = val;
		break;
	case LPS_REG_STATUS:
		m->status = val;
		break;
	case LPS_REG_PRESS_L ... LPS_REG_DELTA_H: {
		struct lps_pair *p = &m->pair[(reg - LPS_REG_PRESS_L) / 2];

		if (reg & 1)
			p->out = (p->out & 0x00ff) | (val << 8);
		else
			p->out = (p->out & 0xff00) | val;
		break;
	}
	case LPS_REG_INT_SRC:
		m->cmp = val & (LPS_INT_SRC_PH | LPS_INT_SRC_PL);
		m->latched = m->cmp;
		break;
	case LPS_REG_INT_ACK:
		break;
	default:
		m->reserved[reg] = val;
		break;
	}
}

/*
 * bdu=block: the first output byte read holds every pair; the hold ends
 * once each pair read from since is complete (both bytes read).
 */
static void lps_block_read(struct lps_model *m, unsigned int byte)
{
	unsigned int i;

	if (!m->block_held) {
		m->block_held = true;
		m->block_seen = 0;
		for (i = 0; i < LPS_NUM_PAIRS; i++)
			m->pair[i].held = true;
	}
	m->block_seen |= BIT(byte);
	for (i = 0; i < LPS_NUM_PAIRS; i++) {
		u8 both = 3 << (2 * i);
		u8 seen = m->block_seen & both;

		if (seen && seen != both)
			return;
	}
	m->block_held = false;
	for (i = 0; i < LPS_NUM_PAIRS; i++)
		lps_pair_release(m, i);
}

u8 lps_model_read(struct lps_model *m, u8 reg)
{
	u8 val;

	reg &= LPS_SUB_REG_MASK;
	val = lps_model_peek(m, reg);
	m->reads[reg]++;

	switch (reg) {
	case LPS_REG_PRESS_L ... LPS_REG_DELTA_H: {
		enum lps_pair_id id = (reg - LPS_REG_PRESS_L) / 2;
		bool high = reg & 1;
		struct lps_pair *p = &m->pair[id];

		/* DA goes first: a release below may bring a newer sample */
		if (high && lps_var(m, LPS_VAR_DA_CLEAR, LPS_DA_CLEAR_OUT_H)) {
			if (id == LPS_PAIR_PRESS)
				m->status &= ~(LPS_STATUS_P_DA | LPS_STATUS_P_OR);
			else if (id == LPS_PAIR_TEMP)
				m->status &= ~(LPS_STATUS_T_DA | LPS_STATUS_T_OR);
		}

		if (!lps_bdu(m))
			break;
		if (lps_var(m, LPS_VAR_BDU, LPS_BDU_BLOCK)) {
			lps_block_read(m, reg - LPS_REG_PRESS_L);
		} else if (!p->held) {
			p->held = true;
			p->held_by_high = high;
		} else if (p->held_by_high != high) {
			lps_pair_release(m, id);
		}
		break;
	}
	case LPS_REG_STATUS:
		if (lps_var(m, LPS_VAR_DA_CLEAR, LPS_DA_CLEAR_STATUS))
			m->status &= ~(LPS_STATUS_P_DA | LPS_STATUS_P_OR |
				       LPS_STATUS_T_DA | LPS_STATUS_T_OR);
		break;
	case LPS_REG_INT_ACK:
		m->latched = 0;
		break;
	default:
		break;
	}
	return val;
}

void lps_model_write(struct lps_model *m, u8 reg, u8 val)
{
	reg &= LPS_SUB_REG_MASK;
	m->writes[reg]++;
	/* read-only and reserved registers ignore the bus */
	lps_store_rw(m, reg, val);
}

void lps_model_set_sub(struct lps_model *m, u8 sub)
{
	m->ptr = sub & LPS_SUB_REG_MASK;
	m->autoinc = sub & LPS_SUB_AUTOINC;
}

static void lps_advance(struct lps_model *m)
{
	if (m->autoinc)
		m->ptr = (m->ptr + 1) & LPS_SUB_REG_MASK;
}

u8 lps_model_read_next(struct lps_model *m, u8 *reg)
{
	u8 val;

	*reg = m->ptr;
	val = lps_model_read(m, m->ptr);
	lps_advance(m);
	return val;
}

void lps_model_write_next(struct lps_model *m, u8 val)
{
	lps_model_write(m, m->ptr, val);
	lps_advance(m);
}

static void lps_compare(struct lps_model *m, u16 press)
{
	s32 above = (s32)press - (s32)m->ref;
	u8 cmp = 0;

	/* inclusive: P - REF >= THS is P - REF > THS - 1 */
	s32 ths = (s32)m->ths - lps_var(m, LPS_VAR_THS, LPS_THS_INCLUSIVE);

	if (m->ctrl1 & LPS_CTRL1_DIFF_EN) {
		if (above > ths)
			cmp |= LPS_INT_SRC_PH;
		if (-above > ths)
			cmp |= LPS_INT_SRC_PL;
	}
	m->cmp = cmp;
	m->latched |= cmp & m->int_cfg & (LPS_INT_CFG_PH_E | LPS_INT_CFG_PL_E);
}

bool lps_model_tick(struct lps_model *m)
{
	struct lps_stimulus *s = &m->stim;
	unsigned int dr = lps_model_dr(m);
	u16 press, temp;

	if (!lps_model_powered(m))
		return false;

	press = (u16)(s->p0 + (s64)s->np * s->dp);
	s->np++;
	if (m->p_unsettled && lps_var(m, LPS_VAR_FIRST_SAMPLE, LPS_FIRST_GARBAGE))
		press = LPS_GARBAGE_P;
	m->p_unsettled = false;
	m->drdy_pulse = true;
	m->samples++;
	if (m->status & LPS_STATUS_P_DA) {
		m->status |= LPS_STATUS_P_OR;
		m->p_overruns++;
	}
	m->status |= LPS_STATUS_P_DA;
	lps_pair_update(m, LPS_PAIR_PRESS, press);

	if (m->ctrl1 & LPS_CTRL1_DIFF_EN) {
		s32 d = (s32)m->ref - (s32)press;

		if (lps_var(m, LPS_VAR_DELTA, LPS_DELTA_P_MINUS_REF))
			d = -d;
		lps_pair_update(m, LPS_PAIR_DELTA, (u16)d);
	}
	lps_compare(m, press);

	m->ticks++;
	if (m->ticks % lps_model_t_divider(m, dr) == 0) {
		temp = (u16)(s->t0 + (s64)s->nt * s->dt);
		s->nt++;
		if (m->t_unsettled &&
		    lps_var(m, LPS_VAR_FIRST_SAMPLE, LPS_FIRST_GARBAGE))
			temp = LPS_GARBAGE_T;
		m->t_unsettled = false;
		m->t_samples++;
		if (m->status & LPS_STATUS_T_DA)
			m->status |= LPS_STATUS_T_OR;
		m->status |= LPS_STATUS_T_DA;
		lps_pair_update(m, LPS_PAIR_TEMP, temp);
	}
	return true;
}

void lps_model_boot_done(struct lps_model *m)
{
	m->ctrl2 &= ~LPS_CTRL2_BOOT;
}

int lps_model_pad_level(const struct lps_model *m, unsigned int pad)
{
	unsigned int cfg;
	u8 src;
	bool sig;

	if (pad && lps_var(m, LPS_VAR_INT2, LPS_INT2_ABSENT))
		return LPS_PAD_HIZ;
	cfg = pad ? m->ctrl3 >> LPS_CTRL3_INT2_SHIFT : m->ctrl3;
	cfg &= LPS_CTRL3_CFG_MASK;
	src = lps_model_int_src(m);

	switch (cfg) {
	case LPS_PAD_CFG_PH:
		sig = src & LPS_INT_SRC_PH;
		break;
	case LPS_PAD_CFG_PL:
		sig = src & LPS_INT_SRC_PL;
		break;
	case LPS_PAD_CFG_PHPL:
		sig = src & (LPS_INT_SRC_PH | LPS_INT_SRC_PL);
		break;
	case LPS_PAD_CFG_DRDY:
		/* a pulsing pad idles; the glue makes the pulse */
		sig = lps_var(m, LPS_VAR_DRDY, LPS_DRDY_LEVEL) &&
		      (m->status & LPS_STATUS_P_DA);
		break;
	case LPS_PAD_CFG_HIZ:
		return LPS_PAD_HIZ;
	default:
		sig = false;
		break;
	}
	return sig ^ !!(m->ctrl3 & LPS_CTRL3_INT_H_L);
}

/* drdy=pulse: does this pad pulse on a new pressure sample? */
bool lps_model_pad_pulses(const struct lps_model *m, unsigned int pad)
{
	unsigned int cfg;

	if (!lps_var(m, LPS_VAR_DRDY, LPS_DRDY_PULSE))
		return false;
	if (pad && lps_var(m, LPS_VAR_INT2, LPS_INT2_ABSENT))
		return false;
	cfg = pad ? m->ctrl3 >> LPS_CTRL3_INT2_SHIFT : m->ctrl3;
	return (cfg & LPS_CTRL3_CFG_MASK) == LPS_PAD_CFG_DRDY;
}

/* Whether a pressure sample landed since the last call */
bool lps_model_take_pulse(struct lps_model *m)
{
	bool pulse = m->drdy_pulse;

	m->drdy_pulse = false;
	return pulse;
}
