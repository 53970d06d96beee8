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

u64 lps_model_period_ns(unsigned int dr)
{
	return dr == LPS_DR_P12_T12 ? LPS_PERIOD_12HZ5_NS : LPS_PERIOD_7HZ_NS;
}

unsigned int lps_model_t_divider(unsigned int dr)
{
	return dr == LPS_DR_P7_T1 ? LPS_T_DIV_1HZ : 1;
}

static void lps_set_ctrl1(struct lps_model *m, u8 val)
{
	u8 old = m->ctrl1;
	unsigned int i;

	m->ctrl1 = val;
	if (!(old & LPS_CTRL1_PD) && (val & LPS_CTRL1_PD)) {
		m->power_ups++;
		m->ticks = 0;
	}
	if ((old ^ val) & LPS_CTRL1_DR_MASK)
		m->ticks = 0;
	if ((old & LPS_CTRL1_BDU) && !(val & LPS_CTRL1_BDU))
		for (i = 0; i < LPS_NUM_PAIRS; i++)
			lps_pair_release(m, i);
}

u8 lps_model_int_src(const struct lps_model *m)
{
	u8 en = m->int_cfg & (LPS_INT_CFG_PH_E | LPS_INT_CFG_PL_E);
	u8 flags;

	if (m->int_cfg & LPS_INT_CFG_LIR)
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
		if (high && id == LPS_PAIR_PRESS)
			m->status &= ~(LPS_STATUS_P_DA | LPS_STATUS_P_OR);
		else if (high && id == LPS_PAIR_TEMP)
			m->status &= ~(LPS_STATUS_T_DA | LPS_STATUS_T_OR);

		if (!lps_bdu(m))
			break;
		if (!p->held) {
			p->held = true;
			p->held_by_high = high;
		} else if (p->held_by_high != high) {
			lps_pair_release(m, id);
		}
		break;
	}
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

	if (m->ctrl1 & LPS_CTRL1_DIFF_EN) {
		if (above > (s32)m->ths)
			cmp |= LPS_INT_SRC_PH;
		if (-above > (s32)m->ths)
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
	m->samples++;
	if (m->status & LPS_STATUS_P_DA) {
		m->status |= LPS_STATUS_P_OR;
		m->p_overruns++;
	}
	m->status |= LPS_STATUS_P_DA;
	lps_pair_update(m, LPS_PAIR_PRESS, press);

	if (m->ctrl1 & LPS_CTRL1_DIFF_EN) {
		s32 d = (s32)m->ref - (s32)press;

		if (m->delta_p_minus_ref)
			d = -d;
		lps_pair_update(m, LPS_PAIR_DELTA, (u16)d);
	}
	lps_compare(m, press);

	m->ticks++;
	if (m->ticks % lps_model_t_divider(dr) == 0) {
		temp = (u16)(s->t0 + (s64)s->nt * s->dt);
		s->nt++;
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
		sig = m->status & LPS_STATUS_P_DA;
		break;
	case LPS_PAD_CFG_HIZ:
		return LPS_PAD_HIZ;
	default:
		sig = false;
		break;
	}
	return sig ^ !!(m->ctrl3 & LPS_CTRL3_INT_H_L);
}
