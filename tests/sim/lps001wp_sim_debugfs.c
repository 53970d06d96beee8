// SPDX-License-Identifier: GPL-2.0
/*
 * LPS001WP simulator: the debugfs control plane. Per chip its registers,
 * stimulus, variant, counters, INT1 times and faults; per instance
 * new_device/delete_device, whose clients lps001wp_sim_client.c makes.
 *
 * Test-only module.
 */

#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "lps001wp_sim.h"

#define LPS_SIM_CMD_MAX		128
/* every switch with its longest value fits */
#define LPS_SIM_VARIANT_MAX	512
#define LPS_SIM_DUMP_REGS	0x40

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
void lps_sim_fault_clear(struct lps_sim_chip *c)
{
	c->fault_nak = 0;
	c->fault_eio = 0;
	c->fault_nak_every = 0;
	c->fault_eio_every = 0;
	c->fault_seq = 0;
	c->fault_whoami = -1;
	c->fault_stuck_status = false;
	c->fault_eio_at = 0;
	c->fault_after_reg = -1;
	c->fault_after_n = 0;
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
	if (c->fault_after_reg >= 0)
		seq_printf(sf, "eio_after 0x%02x %u\n", c->fault_after_reg, c->fault_after_n);
	else
		seq_puts(sf, "eio_after off\n");
	seq_printf(sf, "turn_on_ms %u\n", c->fault_turn_on_ms);
	seq_printf(sf, "delay_us %u\n", c->fault_delay_us);
	seq_printf(sf, "fired %llu\n", c->fault_fired);
	if (c->fault_fired_reg >= 0)
		seq_printf(sf, "fired_reg 0x%02x\n", c->fault_fired_reg);
	else
		seq_puts(sf, "fired_reg none\n");
	mutex_unlock(&c->sim->lock);
	return 0;
}

static ssize_t lps_sim_fault_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	struct lps_sim_chip *c = lps_sim_file_chip(file);
	char buf[LPS_SIM_CMD_MAX], *s = buf, *cmd;
	unsigned int *target = NULL;
	s32 val = 0, n = 0;
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
	} else if (!strcmp(cmd, "eio_after")) {
		if (lps_sim_s32(&s, 0, 0x7f, &val) || lps_sim_s32(&s, 1, S32_MAX, &n))
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
	/*
	 * Every write restarts the count, "clear" too: a suite that reads it
	 * for a chip it did not arm since finds 0, not an older fault's hits.
	 */
	c->fault_fired = 0;
	c->fault_fired_reg = -1;
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
	} else if (!strcmp(cmd, "eio_after")) {
		c->fault_after_reg = val;
		c->fault_after_n = n;
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

static ssize_t lps_sim_new_device_write(struct file *file,
					const char __user *ubuf, size_t count,
					loff_t *ppos)
{
	struct lps_sim *sim = file->private_data;
	char buf[LPS_SIM_CMD_MAX], *s = buf, *tok;
	unsigned int irq_type = IRQ_TYPE_NONE;
	bool open_drain = false, unmappable = false;
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

	ret = lps_sim_new_client(sim, c, irq_type, open_drain, unmappable);
	return ret ? ret : count;
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

/* The per-chip directories: <prefix><addr>/ under parent */
void lps_sim_debugfs_chips(struct lps_sim *sim, struct dentry *parent,
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

void lps_sim_debugfs_init(struct lps_sim *sim)
{
	sim->root = debugfs_create_dir(LPS_SIM_NAME, NULL);
	debugfs_create_file("new_device", 0200, sim->root, sim,
			    &lps_sim_new_device_fops);
	debugfs_create_file("delete_device", 0200, sim->root, sim,
			    &lps_sim_delete_device_fops);
	lps_sim_debugfs_chips(sim, sim->root, "");
}

