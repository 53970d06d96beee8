// SPDX-License-Identifier: GPL-2.0
/*
 * LPS001WP simulator: the interrupt lines. Each chip drives two pads (INT1,
 * INT2) whose levels make the lines of the simulator's own interrupt
 * controller; an edge or level that the line's trigger type asks for runs
 * its handler from a hard irq_work.
 *
 * Test-only module.
 */

#include <linux/bitops.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdomain.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/of.h>

#include "lps001wp_sim.h"

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
 * else at the pull's. With shared=1 on both chips the wire is one
 * interrupt, the first chip's line, as on a board. A floating pad alone
 * keeps the line where it was. Returns the lines to fire.
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

			if (c->index && o->int1_shared)
				continue;
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
unsigned long lps_sim_pads(struct lps_sim_chip *c)
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
void lps_sim_fire(struct lps_sim *sim, unsigned long fire)
{
	unsigned int h;

	if (!fire)
		return;
	for_each_set_bit(h, &fire, LPS_SIM_NUM_IRQS)
		set_bit(h, &sim->irq_pending);
	irq_work_queue(&sim->irq_work);
}

void lps_sim_update_pads(struct lps_sim_chip *c)
{
	unsigned long flags, fire;

	spin_lock_irqsave(&c->lock, flags);
	fire = lps_sim_pads(c);
	spin_unlock_irqrestore(&c->lock, flags);
	lps_sim_fire(c->sim, fire);
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

void lps_sim_irq_teardown(struct lps_sim *sim)
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
int lps_sim_irq_init(struct lps_sim *sim)
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

