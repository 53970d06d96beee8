// SPDX-License-Identifier: GPL-2.0
/*
 * LPS001WP simulator: the clients new_device makes, with a firmware node
 * of the simulator's own and, for a turn-on time, a vdd supply.
 *
 * Test-only module.
 */

#include <linux/i2c.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/ktime.h>
#include <linux/property.h>
#include <linux/regulator/driver.h>
#include <linux/regulator/machine.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "lps001wp_sim.h"

#define LPS_SIM_CLIENT_NAME	"lps001wp"

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

void lps_sim_remove_client(struct lps_sim_chip *c)
{
	i2c_unregister_device(c->client);
	c->client = NULL;
	lps_sim_supply_remove(c->node->supply);
	kfree(c->node);
	c->node = NULL;
}

/*
 * A client "lps001wp" at chip @c's address; @irq_type IRQ_TYPE_NONE for no
 * interrupt. -EBUSY when the chip has one already.
 */
int lps_sim_new_client(struct lps_sim *sim, struct lps_sim_chip *c,
		       unsigned int irq_type, bool open_drain, bool unmappable)
{
	struct i2c_board_info info = { };
	unsigned int turn_on_ms;
	struct i2c_client *client;
	struct lps_sim_node *node;
	int ret;

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
		/* two shared INT1s are one wire, the first chip's line (lps_sim_lines()) */
		info.irq = c->index && READ_ONCE(c->model.var.v[LPS_VAR_SHARED]) &&
			   READ_ONCE(sim->chip[0].model.var.v[LPS_VAR_SHARED]) ?
			   sim->chip[0].virq[0] : c->virq[0];
		ret = irq_set_irq_type(info.irq, irq_type);
		if (ret)
			goto err_free;
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
	return 0;

err_free:
	mutex_unlock(&sim->clients_lock);
	lps_sim_supply_remove(node->supply);
	kfree(node);
	return ret;
}
