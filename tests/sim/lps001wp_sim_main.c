// SPDX-License-Identifier: GPL-2.0
/*
 * LPS001WP simulator: an I2C adapter "lps001wp-sim" with two emulated chips
 * at 0x5c and 0x5d, sample timers, simulated INT1/INT2 lines and a debugfs
 * control plane (see README.md beside this file). The same machinery makes
 * the device-tree instance of lps001wp_sim_of.c.
 *
 * Test-only module.
 */

#include <linux/bitops.h>
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdomain.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/regulator/driver.h>
#include <linux/regulator/machine.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "lps001wp_sim.h"

#define LPS_SIM_NAME		"lps001wp-sim"
#define LPS_SIM_CLIENT_NAME	"lps001wp"
#define LPS_SIM_ADDR0		0x5c
#define LPS_SIM_CMD_MAX		128
/* every switch with its longest value fits */
#define LPS_SIM_VARIANT_MAX	512
#define LPS_SIM_DUMP_REGS	0x40

static struct lps_sim *lps_sim;

static struct lps_sim_chip *lps_sim_chip_at(struct lps_sim *sim, u16 addr,
					    u16 flags)
{
	if (flags & I2C_M_TEN)
		return NULL;
	if (addr < LPS_SIM_ADDR0 || addr >= LPS_SIM_ADDR0 + LPS_SIM_NUM_CHIPS)
		return NULL;
	return &sim->chip[addr - LPS_SIM_ADDR0];
}

/*
 * Whether a line that just went to @lvl interrupts: an edge type fires on
 * the matching edge, a level type when the line reaches its active level.
 * A masked line drops the edge (as irq_sim); a level line fires again when
 * it is unmasked (lps_sim_irq_unmask()).
 */
static bool lps_sim_line_fires(struct lps_sim *sim, unsigned int hwirq,
			       int lvl)
{
	struct lps_sim_chip *c = &sim->chip[hwirq / LPS_SIM_NUM_PADS];
	struct irq_data *d;
	u32 type;

	d = irq_get_irq_data(c->virq[hwirq % LPS_SIM_NUM_PADS]);
	if (!d || irqd_irq_masked(d))
		return false;
	type = irqd_get_trigger_type(d);
	if (type & IRQ_TYPE_LEVEL_MASK)
		return lvl == !!(type & IRQ_TYPE_LEVEL_HIGH);
	return type & (lvl ? IRQ_TYPE_EDGE_RISING : IRQ_TYPE_EDGE_FALLING);
}

/*
 * An interrupt delivered on a pad, with the time it was raised for INT1:
 * what a hard IRQ handler's timestamp is compared with (int1_times)
 */
static void lps_sim_count_irq(struct lps_sim_chip *c, unsigned int pad)
{
	lockdep_assert_held(&c->sim->line_lock);

	if (!pad)
		c->int1_ns[c->irqs[0] % LPS_SIM_INT1_LOG] = ktime_get_ns();
	c->irqs[pad]++;
}

/*
 * The level on the wire of each line from what the pads drive. A shared
 * INT1 (variant shared=1) is open drain with the other chip's INT1: it is
 * at this chip's active level when either pad is at its own active level,
 * else at the pull's. A floating pad alone keeps the line where it was.
 * Returns the lines to fire.
 */
static unsigned long lps_sim_lines(struct lps_sim *sim)
{
	unsigned long fire = 0;
	unsigned int h;

	lockdep_assert_held(&sim->line_lock);

	for (h = 0; h < LPS_SIM_NUM_IRQS; h++) {
		struct lps_sim_chip *c = &sim->chip[h / LPS_SIM_NUM_PADS];
		unsigned int pad = h % LPS_SIM_NUM_PADS;
		int lvl = c->pad_out[pad];

		if (!pad && c->int1_shared) {
			struct lps_sim_chip *o = &sim->chip[c->index ^ 1];
			bool on = lvl == !c->active_low ||
				  o->pad_out[0] == !o->active_low;

			lvl = on ^ c->active_low;
		}
		if (lvl == LPS_PAD_HIZ || lvl == sim->line[h])
			continue;
		sim->line[h] = lvl;
		if (lps_sim_line_fires(sim, h, lvl)) {
			fire |= BIT(h);
			lps_sim_count_irq(c, pad);
		}
	}
	return fire;
}

/*
 * Turns pad level changes into interrupts. Called with chip->lock held;
 * returns the lines to fire once the lock is dropped. A DRDY pulse
 * (drdy=pulse) is the pad at its active level and back.
 */
static unsigned long lps_sim_pads(struct lps_sim_chip *c)
{
	struct lps_sim *sim = c->sim;
	int out[LPS_SIM_NUM_PADS];
	unsigned long fire = 0;
	unsigned int pad, pulse = 0;
	bool active_low;

	lockdep_assert_held(&c->lock);

	active_low = c->model.ctrl3 & LPS_CTRL3_INT_H_L;
	for (pad = 0; pad < LPS_SIM_NUM_PADS; pad++)
		out[pad] = lps_model_pad_level(&c->model, pad);
	if (lps_model_take_pulse(&c->model))
		for (pad = 0; pad < LPS_SIM_NUM_PADS; pad++)
			if (lps_model_pad_pulses(&c->model, pad))
				pulse |= BIT(pad);

	raw_spin_lock(&sim->line_lock);
	c->active_low = active_low;
	c->int1_shared = c->model.var.v[LPS_VAR_SHARED];
	if (pulse) {
		for (pad = 0; pad < LPS_SIM_NUM_PADS; pad++)
			c->pad_out[pad] = pulse & BIT(pad) ? !active_low : out[pad];
		fire = lps_sim_lines(sim);
	}
	for (pad = 0; pad < LPS_SIM_NUM_PADS; pad++)
		c->pad_out[pad] = out[pad];
	fire |= lps_sim_lines(sim);
	raw_spin_unlock(&sim->line_lock);
	return fire;
}

/* Runs the handlers of the lines in @fire (hard irq_work) */
static void lps_sim_fire(struct lps_sim *sim, unsigned long fire)
{
	unsigned int h;

	if (!fire)
		return;
	for_each_set_bit(h, &fire, LPS_SIM_NUM_IRQS)
		set_bit(h, &sim->irq_pending);
	irq_work_queue(&sim->irq_work);
}

static void lps_sim_update_pads(struct lps_sim_chip *c)
{
	unsigned long flags, fire;

	spin_lock_irqsave(&c->lock, flags);
	fire = lps_sim_pads(c);
	spin_unlock_irqrestore(&c->lock, flags);
	lps_sim_fire(c->sim, fire);
}

static enum hrtimer_restart lps_sim_sample_fn(struct hrtimer *t)
{
	struct lps_sim_chip *c = container_of(t, struct lps_sim_chip, timer);
	unsigned long flags, fire;
	u64 n;

	spin_lock_irqsave(&c->lock, flags);
	if (!lps_model_powered(&c->model)) {
		spin_unlock_irqrestore(&c->lock, flags);
		return HRTIMER_NORESTART;
	}
	n = lps_model_period_ns(&c->model, lps_model_dr(&c->model));
	n = hrtimer_forward_now(t, ns_to_ktime(n));
	n = min_t(u64, n, LPS_MAX_CATCHUP);
	while (n--)
		lps_model_tick(&c->model);
	fire = lps_sim_pads(c);
	spin_unlock_irqrestore(&c->lock, flags);

	lps_sim_fire(c->sim, fire);
	return HRTIMER_RESTART;
}

static enum hrtimer_restart lps_sim_boot_fn(struct hrtimer *t)
{
	struct lps_sim_chip *c = container_of(t, struct lps_sim_chip, boot_timer);
	unsigned long flags;

	spin_lock_irqsave(&c->lock, flags);
	lps_model_boot_done(&c->model);
	spin_unlock_irqrestore(&c->lock, flags);
	return HRTIMER_NORESTART;
}

/*
 * Brings the timers in line with CTRL_REG1/CTRL_REG2 after an access.
 * Runs under sim->lock without chip->lock, so hrtimer_cancel() may wait
 * for a callback that takes chip->lock.
 */
static void lps_sim_sync(struct lps_sim_chip *c)
{
	ktime_t now = ktime_get();
	unsigned long flags;
	unsigned int dr;
	bool pd, boot;
	u64 ups, period;

	lockdep_assert_held(&c->sim->lock);

	spin_lock_irqsave(&c->lock, flags);
	pd = lps_model_powered(&c->model);
	dr = lps_model_dr(&c->model);
	ups = c->model.power_ups;
	boot = c->model.ctrl2 & LPS_CTRL2_BOOT;
	period = lps_model_period_ns(&c->model, dr);
	spin_unlock_irqrestore(&c->lock, flags);

	if (boot && !hrtimer_active(&c->boot_timer))
		hrtimer_start(&c->boot_timer, ms_to_ktime(LPS_BOOT_DELAY_MS),
			      HRTIMER_MODE_REL);

	if (pd == c->running &&
	    (!pd || (dr == c->run_dr && ups == c->run_power_ups)))
		return;

	hrtimer_cancel(&c->timer);
	if (pd && !c->running)
		c->powered_since = now;
	else if (!pd && c->running)
		c->powered_ns += ktime_to_ns(ktime_sub(now, c->powered_since));
	c->running = pd;
	c->run_dr = dr;
	c->run_power_ups = ups;
	if (!pd)
		return;
	if (dr == LPS_DR_RESERVED)
		pr_notice_once("%s: reserved DR code 10 in use (variant dr10)\n",
			       LPS_SIM_NAME);
	hrtimer_start(&c->timer, ns_to_ktime(period), HRTIMER_MODE_REL);
}

static int lps_sim_fault(struct lps_sim_chip *c)
{
	c->fault_seq++;
	if (c->fault_eio_at && !--c->fault_eio_at)
		return -EIO;
	if (ktime_before(ktime_get(), c->turn_on_until))
		return -ENXIO;
	if (c->fault_nak) {
		c->fault_nak--;
		return -ENXIO;
	}
	if (c->fault_eio) {
		c->fault_eio--;
		return -EIO;
	}
	if (c->fault_nak_every && c->fault_seq % c->fault_nak_every == 0)
		return -ENXIO;
	if (c->fault_eio_every && c->fault_seq % c->fault_eio_every == 0)
		return -EIO;
	return 0;
}

static void lps_sim_msg(struct lps_sim_chip *c, struct i2c_msg *msg)
{
	struct lps_model *m = &c->model;
	unsigned long flags, fire;
	u16 i;
	u8 reg;

	/*
	 * One message is atomic with respect to sampling, so a burst read
	 * never tears; separate transfers can.
	 */
	spin_lock_irqsave(&c->lock, flags);
	if (msg->flags & I2C_M_RD) {
		for (i = 0; i < msg->len; i++) {
			u8 val = lps_model_read_next(m, &reg);

			if (reg == LPS_REG_WHO_AM_I && c->fault_whoami >= 0)
				val = c->fault_whoami;
			else if (reg == LPS_REG_STATUS && c->fault_stuck_status)
				val = 0;
			msg->buf[i] = val;
		}
	} else if (msg->len) {
		lps_model_set_sub(m, msg->buf[0]);
		for (i = 1; i < msg->len; i++)
			lps_model_write_next(m, msg->buf[i]);
	}
	c->bytes += msg->len;
	fire = lps_sim_pads(c);
	spin_unlock_irqrestore(&c->lock, flags);

	lps_sim_fire(c->sim, fire);
}

static int lps_sim_xfer(struct i2c_adapter *adap, struct i2c_msg *msgs,
			int num)
{
	struct lps_sim *sim = i2c_get_adapdata(adap);
	unsigned int idx, delay_us = 0;
	unsigned long used = 0;
	struct lps_sim_chip *c;
	int i, ret;

	for (i = 0; i < num; i++) {
		c = lps_sim_chip_at(sim, msgs[i].addr, msgs[i].flags);
		if (!c)
			return -ENXIO;
		if (msgs[i].flags & I2C_M_RECV_LEN)
			return -EOPNOTSUPP;
		used |= BIT(c->index);
		delay_us = max(delay_us, READ_ONCE(c->fault_delay_us));
	}

	/* A real adapter sleeps while the bytes go out: so does this one */
	if (delay_us)
		usleep_range(delay_us, delay_us + delay_us / 4 + 1);

	mutex_lock(&sim->lock);
	for_each_set_bit(idx, &used, LPS_SIM_NUM_CHIPS) {
		c = &sim->chip[idx];
		spin_lock_irq(&c->lock);
		c->transfers++;
		spin_unlock_irq(&c->lock);
		ret = lps_sim_fault(c);
		if (ret)
			goto out;
	}
	for (i = 0; i < num; i++)
		lps_sim_msg(lps_sim_chip_at(sim, msgs[i].addr, msgs[i].flags),
			    &msgs[i]);
	for_each_set_bit(idx, &used, LPS_SIM_NUM_CHIPS)
		lps_sim_sync(&sim->chip[idx]);
	ret = num;
out:
	mutex_unlock(&sim->lock);
	return ret;
}

static u32 lps_sim_func(struct i2c_adapter *adap)
{
	return I2C_FUNC_I2C | I2C_FUNC_SMBUS_EMUL;
}

static const struct i2c_algorithm lps_sim_algo = {
	.master_xfer	= lps_sim_xfer,
	.functionality	= lps_sim_func,
};

/* ---- debugfs helpers ---- */

static ssize_t lps_sim_get_cmd(const char __user *ubuf, size_t count,
			       char *buf)
{
	if (count >= LPS_SIM_CMD_MAX)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	return count;
}

/* Next whitespace-separated token, or NULL at the end. */
static char *lps_sim_token(char **s)
{
	char *tok;

	if (!*s)
		return NULL;
	*s = skip_spaces(*s);
	if (!**s)
		return NULL;
	tok = *s;
	while (**s && !isspace(**s))
		(*s)++;
	if (**s)
		*(*s)++ = '\0';
	return tok;
}

static int lps_sim_s32(char **s, s32 min, s32 max, s32 *val)
{
	char *tok = lps_sim_token(s);
	int ret;

	if (!tok)
		return -EINVAL;
	ret = kstrtos32(tok, 0, val);
	if (ret)
		return ret;
	return (*val < min || *val > max) ? -EINVAL : 0;
}

static int lps_sim_end(char **s)
{
	return lps_sim_token(s) ? -EINVAL : 0;
}

#define LPS_SIM_FOPS(name)						\
static int name##_open(struct inode *inode, struct file *file)		\
{									\
	return single_open(file, name##_show, inode->i_private);	\
}									\
static const struct file_operations name##_fops = {			\
	.owner		= THIS_MODULE,					\
	.open		= name##_open,					\
	.read		= seq_read,					\
	.write		= name##_write,					\
	.llseek		= seq_lseek,					\
	.release	= single_release,				\
}

static struct lps_sim_chip *lps_sim_file_chip(struct file *file)
{
	return ((struct seq_file *)file->private_data)->private;
}

/* ---- per-chip files ---- */

static int lps_sim_regs_show(struct seq_file *sf, void *v)
{
	struct lps_sim_chip *c = sf->private;
	u8 regs[LPS_SIM_DUMP_REGS];
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&c->lock, flags);
	for (i = 0; i < LPS_SIM_DUMP_REGS; i++)
		regs[i] = lps_model_peek(&c->model, i);
	spin_unlock_irqrestore(&c->lock, flags);

	for (i = 0; i < LPS_SIM_DUMP_REGS; i++)
		seq_printf(sf, "0x%02x 0x%02x\n", i, regs[i]);
	return 0;
}

static ssize_t lps_sim_regs_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	struct lps_sim_chip *c = lps_sim_file_chip(file);
	char buf[LPS_SIM_CMD_MAX], *s = buf;
	s32 reg, val;
	ssize_t ret;

	ret = lps_sim_get_cmd(ubuf, count, buf);
	if (ret < 0)
		return ret;
	if (lps_sim_s32(&s, 0, LPS_NUM_ADDRS - 1, &reg) ||
	    lps_sim_s32(&s, 0, 0xff, &val) || lps_sim_end(&s))
		return -EINVAL;

	mutex_lock(&c->sim->lock);
	spin_lock_irq(&c->lock);
	lps_model_poke(&c->model, reg, val);
	spin_unlock_irq(&c->lock);
	lps_sim_update_pads(c);
	lps_sim_sync(c);
	mutex_unlock(&c->sim->lock);
	return count;
}

LPS_SIM_FOPS(lps_sim_regs);

static int lps_sim_stimulus_show(struct seq_file *sf, void *v)
{
	struct lps_sim_chip *c = sf->private;
	struct lps_stimulus s;

	spin_lock_irq(&c->lock);
	s = c->model.stim;
	spin_unlock_irq(&c->lock);

	switch (s.mode) {
	case LPS_STIM_CONST:
		seq_printf(sf, "const %d %d\n", s.p0, s.t0);
		break;
	case LPS_STIM_RAMP:
		seq_printf(sf, "ramp %d %d %d %d\n", s.p0, s.dp, s.t0, s.dt);
		break;
	case LPS_STIM_COUNTER:
		seq_printf(sf, "counter %d %d\n", s.p0, s.t0);
		break;
	}
	return 0;
}

static ssize_t lps_sim_stimulus_write(struct file *file,
				      const char __user *ubuf, size_t count,
				      loff_t *ppos)
{
	struct lps_sim_chip *c = lps_sim_file_chip(file);
	char buf[LPS_SIM_CMD_MAX], *s = buf, *mode;
	enum lps_stim_mode m;
	s32 p0, t0, dp = 0, dt = 0;
	ssize_t ret;

	ret = lps_sim_get_cmd(ubuf, count, buf);
	if (ret < 0)
		return ret;
	mode = lps_sim_token(&s);
	if (!mode)
		return -EINVAL;
	if (!strcmp(mode, "const"))
		m = LPS_STIM_CONST;
	else if (!strcmp(mode, "ramp"))
		m = LPS_STIM_RAMP;
	else if (!strcmp(mode, "counter"))
		m = LPS_STIM_COUNTER;
	else
		return -EINVAL;

	/* raw register values: P unsigned, T two's complement */
	if (lps_sim_s32(&s, 0, U16_MAX, &p0))
		return -EINVAL;
	if (m == LPS_STIM_RAMP && lps_sim_s32(&s, -U16_MAX, U16_MAX, &dp))
		return -EINVAL;
	if (lps_sim_s32(&s, S16_MIN, U16_MAX, &t0))
		return -EINVAL;
	if (m == LPS_STIM_RAMP && lps_sim_s32(&s, -U16_MAX, U16_MAX, &dt))
		return -EINVAL;
	if (lps_sim_end(&s))
		return -EINVAL;

	spin_lock_irq(&c->lock);
	lps_model_set_stimulus(&c->model, m, p0, dp, t0, dt);
	spin_unlock_irq(&c->lock);
	return count;
}

LPS_SIM_FOPS(lps_sim_stimulus);

static int lps_sim_delta_sign_show(struct seq_file *sf, void *v)
{
	struct lps_sim_chip *c = sf->private;
	bool p_minus_ref;

	spin_lock_irq(&c->lock);
	p_minus_ref = c->model.var.v[LPS_VAR_DELTA] == LPS_DELTA_P_MINUS_REF;
	spin_unlock_irq(&c->lock);
	seq_puts(sf, p_minus_ref ? "p-minus-ref\n" : "ref-minus-p\n");
	return 0;
}

static ssize_t lps_sim_delta_sign_write(struct file *file,
					const char __user *ubuf, size_t count,
					loff_t *ppos)
{
	struct lps_sim_chip *c = lps_sim_file_chip(file);
	char buf[LPS_SIM_CMD_MAX], *s = buf, *tok;
	bool p_minus_ref;
	ssize_t ret;

	ret = lps_sim_get_cmd(ubuf, count, buf);
	if (ret < 0)
		return ret;
	tok = lps_sim_token(&s);
	if (!tok || lps_sim_end(&s))
		return -EINVAL;
	if (!strcmp(tok, "ref-minus-p"))
		p_minus_ref = false;
	else if (!strcmp(tok, "p-minus-ref"))
		p_minus_ref = true;
	else
		return -EINVAL;

	spin_lock_irq(&c->lock);
	c->model.var.v[LPS_VAR_DELTA] = p_minus_ref ? LPS_DELTA_P_MINUS_REF :
						      LPS_DELTA_REF_MINUS_P;
	spin_unlock_irq(&c->lock);
	return count;
}

LPS_SIM_FOPS(lps_sim_delta_sign);

static int lps_sim_variant_show(struct seq_file *sf, void *v)
{
	struct lps_sim_chip *c = sf->private;
	struct lps_variant var;
	unsigned int id;

	spin_lock_irq(&c->lock);
	var = c->model.var;
	spin_unlock_irq(&c->lock);
	for (id = 0; id < LPS_NUM_VARS; id++)
		seq_printf(sf, "%s=%s\n", lps_var_names[id][0],
			   lps_var_names[id][var.v[id] + 1]);
	return 0;
}

/*
 * "key=value ...", or "default" for today's model; all or nothing. The
 * pads are re-evaluated at once; a rate applies from the next sample.
 */
static ssize_t lps_sim_variant_write(struct file *file,
				     const char __user *ubuf, size_t count,
				     loff_t *ppos)
{
	struct lps_sim_chip *c = lps_sim_file_chip(file);
	struct lps_variant var;
	char *buf, *s, *tok;
	ssize_t ret;

	if (count >= LPS_SIM_VARIANT_MAX)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	s = buf;

	mutex_lock(&c->sim->lock);
	spin_lock_irq(&c->lock);
	var = c->model.var;
	spin_unlock_irq(&c->lock);
	ret = -EINVAL;
	while ((tok = lps_sim_token(&s))) {
		if (!strcmp(tok, "default")) {
			memset(&var, 0, sizeof(var));
			ret = count;
		} else {
			ret = lps_variant_parse(&var, tok);
			if (ret)
				break;
			ret = count;
		}
	}
	if (ret == count) {
		spin_lock_irq(&c->lock);
		c->model.var = var;
		spin_unlock_irq(&c->lock);
		lps_sim_update_pads(c);
	}
	mutex_unlock(&c->sim->lock);
	kfree(buf);
	return ret;
}

LPS_SIM_FOPS(lps_sim_variant);

static int lps_sim_counters_show(struct seq_file *sf, void *v)
{
	struct lps_sim_chip *c = sf->private;
	struct lps_sim *sim = c->sim;
	u64 transfers, bytes, samples, ups, overruns, irqs[LPS_SIM_NUM_PADS], ns;
	u32 *rw;
	unsigned int i;

	rw = kmalloc_array(2 * LPS_NUM_ADDRS, sizeof(*rw), GFP_KERNEL);
	if (!rw)
		return -ENOMEM;

	mutex_lock(&sim->lock);
	ns = c->powered_ns;
	if (c->running)
		ns += ktime_to_ns(ktime_sub(ktime_get(), c->powered_since));
	spin_lock_irq(&c->lock);
	transfers = c->transfers;
	bytes = c->bytes;
	samples = c->model.samples;
	ups = c->model.power_ups;
	overruns = c->model.p_overruns;
	raw_spin_lock(&sim->line_lock);
	irqs[0] = c->irqs[0];
	irqs[1] = c->irqs[1];
	raw_spin_unlock(&sim->line_lock);
	memcpy(rw, c->model.reads, sizeof(c->model.reads));
	memcpy(rw + LPS_NUM_ADDRS, c->model.writes, sizeof(c->model.writes));
	spin_unlock_irq(&c->lock);
	mutex_unlock(&sim->lock);

	seq_printf(sf, "transfers %llu\n", transfers);
	seq_printf(sf, "bytes %llu\n", bytes);
	seq_printf(sf, "samples %llu\n", samples);
	seq_printf(sf, "power_ups %llu\n", ups);
	seq_printf(sf, "p_overruns %llu\n", overruns);
	seq_printf(sf, "powered_ms %llu\n", div_u64(ns, NSEC_PER_MSEC));
	seq_printf(sf, "irqs_int1 %llu\n", irqs[0]);
	seq_printf(sf, "irqs_int2 %llu\n", irqs[1]);
	for (i = 0; i < LPS_NUM_ADDRS; i++)
		if (rw[i])
			seq_printf(sf, "read_0x%02x %u\n", i, rw[i]);
	for (i = 0; i < LPS_NUM_ADDRS; i++)
		if (rw[LPS_NUM_ADDRS + i])
			seq_printf(sf, "write_0x%02x %u\n", i,
				   rw[LPS_NUM_ADDRS + i]);
	kfree(rw);
	return 0;
}

static ssize_t lps_sim_counters_write(struct file *file,
				      const char __user *ubuf, size_t count,
				      loff_t *ppos)
{
	struct lps_sim_chip *c = lps_sim_file_chip(file);
	char buf[LPS_SIM_CMD_MAX], *s = buf, *tok;
	ssize_t ret;

	ret = lps_sim_get_cmd(ubuf, count, buf);
	if (ret < 0)
		return ret;
	tok = lps_sim_token(&s);
	if (!tok || strcmp(tok, "0") || lps_sim_end(&s))
		return -EINVAL;

	mutex_lock(&c->sim->lock);
	c->powered_ns = 0;
	c->powered_since = ktime_get();
	spin_lock_irq(&c->lock);
	lps_model_reset_counters(&c->model);
	c->transfers = 0;
	c->bytes = 0;
	raw_spin_lock(&c->sim->line_lock);
	c->irqs[0] = 0;
	c->irqs[1] = 0;
	raw_spin_unlock(&c->sim->line_lock);
	spin_unlock_irq(&c->lock);
	/* the reset must not look like a power cycle to lps_sim_sync() */
	c->run_power_ups = 0;
	mutex_unlock(&c->sim->lock);
	return count;
}

LPS_SIM_FOPS(lps_sim_counters);

/* The raise times of the last INT1 interrupts, oldest first */
static int lps_sim_int1_times_show(struct seq_file *sf, void *v)
{
	struct lps_sim_chip *c = sf->private;
	u64 *ns, n, i;

	ns = kmalloc_array(LPS_SIM_INT1_LOG, sizeof(*ns), GFP_KERNEL);
	if (!ns)
		return -ENOMEM;

	raw_spin_lock_irq(&c->sim->line_lock);
	n = c->irqs[0];
	memcpy(ns, c->int1_ns, sizeof(c->int1_ns));
	raw_spin_unlock_irq(&c->sim->line_lock);

	for (i = n > LPS_SIM_INT1_LOG ? n - LPS_SIM_INT1_LOG : 0; i < n; i++)
		seq_printf(sf, "%llu\n", ns[i % LPS_SIM_INT1_LOG]);
	kfree(ns);
	return 0;
}

DEFINE_SHOW_ATTRIBUTE(lps_sim_int1_times);

/* Under sim->lock */
static void lps_sim_fault_clear(struct lps_sim_chip *c)
{
	c->fault_nak = 0;
	c->fault_eio = 0;
	c->fault_nak_every = 0;
	c->fault_eio_every = 0;
	c->fault_seq = 0;
	c->fault_whoami = -1;
	c->fault_stuck_status = false;
	c->fault_eio_at = 0;
	c->fault_turn_on_ms = 0;
	c->turn_on_until = 0;
	WRITE_ONCE(c->fault_delay_us, 0);
}

static int lps_sim_fault_show(struct seq_file *sf, void *v)
{
	struct lps_sim_chip *c = sf->private;

	mutex_lock(&c->sim->lock);
	seq_printf(sf, "nak %u\n", c->fault_nak);
	seq_printf(sf, "eio %u\n", c->fault_eio);
	seq_printf(sf, "nak_every %u\n", c->fault_nak_every);
	seq_printf(sf, "eio_every %u\n", c->fault_eio_every);
	if (c->fault_whoami >= 0)
		seq_printf(sf, "whoami 0x%02x\n", c->fault_whoami);
	else
		seq_puts(sf, "whoami off\n");
	seq_printf(sf, "stuck_status %d\n", c->fault_stuck_status);
	seq_printf(sf, "eio_at %u\n", c->fault_eio_at);
	seq_printf(sf, "turn_on_ms %u\n", c->fault_turn_on_ms);
	seq_printf(sf, "delay_us %u\n", c->fault_delay_us);
	mutex_unlock(&c->sim->lock);
	return 0;
}

static ssize_t lps_sim_fault_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	struct lps_sim_chip *c = lps_sim_file_chip(file);
	char buf[LPS_SIM_CMD_MAX], *s = buf, *cmd;
	unsigned int *target = NULL;
	s32 val = 0;
	ssize_t ret;

	ret = lps_sim_get_cmd(ubuf, count, buf);
	if (ret < 0)
		return ret;
	cmd = lps_sim_token(&s);
	if (!cmd)
		return -EINVAL;

	if (!strcmp(cmd, "nak"))
		target = &c->fault_nak;
	else if (!strcmp(cmd, "eio"))
		target = &c->fault_eio;
	else if (!strcmp(cmd, "nak_every"))
		target = &c->fault_nak_every;
	else if (!strcmp(cmd, "eio_every"))
		target = &c->fault_eio_every;
	else if (!strcmp(cmd, "eio_at"))
		target = &c->fault_eio_at;
	else if (!strcmp(cmd, "turn_on_ms"))
		target = &c->fault_turn_on_ms;

	if (!strcmp(cmd, "delay_us")) {
		if (lps_sim_s32(&s, 0, 100000, &val))
			return -EINVAL;
	} else if (target || !strcmp(cmd, "whoami")) {
		if (lps_sim_s32(&s, 0, target ? S32_MAX : 0xff, &val))
			return -EINVAL;
	} else if (strcmp(cmd, "stuck_status") && strcmp(cmd, "clear")) {
		return -EINVAL;
	}
	if (lps_sim_end(&s))
		return -EINVAL;

	mutex_lock(&c->sim->lock);
	if (target) {
		*target = val;
		/* "every Nth" counts from the moment it is set */
		c->fault_seq = 0;
	} else if (!strcmp(cmd, "whoami")) {
		c->fault_whoami = val;
	} else if (!strcmp(cmd, "stuck_status")) {
		c->fault_stuck_status = true;
	} else if (!strcmp(cmd, "delay_us")) {
		WRITE_ONCE(c->fault_delay_us, val);
	} else {
		lps_sim_fault_clear(c);
	}
	mutex_unlock(&c->sim->lock);
	return count;
}

LPS_SIM_FOPS(lps_sim_fault);

/* ---- client instantiation ---- */

static struct lps_sim_chip *lps_sim_parse_addr(struct lps_sim *sim, char **s)
{
	s32 addr;

	if (lps_sim_s32(s, 0, 0x7f, &addr))
		return NULL;
	return lps_sim_chip_at(sim, addr, 0);
}

/*
 * The client's properties. A software node would be shared with the
 * driver's IIO device, and 6.1 puts a shared node once too often when the
 * child's sysfs link failed (a KASAN use-after-free after failslab). This
 * node type has no reference count: the node lives from new_device until
 * the client, and every child with it, is unregistered.
 */
static struct lps_sim_node *lps_sim_to_node(const struct fwnode_handle *fwnode)
{
	return container_of(fwnode, struct lps_sim_node, fwnode);
}

static bool lps_sim_node_present(const struct fwnode_handle *fwnode,
				 const char *propname)
{
	const struct lps_sim_node *node = lps_sim_to_node(fwnode);

	if (!strcmp(propname, "drive-open-drain"))
		return node->open_drain;
	if (!strcmp(propname, "interrupt-names"))
		return node->int1_unmappable;
	return false;
}

static int lps_sim_node_read_strings(const struct fwnode_handle *fwnode,
				     const char *propname, const char **val,
				     size_t nval)
{
	if (strcmp(propname, "interrupt-names") ||
	    !lps_sim_to_node(fwnode)->int1_unmappable)
		return -EINVAL;
	if (!val)
		return 1;
	if (nval)
		val[0] = "int1";
	return min_t(size_t, nval, 1);
}

/* Like an interrupt specifier whose mapping fails: no IRQ number */
static int lps_sim_node_irq_get(const struct fwnode_handle *fwnode,
				unsigned int index)
{
	return 0;
}

static const struct fwnode_operations lps_sim_node_ops = {
	.property_present = lps_sim_node_present,
#if KERNEL_VERSION(6, 14, 0) <= LINUX_VERSION_CODE
	/* a flag's presence is its value; 6.14 reads booleans with this op */
	.property_read_bool = lps_sim_node_present,
#endif
	.property_read_string_array = lps_sim_node_read_strings,
	.irq_get = lps_sim_node_irq_get,
};

/*
 * A vdd supply of the client's own, for a chip with a turn-on time: the
 * chip NAKs until turn_on_ms after the driver enables it. A regulator
 * mapped to the client by name, registered only when the fault is armed.
 */
struct lps_sim_supply {
	struct lps_sim_chip *chip;
	unsigned int turn_on_ms;
	bool on;
	struct regulator_dev *rdev;
	struct regulator_desc desc;
	struct regulator_init_data init;
	struct regulator_consumer_supply consumer;
	char name[32];
	char dev_name[32];
};

static int lps_sim_supply_enable(struct regulator_dev *rdev)
{
	struct lps_sim_supply *supply = rdev_get_drvdata(rdev);
	struct lps_sim_chip *c = supply->chip;

	mutex_lock(&c->sim->lock);
	c->turn_on_until = ktime_add_ms(ktime_get(), supply->turn_on_ms);
	mutex_unlock(&c->sim->lock);
	supply->on = true;
	return 0;
}

static int lps_sim_supply_disable(struct regulator_dev *rdev)
{
	struct lps_sim_supply *supply = rdev_get_drvdata(rdev);

	supply->on = false;
	return 0;
}

static int lps_sim_supply_is_enabled(struct regulator_dev *rdev)
{
	struct lps_sim_supply *supply = rdev_get_drvdata(rdev);

	return supply->on;
}

static const struct regulator_ops lps_sim_supply_ops = {
	.enable = lps_sim_supply_enable,
	.disable = lps_sim_supply_disable,
	.is_enabled = lps_sim_supply_is_enabled,
};

static struct lps_sim_supply *lps_sim_supply_add(struct lps_sim_chip *c,
						 unsigned int turn_on_ms)
{
	struct regulator_config config = { };
	struct lps_sim_supply *supply;

	supply = kzalloc(sizeof(*supply), GFP_KERNEL);
	if (!supply)
		return ERR_PTR(-ENOMEM);
	supply->chip = c;
	supply->turn_on_ms = turn_on_ms;
	snprintf(supply->name, sizeof(supply->name), "%s-%02x-vdd",
		 LPS_SIM_NAME, c->addr);
	/* the client's name, as the i2c core will give it */
	snprintf(supply->dev_name, sizeof(supply->dev_name), "%d-%04x",
		 i2c_adapter_id(&c->sim->adap), c->addr);
	supply->desc.name = supply->name;
	supply->desc.type = REGULATOR_VOLTAGE;
	supply->desc.owner = THIS_MODULE;
	supply->desc.ops = &lps_sim_supply_ops;
	supply->consumer.supply = "vdd";
	supply->consumer.dev_name = supply->dev_name;
	supply->init.constraints.valid_ops_mask = REGULATOR_CHANGE_STATUS;
	supply->init.consumer_supplies = &supply->consumer;
	supply->init.num_consumer_supplies = 1;
	config.dev = &c->sim->adap.dev;
	config.init_data = &supply->init;
	config.driver_data = supply;
	supply->rdev = regulator_register(&c->sim->adap.dev, &supply->desc,
					  &config);
	if (IS_ERR(supply->rdev)) {
		struct regulator_dev *rdev = supply->rdev;

		kfree(supply);
		return ERR_CAST(rdev);
	}
	return supply;
}

/* After the client: its driver has put the supply */
static void lps_sim_supply_remove(struct lps_sim_supply *supply)
{
	if (!supply)
		return;
	regulator_unregister(supply->rdev);
	kfree(supply);
}

static void lps_sim_remove_client(struct lps_sim_chip *c)
{
	i2c_unregister_device(c->client);
	c->client = NULL;
	lps_sim_supply_remove(c->node->supply);
	kfree(c->node);
	c->node = NULL;
}

static ssize_t lps_sim_new_device_write(struct file *file,
					const char __user *ubuf, size_t count,
					loff_t *ppos)
{
	struct lps_sim *sim = file->private_data;
	char buf[LPS_SIM_CMD_MAX], *s = buf, *tok;
	struct i2c_board_info info = { };
	unsigned int irq_type = IRQ_TYPE_NONE;
	bool open_drain = false, unmappable = false;
	unsigned int turn_on_ms;
	struct i2c_client *client;
	struct lps_sim_node *node;
	struct lps_sim_chip *c;
	ssize_t ret;

	ret = lps_sim_get_cmd(ubuf, count, buf);
	if (ret < 0)
		return ret;
	c = lps_sim_parse_addr(sim, &s);
	if (!c)
		return -EINVAL;
	while ((tok = lps_sim_token(&s))) {
		if (!strcmp(tok, "irq=rising"))
			irq_type = IRQ_TYPE_EDGE_RISING;
		else if (!strcmp(tok, "irq=falling"))
			irq_type = IRQ_TYPE_EDGE_FALLING;
		else if (!strcmp(tok, "open-drain"))
			open_drain = true;
		else if (!strcmp(tok, "int1=unmappable"))
			unmappable = true;
		else
			return -EINVAL;
	}

	node = kzalloc(sizeof(*node), GFP_KERNEL);
	if (!node)
		return -ENOMEM;
	fwnode_init(&node->fwnode, &lps_sim_node_ops);
	node->open_drain = open_drain;
	node->int1_unmappable = unmappable;

	strscpy(info.type, LPS_SIM_CLIENT_NAME, sizeof(info.type));
	info.addr = c->addr;
	info.fwnode = &node->fwnode;

	/*
	 * The driver probes inside i2c_new_client_device() and talks to the
	 * bus, so only the client mutex may be held here, not sim->lock.
	 */
	mutex_lock(&sim->clients_lock);
	if (c->client) {
		ret = -EBUSY;
		goto err_free;
	}
	if (irq_type != IRQ_TYPE_NONE) {
		ret = irq_set_irq_type(c->virq[0], irq_type);
		if (ret)
			goto err_free;
		info.irq = c->virq[0];
	}
	/* A turn-on time needs a supply the driver switches on */
	mutex_lock(&sim->lock);
	turn_on_ms = c->fault_turn_on_ms;
	c->fault_turn_on_ms = 0;
	mutex_unlock(&sim->lock);
	if (turn_on_ms) {
		node->supply = lps_sim_supply_add(c, turn_on_ms);
		if (IS_ERR(node->supply)) {
			ret = PTR_ERR(node->supply);
			node->supply = NULL;
			goto err_free;
		}
	}
	client = i2c_new_client_device(&sim->adap, &info);
	if (IS_ERR(client)) {
		ret = PTR_ERR(client);
		goto err_free;
	}
	c->client = client;
	c->node = node;
	mutex_unlock(&sim->clients_lock);
	return count;

err_free:
	mutex_unlock(&sim->clients_lock);
	lps_sim_supply_remove(node->supply);
	kfree(node);
	return ret;
}

static const struct file_operations lps_sim_new_device_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= lps_sim_new_device_write,
};

static ssize_t lps_sim_delete_device_write(struct file *file,
					   const char __user *ubuf,
					   size_t count, loff_t *ppos)
{
	struct lps_sim *sim = file->private_data;
	char buf[LPS_SIM_CMD_MAX], *s = buf;
	struct lps_sim_chip *c;
	ssize_t ret;

	ret = lps_sim_get_cmd(ubuf, count, buf);
	if (ret < 0)
		return ret;
	c = lps_sim_parse_addr(sim, &s);
	if (!c || lps_sim_end(&s))
		return -EINVAL;

	mutex_lock(&sim->clients_lock);
	if (c->client) {
		lps_sim_remove_client(c);
		ret = count;
	} else {
		ret = -ENODEV;
	}
	mutex_unlock(&sim->clients_lock);
	return ret;
}

static const struct file_operations lps_sim_delete_device_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= lps_sim_delete_device_write,
};

/* ---- module set-up ---- */

/* Power-on state for one chip: model, timers, counters and faults. */
void lps_sim_chip_reset(struct lps_sim_chip *c)
{
	unsigned int pad;

	mutex_lock(&c->sim->lock);
	spin_lock_irq(&c->lock);
	lps_model_init(&c->model);
	spin_unlock_irq(&c->lock);
	lps_sim_sync(c);
	hrtimer_cancel(&c->boot_timer);
	spin_lock_irq(&c->lock);
	raw_spin_lock(&c->sim->line_lock);
	for (pad = 0; pad < LPS_SIM_NUM_PADS; pad++) {
		c->pad_out[pad] = 0;
		c->irqs[pad] = 0;
		c->sim->line[c->index * LPS_SIM_NUM_PADS + pad] = 0;
	}
	c->active_low = false;
	c->int1_shared = false;
	raw_spin_unlock(&c->sim->line_lock);
	c->transfers = 0;
	c->bytes = 0;
	spin_unlock_irq(&c->lock);
	c->powered_ns = 0;
	c->run_power_ups = 0;
	lps_sim_fault_clear(c);
	mutex_unlock(&c->sim->lock);
}

/* The per-chip directories: <prefix><addr>/ under parent */
static void lps_sim_debugfs_chips(struct lps_sim *sim, struct dentry *parent,
				  const char *prefix)
{
	unsigned int i;

	for (i = 0; i < LPS_SIM_NUM_CHIPS; i++) {
		struct lps_sim_chip *c = &sim->chip[i];
		struct dentry *dir;
		char name[16];

		snprintf(name, sizeof(name), "%s%02x", prefix, c->addr);
		dir = debugfs_create_dir(name, parent);
		debugfs_create_file("regs", 0600, dir, c, &lps_sim_regs_fops);
		debugfs_create_file("stimulus", 0600, dir, c,
				    &lps_sim_stimulus_fops);
		debugfs_create_file("delta_sign", 0600, dir, c,
				    &lps_sim_delta_sign_fops);
		debugfs_create_file("variant", 0600, dir, c,
				    &lps_sim_variant_fops);
		debugfs_create_file("counters", 0600, dir, c,
				    &lps_sim_counters_fops);
		debugfs_create_file("fault", 0600, dir, c,
				    &lps_sim_fault_fops);
		debugfs_create_file("int1_times", 0400, dir, c,
				    &lps_sim_int1_times_fops);
		c->dir = dir;
	}
}

static void lps_sim_debugfs_init(struct lps_sim *sim)
{
	sim->root = debugfs_create_dir(LPS_SIM_NAME, NULL);
	debugfs_create_file("new_device", 0200, sim->root, sim,
			    &lps_sim_new_device_fops);
	debugfs_create_file("delete_device", 0200, sim->root, sim,
			    &lps_sim_delete_device_fops);
	lps_sim_debugfs_chips(sim, sim->root, "");
}

static void lps_sim_chip_init(struct lps_sim *sim, unsigned int i)
{
	struct lps_sim_chip *c = &sim->chip[i];

	c->sim = sim;
	c->index = i;
	c->addr = LPS_SIM_ADDR0 + i;
	spin_lock_init(&c->lock);
	lps_model_init(&c->model);
	c->fault_whoami = -1;
	hrtimer_setup(&c->timer, lps_sim_sample_fn, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	hrtimer_setup(&c->boot_timer, lps_sim_boot_fn, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
}

/*
 * The simulator's interrupt controller, for every instance: lines that fire
 * when set pending from a hard irq_work (as irq_sim), with a two-cell
 * <hwirq type> xlate so that a DT interrupt specifier carries its trigger
 * type (irq_sim's domain has no xlate and would drop it), and level types
 * when the chip's variant is irq=level (irq_sim is edge-only). The core
 * tracks masking; lps_sim_lines() skips masked lines, and unmasking a
 * level line that is still active fires it again, which is what an
 * IRQF_ONESHOT handler relies on.
 */
static void lps_sim_irq_mask(struct irq_data *d)
{
}

static void lps_sim_irq_unmask(struct irq_data *d)
{
	struct lps_sim *sim = irq_data_get_irq_chip_data(d);
	unsigned int h = irqd_to_hwirq(d);
	u32 type = irqd_get_trigger_type(d);
	unsigned long flags;
	bool active;

	if (!(type & IRQ_TYPE_LEVEL_MASK))
		return;
	raw_spin_lock_irqsave(&sim->line_lock, flags);
	active = sim->line[h] == !!(type & IRQ_TYPE_LEVEL_HIGH);
	if (active)
		lps_sim_count_irq(&sim->chip[h / LPS_SIM_NUM_PADS],
				  h % LPS_SIM_NUM_PADS);
	raw_spin_unlock_irqrestore(&sim->line_lock, flags);
	/* the descriptor lock is held: no irq_set_irqchip_state() here */
	if (active) {
		set_bit(h, &sim->irq_pending);
		irq_work_queue(&sim->irq_work);
	}
}

/*
 * irq=edge: edge types only. irq=level: level types only, an edge asked
 * for becomes the level of the same sense (rising -> high).
 */
static int lps_sim_irq_set_type(struct irq_data *d, unsigned int type)
{
	struct lps_sim *sim = irq_data_get_irq_chip_data(d);
	struct lps_sim_chip *c = &sim->chip[irqd_to_hwirq(d) / LPS_SIM_NUM_PADS];
	bool level = READ_ONCE(c->model.var.v[LPS_VAR_IRQ]) == LPS_IRQ_LEVEL;

	if (!level && (type & ~IRQ_TYPE_EDGE_BOTH))
		return -EINVAL;
	if (level) {
		if (type == IRQ_TYPE_EDGE_BOTH)
			return -EINVAL;
		if (type & IRQ_TYPE_EDGE_RISING)
			type = IRQ_TYPE_LEVEL_HIGH;
		else if (type & IRQ_TYPE_EDGE_FALLING)
			type = IRQ_TYPE_LEVEL_LOW;
	}
	irqd_set_trigger_type(d, type);
	irq_set_handler_locked(d, type & IRQ_TYPE_LEVEL_MASK ?
			       handle_level_irq : handle_simple_irq);
	/* the type may differ from the one asked for: keep ours */
	return IRQ_SET_MASK_OK_NOCOPY;
}

static int lps_sim_irq_get_state(struct irq_data *d,
				 enum irqchip_irq_state which, bool *state)
{
	struct lps_sim *sim = irq_data_get_irq_chip_data(d);

	if (which != IRQCHIP_STATE_PENDING)
		return -EINVAL;
	/* as irq_sim: a masked line leaves *state alone */
	if (!irqd_irq_masked(d))
		*state = test_bit(irqd_to_hwirq(d), &sim->irq_pending);
	return 0;
}

static int lps_sim_irq_set_state(struct irq_data *d,
				 enum irqchip_irq_state which, bool state)
{
	struct lps_sim *sim = irq_data_get_irq_chip_data(d);

	if (which != IRQCHIP_STATE_PENDING)
		return -EINVAL;
	if (state) {
		set_bit(irqd_to_hwirq(d), &sim->irq_pending);
		irq_work_queue(&sim->irq_work);
	} else {
		clear_bit(irqd_to_hwirq(d), &sim->irq_pending);
	}
	return 0;
}

static const struct irq_chip lps_sim_irq_chip = {
	.name			= LPS_SIM_NAME,
	.irq_mask		= lps_sim_irq_mask,
	.irq_unmask		= lps_sim_irq_unmask,
	.irq_set_type		= lps_sim_irq_set_type,
	.irq_get_irqchip_state	= lps_sim_irq_get_state,
	.irq_set_irqchip_state	= lps_sim_irq_set_state,
};

/* hard irq_work: runs the handlers in hard interrupt context */
static void lps_sim_irq_work(struct irq_work *work)
{
	struct lps_sim *sim = container_of(work, struct lps_sim, irq_work);
	unsigned int hwirq;

	for (hwirq = 0; hwirq < LPS_SIM_NUM_IRQS; hwirq++)
		if (test_and_clear_bit(hwirq, &sim->irq_pending))
			generic_handle_domain_irq(sim->domain, hwirq);
}

static int lps_sim_irq_map(struct irq_domain *d, unsigned int virq,
			   irq_hw_number_t hwirq)
{
	irq_set_chip_data(virq, d->host_data);
	irq_set_chip_and_handler(virq, &lps_sim_irq_chip, handle_simple_irq);
	irq_modify_status(virq, IRQ_NOREQUEST | IRQ_NOAUTOEN, IRQ_NOPROBE);
	return 0;
}

static void lps_sim_irq_unmap(struct irq_domain *d, unsigned int virq)
{
	irq_set_chip_and_handler(virq, NULL, NULL);
	irq_set_chip_data(virq, NULL);
}

static const struct irq_domain_ops lps_sim_irq_ops = {
	.map	= lps_sim_irq_map,
	.unmap	= lps_sim_irq_unmap,
	.xlate	= irq_domain_xlate_twocell,
};

static void lps_sim_irq_teardown(struct lps_sim *sim)
{
	unsigned int i, pad;

	irq_work_sync(&sim->irq_work);
	for (i = 0; i < LPS_SIM_NUM_CHIPS; i++)
		for (pad = 0; pad < LPS_SIM_NUM_PADS; pad++)
			if (sim->chip[i].virq[pad])
				irq_dispose_mapping(sim->chip[i].virq[pad]);
	if (sim->np) {
		/* the OF node is not ours: the domain dropped its reference */
		irq_domain_remove(sim->domain);
	} else {
		irq_domain_remove(sim->domain);
		irq_domain_free_fwnode(sim->fwnode);
	}
}

/*
 * The OF instance's domain has the DT node as its fwnode, so its children's
 * specifiers resolve here with their type; the others have a named fwnode.
 */
static int lps_sim_irq_init(struct lps_sim *sim)
{
	unsigned int i, pad;

	sim->irq_work = IRQ_WORK_INIT_HARD(lps_sim_irq_work);
	if (sim->np)
		sim->fwnode = of_fwnode_handle(sim->np);
	else
		sim->fwnode = irq_domain_alloc_named_fwnode(LPS_SIM_NAME);
	if (!sim->fwnode)
		return -ENOMEM;
	sim->domain = irq_domain_create_linear(sim->fwnode, LPS_SIM_NUM_IRQS,
					       &lps_sim_irq_ops, sim);
	if (!sim->domain) {
		if (!sim->np)
			irq_domain_free_fwnode(sim->fwnode);
		return -ENOMEM;
	}

	/* INT1 of chip i is hwirq 2 * i, INT2 is 2 * i + 1 */
	for (i = 0; i < LPS_SIM_NUM_CHIPS; i++) {
		for (pad = 0; pad < LPS_SIM_NUM_PADS; pad++) {
			unsigned int virq;

			virq = irq_create_mapping(sim->domain,
						  i * LPS_SIM_NUM_PADS + pad);
			if (!virq) {
				lps_sim_irq_teardown(sim);
				return -ENOMEM;
			}
			sim->chip[i].virq[pad] = virq;
		}
	}
	return 0;
}

/*
 * Forgets the trigger types that DT consumers set on lines they no longer
 * use, so that a later overlay may ask for another one: irqdomain refuses
 * to remap a line whose type is set and differs.
 */
void lps_sim_forget_irq_types(struct lps_sim *sim)
{
	unsigned int i, pad;

	for (i = 0; i < LPS_SIM_NUM_CHIPS; i++)
		for (pad = 0; pad < LPS_SIM_NUM_PADS; pad++)
			if (!irq_has_action(sim->chip[i].virq[pad]))
				irq_set_irq_type(sim->chip[i].virq[pad],
						 IRQ_TYPE_NONE);
}

/*
 * A complete simulator: adapter, chips and interrupt lines. With dev, the
 * adapter and the IRQ domain take dev's DT node, so the i2c core makes
 * clients for its children (also ones an overlay adds later) and their
 * interrupt specifiers resolve to the chips' lines.
 */
static struct lps_sim *lps_sim_new(const char *name, struct device *dev)
{
	struct lps_sim *sim;
	unsigned int i;
	int ret;

	sim = kzalloc(sizeof(*sim), GFP_KERNEL);
	if (!sim)
		return ERR_PTR(-ENOMEM);
	mutex_init(&sim->lock);
	mutex_init(&sim->clients_lock);
	raw_spin_lock_init(&sim->line_lock);
	for (i = 0; i < LPS_SIM_NUM_CHIPS; i++)
		lps_sim_chip_init(sim, i);
	sim->np = dev ? dev->of_node : NULL;

	ret = lps_sim_irq_init(sim);
	if (ret)
		goto err_free;

	sim->adap.owner = THIS_MODULE;
	sim->adap.algo = &lps_sim_algo;
	sim->adap.dev.parent = dev;
	sim->adap.dev.of_node = sim->np;
	strscpy(sim->adap.name, name, sizeof(sim->adap.name));
	i2c_set_adapdata(&sim->adap, sim);
	ret = i2c_add_adapter(&sim->adap);
	if (ret)
		goto err_irq;
	return sim;

err_irq:
	lps_sim_irq_teardown(sim);
err_free:
	mutex_destroy(&sim->clients_lock);
	mutex_destroy(&sim->lock);
	kfree(sim);
	return ERR_PTR(ret);
}

/*
 * The module's own instance (control: with the debugfs control plane) or,
 * for the glue KUnit suite, which runs before the module's init, a private
 * one.
 */
struct lps_sim *lps_sim_create(const char *name, bool control)
{
	struct lps_sim *sim = lps_sim_new(name, NULL);

	if (!IS_ERR(sim) && control)
		lps_sim_debugfs_init(sim);
	return sim;
}

/*
 * The instance of a DT node (dev's): chip directories <prefix><addr>/
 * under parent.
 */
struct lps_sim *lps_sim_create_of(struct device *dev, const char *name,
				  struct dentry *parent, const char *prefix)
{
	struct lps_sim *sim = lps_sim_new(name, dev);

	if (!IS_ERR(sim))
		lps_sim_debugfs_chips(sim, parent, prefix);
	return sim;
}

void lps_sim_destroy(struct lps_sim *sim)
{
	unsigned int i;

	/* waits for debugfs writers, so no client can appear after this */
	for (i = 0; i < LPS_SIM_NUM_CHIPS; i++)
		debugfs_remove_recursive(sim->chip[i].dir);
	debugfs_remove_recursive(sim->root);

	/* drivers may still talk to the bus while they unbind */
	for (i = 0; i < LPS_SIM_NUM_CHIPS; i++)
		if (sim->chip[i].client)
			lps_sim_remove_client(&sim->chip[i]);
	i2c_del_adapter(&sim->adap);

	for (i = 0; i < LPS_SIM_NUM_CHIPS; i++) {
		hrtimer_cancel(&sim->chip[i].timer);
		hrtimer_cancel(&sim->chip[i].boot_timer);
	}
	lps_sim_irq_teardown(sim);
	mutex_destroy(&sim->clients_lock);
	mutex_destroy(&sim->lock);
	kfree(sim);
}

static int __init lps_sim_init(void)
{
	struct lps_sim *sim = lps_sim_create(LPS_SIM_NAME, true);
	int ret;

	if (IS_ERR(sim))
		return PTR_ERR(sim);
	ret = lps_sim_of_init(sim->root);
	if (ret) {
		lps_sim_destroy(sim);
		return ret;
	}
	lps_sim = sim;
	return 0;
}

static void __exit lps_sim_exit(void)
{
	/* overlays first: their clients sit on the DT instance's bus */
	lps_sim_of_exit();
	lps_sim_destroy(lps_sim);
}

module_init(lps_sim_init);
module_exit(lps_sim_exit);

MODULE_DESCRIPTION("ST LPS001WP I2C chip simulator (test only)");
MODULE_LICENSE("GPL");
