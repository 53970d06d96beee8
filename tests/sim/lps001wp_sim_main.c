// SPDX-License-Identifier: GPL-2.0
/*
 * LPS001WP simulator: an I2C adapter "lps001wp-sim" with two emulated chips
 * at 0x5c and 0x5d and their sample timers; the interrupt lines are in
 * lps001wp_sim_irq.c, the debugfs control plane in lps001wp_sim_debugfs.c
 * (see README.md beside this file). The same machinery makes the
 * device-tree instance of lps001wp_sim_of.c.
 *
 * Test-only module.
 */

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "lps001wp_sim.h"

static struct lps_sim *lps_sim;

struct lps_sim_chip *lps_sim_chip_at(struct lps_sim *sim, u16 addr, u16 flags)
{
	if (flags & I2C_M_TEN)
		return NULL;
	if (addr < LPS_SIM_ADDR0 || addr >= LPS_SIM_ADDR0 + LPS_SIM_NUM_CHIPS)
		return NULL;
	return &sim->chip[addr - LPS_SIM_ADDR0];
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
void lps_sim_sync(struct lps_sim_chip *c)
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
		if (ret) {
			/*
			 * The first one's register (SUB, the first byte written):
			 * what a driver does after a failure fails too under
			 * eio_every, and must not hide what failed first.
			 */
			if (!c->fault_fired++)
				c->fault_fired_reg = !(msgs[0].flags & I2C_M_RD) && msgs[0].len ?
						     msgs[0].buf[0] & 0x7f : -1;
			goto out;
		}
	}
	for (i = 0; i < num; i++)
		lps_sim_msg(lps_sim_chip_at(sim, msgs[i].addr, msgs[i].flags),
			    &msgs[i]);
	/* eio_after: a write to its register that went through arms "eio N" */
	for_each_set_bit(idx, &used, LPS_SIM_NUM_CHIPS) {
		c = &sim->chip[idx];
		if (c->fault_after_reg >= 0 && !(msgs[0].flags & I2C_M_RD) && msgs[0].len &&
		    (msgs[0].buf[0] & 0x7f) == c->fault_after_reg) {
			c->fault_eio = c->fault_after_n;
			c->fault_after_reg = -1;
		}
	}
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

static void lps_sim_chip_init(struct lps_sim *sim, unsigned int i)
{
	struct lps_sim_chip *c = &sim->chip[i];

	c->sim = sim;
	c->index = i;
	c->addr = LPS_SIM_ADDR0 + i;
	spin_lock_init(&c->lock);
	lps_model_init(&c->model);
	c->fault_whoami = -1;
	c->fault_after_reg = -1;
	c->fault_fired_reg = -1;
	hrtimer_setup(&c->timer, lps_sim_sample_fn, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	hrtimer_setup(&c->boot_timer, lps_sim_boot_fn, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
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
