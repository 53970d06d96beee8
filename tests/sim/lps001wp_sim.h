/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel side of the LPS001WP simulator: an I2C adapter hosting two chips,
 * their sample timers and interrupt lines, and the debugfs control plane.
 */
#ifndef LPS001WP_SIM_H
#define LPS001WP_SIM_H

#include <linux/hrtimer.h>
#include <linux/i2c.h>
#include <linux/irq_work.h>
#include <linux/mutex.h>
#include <linux/property.h>
#include <linux/spinlock.h>
#include <linux/version.h>

#include "lps001wp_sim_model.h"

#define LPS_SIM_NUM_CHIPS	2
#define LPS_SIM_NUM_PADS	2
#define LPS_SIM_NUM_IRQS	(LPS_SIM_NUM_CHIPS * LPS_SIM_NUM_PADS)
/* INT1 interrupts whose raise time is kept (int1_times) */
#define LPS_SIM_INT1_LOG	64

struct dentry;
struct lps_sim;

/* hrtimer_setup() came in 6.13; hrtimer_init() is gone since. */
#if KERNEL_VERSION(6, 13, 0) > LINUX_VERSION_CODE
static inline void hrtimer_setup(struct hrtimer *timer,
				 enum hrtimer_restart (*fn)(struct hrtimer *),
				 clockid_t clock_id, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock_id, mode);
	timer->function = fn;
}
#endif

/*
 * Firmware node of one instantiated client: a node type of the simulator's
 * own (not a software node), so the driver's IIO device, which shares its
 * parent's node, takes no reference the core could drop twice.
 */
struct lps_sim_node {
	struct fwnode_handle fwnode;
	bool open_drain;	/* drive-open-drain */
	bool int1_unmappable;	/* interrupt-names = "int1", mapping fails */
	struct lps_sim_supply *supply;	/* vdd, with a turn-on time, or NULL */
};

struct lps_sim_supply;

struct lps_sim_chip {
	struct lps_sim *sim;
	unsigned int index;
	u16 addr;

	/*
	 * Guards the model and everything the sample timer touches; taken
	 * from hard interrupt context, so always with interrupts off.
	 */
	spinlock_t lock;
	struct lps_model model;
	u64 transfers;
	u64 bytes;

	/*
	 * Under sim->line_lock: what the pads drive (0, 1 or LPS_PAD_HIZ),
	 * the model's pad settings the lines need, interrupts delivered.
	 */
	int pad_out[LPS_SIM_NUM_PADS];
	bool active_low;
	bool int1_shared;
	u64 irqs[LPS_SIM_NUM_PADS];
	/* CLOCK_MONOTONIC ns of INT1 interrupt n at [n % LPS_SIM_INT1_LOG] */
	u64 int1_ns[LPS_SIM_INT1_LOG];

	/* The rest is process context only, under sim->lock. */
	struct hrtimer timer;
	struct hrtimer boot_timer;
	bool running;
	unsigned int run_dr;
	u64 run_power_ups;
	ktime_t powered_since;
	u64 powered_ns;

	unsigned int fault_nak;
	unsigned int fault_eio;
	unsigned int fault_nak_every;
	unsigned int fault_eio_every;
	u64 fault_seq;
	int fault_whoami;		/* -1: no override */
	bool fault_stuck_status;
	unsigned int fault_eio_at;	/* countdown to one failing transfer */
	int fault_after_reg;		/* eio_after: armed by a write to it, -1: off */
	unsigned int fault_after_n;	/* then this many transfers fail (eio) */
	unsigned int fault_turn_on_ms;	/* for the next new_device's vdd */
	ktime_t turn_on_until;		/* NAKs everything before this */
	unsigned int fault_delay_us;	/* read locklessly by lps_sim_xfer */
	u64 fault_fired;		/* transfers failed since the last arming */
	int fault_fired_reg;		/* the first one's register, -1: none */

	unsigned int virq[LPS_SIM_NUM_PADS];
	struct i2c_client *client;
	struct lps_sim_node *node;
	struct dentry *dir;
};

struct lps_sim {
	struct i2c_adapter adap;
	struct fwnode_handle *fwnode;
	struct irq_domain *domain;
	/* DT node of the adapter and the IRQ domain (OF instance), or NULL */
	struct device_node *np;
	/* lines set pending (bit = hwirq), delivered by irq_work */
	unsigned long irq_pending;
	/*
	 * Guards the line levels and what the chips' pads drive; taken
	 * inside chip->lock and inside the IRQ descriptor lock (unmask).
	 */
	raw_spinlock_t line_lock;
	int line[LPS_SIM_NUM_IRQS];	/* level on the wire, by hwirq */
	struct irq_work irq_work;
	struct dentry *root;
	/* Serialises bus transfers, debugfs commands and timer set-up. */
	struct mutex lock;
	/* Serialises new_device/delete_device; held across driver probe. */
	struct mutex clients_lock;
	struct lps_sim_chip chip[LPS_SIM_NUM_CHIPS];
};

#define LPS_SIM_NAME		"lps001wp-sim"
#define LPS_SIM_ADDR0		0x5c

/* lps001wp_sim_main.c: the adapter, the chips' timers, the instances */
struct lps_sim_chip *lps_sim_chip_at(struct lps_sim *sim, u16 addr, u16 flags);
void lps_sim_sync(struct lps_sim_chip *c);
struct lps_sim *lps_sim_create(const char *name, bool control);
struct lps_sim *lps_sim_create_of(struct device *dev, const char *name,
				  struct dentry *parent, const char *prefix);
void lps_sim_destroy(struct lps_sim *sim);
void lps_sim_chip_reset(struct lps_sim_chip *c);

/* lps001wp_sim_irq.c: pads, lines and the interrupt controller */
unsigned long lps_sim_pads(struct lps_sim_chip *c);
void lps_sim_fire(struct lps_sim *sim, unsigned long fire);
void lps_sim_update_pads(struct lps_sim_chip *c);
int lps_sim_irq_init(struct lps_sim *sim);
void lps_sim_irq_teardown(struct lps_sim *sim);
void lps_sim_forget_irq_types(struct lps_sim *sim);

/* lps001wp_sim_debugfs.c: the control plane */
void lps_sim_debugfs_init(struct lps_sim *sim);
void lps_sim_debugfs_chips(struct lps_sim *sim, struct dentry *parent,
			   const char *prefix);
void lps_sim_fault_clear(struct lps_sim_chip *c);

/* lps001wp_sim_client.c: the clients of new_device/delete_device */
int lps_sim_new_client(struct lps_sim *sim, struct lps_sim_chip *c,
		       unsigned int irq_type, bool open_drain, bool unmappable);
void lps_sim_remove_client(struct lps_sim_chip *c);

/* lps001wp_sim_of.c: the DT instance and the overlay files */
int lps_sim_of_init(struct dentry *root);
void lps_sim_of_exit(void);

#endif /* LPS001WP_SIM_H */
