// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite lps001wp_sim_glue: the adapter and the interrupt lines
 * around the register model (lps001wp_sim_test_model.c tests the model).
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/slab.h>

#include "lps001wp_sim.h"

/*
 * The glue, through a real adapter and real interrupt lines. KUnit runs
 * before the module's init, so the suite makes a simulator of its own.
 */
#define GLUE_ADDR	0x5d

static struct lps_sim *glue_sim;

static int glue_suite_init(struct kunit_suite *suite)
{
	glue_sim = lps_sim_create("lps001wp-sim-kunit", false);
	return PTR_ERR_OR_ZERO(glue_sim);
}

static void glue_suite_exit(struct kunit_suite *suite)
{
	if (!IS_ERR_OR_NULL(glue_sim))
		lps_sim_destroy(glue_sim);
	glue_sim = NULL;
}

struct glue_ctx {
	struct lps_sim *sim;
	struct lps_sim_chip *chip;
	struct completion irq_done;
	atomic_t threads;
	unsigned int virq;
	bool requested;
};

static int glue_write_at(struct glue_ctx *g, u16 addr, u8 reg, u8 val)
{
	u8 buf[2] = { reg, val };
	struct i2c_msg msg = { .addr = addr, .len = 2, .buf = buf };

	return i2c_transfer(&g->sim->adap, &msg, 1);
}

static int glue_write(struct glue_ctx *g, u8 reg, u8 val)
{
	return glue_write_at(g, GLUE_ADDR, reg, val);
}

/* The level on the wire of one of the glue chip's lines */
static int glue_line(struct glue_ctx *g, unsigned int pad)
{
	unsigned long flags;
	int lvl;

	raw_spin_lock_irqsave(&g->sim->line_lock, flags);
	lvl = g->sim->line[g->chip->index * LPS_SIM_NUM_PADS + pad];
	raw_spin_unlock_irqrestore(&g->sim->line_lock, flags);
	return lvl;
}

static u64 glue_irqs(struct glue_ctx *g, unsigned int pad)
{
	unsigned long flags;
	u64 n;

	raw_spin_lock_irqsave(&g->sim->line_lock, flags);
	n = g->chip->irqs[pad];
	raw_spin_unlock_irqrestore(&g->sim->line_lock, flags);
	return n;
}

/* As a variant write: the lines see the switch from the next bus access */
static void glue_set_var(struct glue_ctx *g, struct lps_sim_chip *c,
			 enum lps_var_id id, u8 val)
{
	spin_lock_irq(&c->lock);
	c->model.var.v[id] = val;
	spin_unlock_irq(&c->lock);
	/* WHO_AM_I ignores writes */
	glue_write_at(g, c->addr, LPS_REG_WHO_AM_I, 0);
}

static u8 glue_read(struct kunit *test, struct glue_ctx *g, u8 reg)
{
	u8 val = 0;
	struct i2c_msg msg[2] = {
		{ .addr = GLUE_ADDR, .len = 1, .buf = &reg },
		{ .addr = GLUE_ADDR, .flags = I2C_M_RD, .len = 1, .buf = &val },
	};

	KUNIT_EXPECT_EQ(test, i2c_transfer(&g->sim->adap, msg, 2), 2);
	return val;
}

static irqreturn_t glue_irq(int irq, void *data)
{
	struct glue_ctx *g = data;

	complete(&g->irq_done);
	return IRQ_HANDLED;
}

static void glue_request(struct kunit *test, struct glue_ctx *g,
			 unsigned int pad, unsigned long trigger)
{
	g->virq = g->chip->virq[pad];
	reinit_completion(&g->irq_done);
	KUNIT_ASSERT_EQ(test, request_irq(g->virq, glue_irq, trigger,
					  "lps001wp-sim-test", g), 0);
	g->requested = true;
}

static void glue_release(struct glue_ctx *g)
{
	if (g->requested)
		free_irq(g->virq, g);
	g->requested = false;
}

static bool glue_wait(struct glue_ctx *g, unsigned int ms)
{
	return wait_for_completion_timeout(&g->irq_done,
					   msecs_to_jiffies(ms)) != 0;
}

static int glue_init(struct kunit *test)
{
	struct glue_ctx *g = kunit_kzalloc(test, sizeof(*g), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, g);
	g->sim = glue_sim;
	g->chip = &g->sim->chip[GLUE_ADDR - 0x5c];
	init_completion(&g->irq_done);
	lps_sim_chip_reset(g->chip);
	test->priv = g;
	return 0;
}

static void glue_exit(struct kunit *test)
{
	struct glue_ctx *g = test->priv;

	if (!g)
		return;
	glue_release(g);
	lps_sim_chip_reset(&g->sim->chip[0]);
	lps_sim_chip_reset(&g->sim->chip[1]);
}

static void test_glue_absent_address(struct kunit *test)
{
	struct glue_ctx *g = test->priv;
	u8 buf[2] = { LPS_REG_CTRL1, 0 };
	struct i2c_msg msg = { .addr = 0x5e, .len = 2, .buf = buf };

	KUNIT_EXPECT_EQ(test, i2c_transfer(&g->sim->adap, &msg, 1), -ENXIO);
	KUNIT_EXPECT_EQ(test, glue_read(test, g, LPS_REG_WHO_AM_I), 0xba);
}

static void test_glue_drdy_rising(struct kunit *test)
{
	struct glue_ctx *g = test->priv;

	glue_request(test, g, 0, IRQF_TRIGGER_RISING);
	KUNIT_ASSERT_EQ(test, glue_write(g, LPS_REG_CTRL3, LPS_PAD_CFG_DRDY), 1);
	KUNIT_ASSERT_EQ(test, glue_write(g, LPS_REG_CTRL1, 0x70), 1);
	KUNIT_EXPECT_TRUE(test, glue_wait(g, 1000));
	KUNIT_EXPECT_EQ(test, glue_read(test, g, LPS_REG_STATUS) &
			LPS_STATUS_P_DA, LPS_STATUS_P_DA);
	KUNIT_EXPECT_EQ(test, g->chip->irqs[0], 1);
	KUNIT_EXPECT_EQ(test, g->chip->irqs[1], 0);

	/* further samples keep DRDY high: no new edge until it is read */
	reinit_completion(&g->irq_done);
	KUNIT_EXPECT_FALSE(test, glue_wait(g, 250));
	glue_read(test, g, LPS_REG_PRESS_H);
	KUNIT_EXPECT_TRUE(test, glue_wait(g, 1000));
	KUNIT_EXPECT_EQ(test, g->chip->irqs[0], 2);
}

static void test_glue_wrong_polarity(struct kunit *test)
{
	struct glue_ctx *g = test->priv;

	/* active-high pad, falling trigger: fires on de-assertion only */
	glue_request(test, g, 0, IRQF_TRIGGER_FALLING);
	glue_write(g, LPS_REG_CTRL3, LPS_PAD_CFG_DRDY);
	glue_write(g, LPS_REG_CTRL1, 0x70);
	KUNIT_EXPECT_FALSE(test, glue_wait(g, 400));
	KUNIT_EXPECT_EQ(test, g->chip->irqs[0], 0);
	glue_write(g, LPS_REG_CTRL1, 0x00);
	glue_read(test, g, LPS_REG_PRESS_H);
	KUNIT_EXPECT_TRUE(test, glue_wait(g, 1000));
	KUNIT_EXPECT_EQ(test, g->chip->irqs[0], 1);
}

static void test_glue_int2_threshold_active_low(struct kunit *test)
{
	struct glue_ctx *g = test->priv;

	glue_request(test, g, 1, IRQF_TRIGGER_FALLING);
	/* idle level of an active-low pad is high: a rising edge, ignored */
	glue_write(g, LPS_REG_CTRL3, LPS_CTRL3_INT_H_L |
		   LPS_PAD_CFG_PH << LPS_CTRL3_INT2_SHIFT);
	KUNIT_EXPECT_EQ(test, glue_line(g, 1), 1);
	glue_write(g, LPS_REG_REF_H, 0x3e);		/* REF 15872 < P */
	glue_write(g, LPS_REG_INT_CFG, LPS_INT_CFG_LIR | LPS_INT_CFG_PH_E);
	glue_write(g, LPS_REG_CTRL1, 0x78);		/* PD, 12.5 Hz, DIFF_EN */
	KUNIT_EXPECT_TRUE(test, glue_wait(g, 1000));
	KUNIT_EXPECT_EQ(test, g->chip->irqs[1], 1);
	KUNIT_EXPECT_EQ(test, g->chip->irqs[0], 0);
	KUNIT_EXPECT_EQ(test, glue_read(test, g, LPS_REG_INT_SRC),
			LPS_INT_SRC_IA | LPS_INT_SRC_PH);

	/* latched: stays asserted until INT_ACK; release is a rising edge */
	glue_write(g, LPS_REG_CTRL1, 0x00);
	KUNIT_EXPECT_EQ(test, glue_line(g, 1), 0);
	glue_read(test, g, LPS_REG_INT_ACK);
	KUNIT_EXPECT_EQ(test, glue_line(g, 1), 1);
	KUNIT_EXPECT_EQ(test, glue_irqs(g, 1), 1);
}

static void test_glue_power_and_rate(struct kunit *test)
{
	struct glue_ctx *g = test->priv;
	ktime_t t0, t1, t2, t3;
	u64 n, up, periods;

	/*
	 * Judged against the clock the simulator uses, not the sleep: under
	 * a loaded emulator msleep()'s jiffies and ktime drift apart.
	 */
	t0 = ktime_get();
	glue_write(g, LPS_REG_CTRL1, 0x70);
	t1 = ktime_get();
	msleep(500);
	t2 = ktime_get();
	glue_write(g, LPS_REG_CTRL1, 0x00);
	t3 = ktime_get();
	n = g->chip->model.samples;
	up = g->chip->powered_ns;
	KUNIT_EXPECT_EQ(test, g->chip->model.power_ups, 1);
	/* powered from within the first write to within the second */
	KUNIT_EXPECT_GE(test, up, ktime_to_ns(ktime_sub(t2, t1)));
	KUNIT_EXPECT_LE(test, up, ktime_to_ns(ktime_sub(t3, t0)));
	/* one sample per 80 ms powered, the first one period after power-up */
	periods = div_u64(up, 80 * NSEC_PER_MSEC);
	KUNIT_EXPECT_GE(test, n, 4);
	KUNIT_EXPECT_GE(test, n + 1, periods);
	KUNIT_EXPECT_LE(test, n, periods + 1);
	msleep(200);
	KUNIT_EXPECT_EQ(test, g->chip->model.samples, n);
}

static void test_glue_faults(struct kunit *test)
{
	struct glue_ctx *g = test->priv;

	mutex_lock(&g->sim->lock);
	g->chip->fault_eio = 1;
	g->chip->fault_whoami = 0x11;
	mutex_unlock(&g->sim->lock);
	KUNIT_EXPECT_EQ(test, glue_write(g, LPS_REG_CTRL1, 0x40), -EIO);
	KUNIT_EXPECT_EQ(test, lps_model_peek(&g->chip->model, LPS_REG_CTRL1), 0);
	KUNIT_EXPECT_EQ(test, glue_read(test, g, LPS_REG_WHO_AM_I), 0x11);
	KUNIT_EXPECT_EQ(test, g->chip->transfers, 2);
}

/* Thread of a level line: leaves DRDY asserted twice, then takes samples */
static irqreturn_t glue_level_thread(int irq, void *data)
{
	struct glue_ctx *g = data;
	u8 reg = LPS_REG_PRESS_H, val;
	struct i2c_msg msg[2] = {
		{ .addr = GLUE_ADDR, .len = 1, .buf = &reg },
		{ .addr = GLUE_ADDR, .flags = I2C_M_RD, .len = 1, .buf = &val },
	};

	if (atomic_inc_return(&g->threads) >= 3) {
		i2c_transfer(&g->sim->adap, msg, 2);
		complete(&g->irq_done);
	}
	return IRQ_HANDLED;
}

static void test_glue_level_oneshot(struct kunit *test)
{
	struct glue_ctx *g = test->priv;
	unsigned int virq = g->chip->virq[0];
	int ret;

	/* irq=edge (default): a level type is refused, as irq_sim does */
	ret = request_threaded_irq(virq, NULL, glue_level_thread,
				   IRQF_TRIGGER_HIGH | IRQF_ONESHOT,
				   "lps001wp-sim-test", g);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);

	glue_set_var(g, g->chip, LPS_VAR_IRQ, LPS_IRQ_LEVEL);
	ret = request_threaded_irq(virq, NULL, glue_level_thread,
				   IRQF_TRIGGER_HIGH | IRQF_ONESHOT,
				   "lps001wp-sim-test", g);
	KUNIT_ASSERT_EQ(test, ret, 0);
	g->virq = virq;
	g->requested = true;
	KUNIT_EXPECT_EQ(test, irq_get_trigger_type(virq), IRQ_TYPE_LEVEL_HIGH);

	glue_write(g, LPS_REG_CTRL3, LPS_PAD_CFG_DRDY);
	glue_write(g, LPS_REG_CTRL1, 0x70);
	/* the thread returns with DRDY still high: unmasking fires again */
	KUNIT_EXPECT_TRUE(test, glue_wait(g, 1000));
	KUNIT_EXPECT_GE(test, atomic_read(&g->threads), 3);
	KUNIT_EXPECT_GE(test, glue_irqs(g, 0), 3);
	glue_write(g, LPS_REG_CTRL1, 0x00);
	glue_release(g);

	/* an edge asked for becomes the level of the same sense */
	KUNIT_EXPECT_EQ(test, irq_set_irq_type(virq, IRQ_TYPE_EDGE_FALLING), 0);
	KUNIT_EXPECT_EQ(test, irq_get_trigger_type(virq), IRQ_TYPE_LEVEL_LOW);
	glue_set_var(g, g->chip, LPS_VAR_IRQ, LPS_IRQ_EDGE);
	KUNIT_EXPECT_EQ(test, irq_set_irq_type(virq, IRQ_TYPE_EDGE_FALLING), 0);
	KUNIT_EXPECT_EQ(test, irq_get_trigger_type(virq),
			IRQ_TYPE_EDGE_FALLING);
}

static void test_glue_drdy_pulse(struct kunit *test)
{
	struct glue_ctx *g = test->priv;

	glue_set_var(g, g->chip, LPS_VAR_DRDY, LPS_DRDY_PULSE);
	glue_request(test, g, 0, IRQF_TRIGGER_RISING);
	glue_write(g, LPS_REG_CTRL3, LPS_PAD_CFG_DRDY);
	glue_write(g, LPS_REG_CTRL1, 0x70);
	msleep(500);
	glue_write(g, LPS_REG_CTRL1, 0x00);
	/* an edge per sample, nothing read: level DRDY gives one edge */
	KUNIT_EXPECT_GE(test, glue_irqs(g, 0), 3);
	KUNIT_EXPECT_EQ(test, glue_line(g, 0), 0);
	KUNIT_EXPECT_EQ(test, glue_read(test, g, LPS_REG_STATUS) &
			LPS_STATUS_P_DA, LPS_STATUS_P_DA);
}

static void test_glue_shared_line(struct kunit *test)
{
	struct glue_ctx *g = test->priv;
	struct lps_sim_chip *other = &g->sim->chip[0];

	glue_set_var(g, g->chip, LPS_VAR_SHARED, 1);
	glue_request(test, g, 0, IRQF_TRIGGER_RISING);
	/* the other chip asserts its INT1: DRDY with a sample pending */
	spin_lock_irq(&other->lock);
	lps_model_poke(&other->model, LPS_REG_STATUS, LPS_STATUS_P_DA);
	spin_unlock_irq(&other->lock);
	glue_write_at(g, other->addr, LPS_REG_CTRL3, LPS_PAD_CFG_DRDY);
	KUNIT_EXPECT_TRUE(test, glue_wait(g, 1000));
	KUNIT_EXPECT_EQ(test, glue_irqs(g, 0), 1);

	/* our own data-ready makes no edge: the line is asserted already */
	reinit_completion(&g->irq_done);
	glue_write(g, LPS_REG_CTRL3, LPS_PAD_CFG_DRDY);
	glue_write(g, LPS_REG_CTRL1, 0x70);
	KUNIT_EXPECT_FALSE(test, glue_wait(g, 400));
	glue_write(g, LPS_REG_CTRL1, 0x00);
	KUNIT_EXPECT_EQ(test, glue_read(test, g, LPS_REG_STATUS) &
			LPS_STATUS_P_DA, LPS_STATUS_P_DA);
	/* the other lets go, ours still holds the line */
	glue_write_at(g, other->addr, LPS_REG_CTRL3, LPS_PAD_CFG_GND);
	KUNIT_EXPECT_EQ(test, glue_line(g, 0), 1);
	glue_read(test, g, LPS_REG_PRESS_H);
	KUNIT_EXPECT_EQ(test, glue_line(g, 0), 0);
	KUNIT_EXPECT_EQ(test, glue_irqs(g, 0), 1);
}

static struct kunit_case lps_glue_cases[] = {
	KUNIT_CASE(test_glue_absent_address),
	KUNIT_CASE(test_glue_drdy_rising),
	KUNIT_CASE(test_glue_wrong_polarity),
	KUNIT_CASE(test_glue_int2_threshold_active_low),
	KUNIT_CASE(test_glue_power_and_rate),
	KUNIT_CASE(test_glue_faults),
	KUNIT_CASE(test_glue_level_oneshot),
	KUNIT_CASE(test_glue_drdy_pulse),
	KUNIT_CASE(test_glue_shared_line),
	{}
};

static struct kunit_suite lps_glue_suite = {
	.name = "lps001wp_sim_glue",
	.suite_init = glue_suite_init,
	.suite_exit = glue_suite_exit,
	.init = glue_init,
	.exit = glue_exit,
	.test_cases = lps_glue_cases,
};

kunit_test_suites(&lps_glue_suite);
