// SPDX-License-Identifier: GPL-2.0
/*
 * LPS001WP simulator, device-tree side: a platform driver for the board's
 * "lps001wp-test,i2c-sim" node that makes a second simulator instance
 * ("lps001wp-sim-of") whose adapter and IRQ domain are that node, so
 * sensors described under it in DT (typically by an overlay) are
 * instantiated and wired as on a real board; and the debugfs files that
 * apply and remove overlays, as dtoverlay does on a Raspberry Pi.
 *
 * Test-only module.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/mod_devicetable.h>
#include <linux/mutex.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/version.h>

#include "lps001wp_sim.h"

#define LPS_SIM_OF_NAME		"lps001wp-sim-of"
#define LPS_SIM_OF_PREFIX	"of-"
#define LPS_SIM_FDT_MAGIC	0xd00dfeed
#define LPS_SIM_FDT_HDR		8	/* magic and totalsize */
#define LPS_SIM_OV_MAX_SIZE	SZ_16K
#define LPS_SIM_OV_MAX		8
#define LPS_SIM_OV_CMD_MAX	32

/* The DT instance: at most one, set while the platform device is bound */
static DEFINE_MUTEX(lps_sim_of_lock);
static struct lps_sim *lps_sim_of;
static struct dentry *lps_sim_of_root;

/*
 * Overlays applied through debugfs, in the order they were applied
 * (removal must go the other way). The lock is not taken by the platform
 * driver, whose probe an overlay may cause.
 */
static DEFINE_MUTEX(lps_sim_ov_lock);
static int lps_sim_ov_ids[LPS_SIM_OV_MAX];
static unsigned int lps_sim_ov_count;
static struct dentry *lps_sim_ov_file;
static struct dentry *lps_sim_ov_remove_file;

/* ---- platform driver ---- */

static int lps_sim_of_probe(struct platform_device *pdev)
{
	struct lps_sim *sim;
	int ret = 0;

	mutex_lock(&lps_sim_of_lock);
	if (lps_sim_of) {
		dev_err(&pdev->dev, "only one simulator node is supported\n");
		ret = -EBUSY;
		goto out;
	}
	sim = lps_sim_create_of(&pdev->dev, LPS_SIM_OF_NAME, lps_sim_of_root,
				LPS_SIM_OF_PREFIX);
	if (IS_ERR(sim)) {
		ret = PTR_ERR(sim);
		goto out;
	}
	platform_set_drvdata(pdev, sim);
	lps_sim_of = sim;
out:
	mutex_unlock(&lps_sim_of_lock);
	return ret;
}

static void lps_sim_of_remove(struct platform_device *pdev)
{
	struct lps_sim *sim = platform_get_drvdata(pdev);

	mutex_lock(&lps_sim_of_lock);
	lps_sim_of = NULL;
	mutex_unlock(&lps_sim_of_lock);
	lps_sim_destroy(sim);
}

/*
 * No MODULE_DEVICE_TABLE: the board DT is present for every guest suite,
 * and the module must load only when a suite asks for it.
 */
static const struct of_device_id lps_sim_of_match[] = {
	{ .compatible = "lps001wp-test,i2c-sim" },
	{ }
};

static struct platform_driver lps_sim_of_driver = {
	.driver = {
		.name = LPS_SIM_OF_NAME,
		.of_match_table = lps_sim_of_match,
	},
	.probe = lps_sim_of_probe,
#if KERNEL_VERSION(6, 11, 0) > LINUX_VERSION_CODE
	.remove_new = lps_sim_of_remove,
#else
	/* 6.11 made .remove return void; .remove_new is gone since 6.13 */
	.remove = lps_sim_of_remove,
#endif
};

/* ---- overlays ---- */

static int lps_sim_ov_remove_one(unsigned int idx)
{
	int id = lps_sim_ov_ids[idx];
	int ret;

	lockdep_assert_held(&lps_sim_ov_lock);

	ret = of_overlay_remove(&id);
	if (ret)
		return ret;
	memmove(&lps_sim_ov_ids[idx], &lps_sim_ov_ids[idx + 1],
		(lps_sim_ov_count - idx - 1) * sizeof(lps_sim_ov_ids[0]));
	lps_sim_ov_count--;

	/* the overlay's clients are gone: free their trigger types */
	mutex_lock(&lps_sim_of_lock);
	if (lps_sim_of)
		lps_sim_forget_irq_types(lps_sim_of);
	mutex_unlock(&lps_sim_of_lock);
	return 0;
}

/* Newest first, as of_overlay_remove() requires; stops at an error */
static int lps_sim_ov_remove_all(void)
{
	int ret;

	lockdep_assert_held(&lps_sim_ov_lock);

	while (lps_sim_ov_count) {
		ret = lps_sim_ov_remove_one(lps_sim_ov_count - 1);
		if (ret)
			return ret;
	}
	return 0;
}

static int lps_sim_ov_apply(const void *fdt, u32 size)
{
	int ret, id = 0;

	mutex_lock(&lps_sim_ov_lock);
	if (lps_sim_ov_count == LPS_SIM_OV_MAX) {
		ret = -ENOSPC;
		goto out;
	}
#if KERNEL_VERSION(6, 6, 0) > LINUX_VERSION_CODE
	/*
	 * The cast is for 6.1's stub without CONFIG_OF_OVERLAY (Debian's
	 * x86 kernel, make demo), which takes a non-const pointer; the
	 * function itself takes a const one.
	 */
	ret = of_overlay_fdt_apply((void *)fdt, size, &id);
#else
	/* 6.6 added the base node an overlay's targets are relative to */
	ret = of_overlay_fdt_apply(fdt, size, &id, NULL);
#endif
	if (ret) {
		/* a partly applied changeset must still be removed */
		if (id && of_overlay_remove(&id))
			pr_err("%s: overlay %d stays partly applied\n",
			       LPS_SIM_OF_NAME, id);
		goto out;
	}
	lps_sim_ov_ids[lps_sim_ov_count++] = id;
out:
	mutex_unlock(&lps_sim_ov_lock);
	return ret;
}

/* One open of the overlay file collects a blob that may come in chunks */
struct lps_sim_ov_buf {
	size_t len;
	u8 data[LPS_SIM_OV_MAX_SIZE];
};

static int lps_sim_ov_open(struct inode *inode, struct file *file)
{
	struct lps_sim_ov_buf *b = NULL;

	if (file->f_mode & FMODE_WRITE) {
		b = kzalloc(sizeof(*b), GFP_KERNEL);
		if (!b)
			return -ENOMEM;
	}
	file->private_data = b;
	return nonseekable_open(inode, file);
}

static int lps_sim_ov_release(struct inode *inode, struct file *file)
{
	struct lps_sim_ov_buf *b = file->private_data;

	if (b && b->len)
		pr_warn("%s: incomplete overlay blob (%zu bytes) dropped\n",
			LPS_SIM_OF_NAME, b->len);
	kfree(b);
	return 0;
}

static ssize_t lps_sim_ov_read(struct file *file, char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	char buf[LPS_SIM_OV_MAX * 12 + 1];
	unsigned int i;
	int len = 0;

	mutex_lock(&lps_sim_ov_lock);
	for (i = 0; i < lps_sim_ov_count; i++)
		len += scnprintf(buf + len, sizeof(buf) - len, "%d\n",
				 lps_sim_ov_ids[i]);
	mutex_unlock(&lps_sim_ov_lock);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

/*
 * Appends to the blob; once the FDT header's totalsize bytes are in, the
 * overlay is applied and that write returns its result. A bad header
 * fails the write that completes it, and the blob is dropped.
 */
static ssize_t lps_sim_ov_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	struct lps_sim_ov_buf *b = file->private_data;
	const __be32 *hdr;
	u32 size;
	int ret;

	if (!b)
		return -EBADF;
	if (count > sizeof(b->data) - b->len) {
		ret = -EFBIG;
		goto drop;
	}
	if (copy_from_user(b->data + b->len, ubuf, count))
		return -EFAULT;
	b->len += count;
	if (b->len < LPS_SIM_FDT_HDR)
		return count;

	hdr = (const __be32 *)b->data;
	size = be32_to_cpu(hdr[1]);
	if (be32_to_cpu(hdr[0]) != LPS_SIM_FDT_MAGIC ||
	    size < LPS_SIM_FDT_HDR || size > sizeof(b->data)) {
		ret = -EINVAL;
		goto drop;
	}
	if (b->len < size)
		return count;
	if (b->len > size) {
		ret = -EINVAL;
		goto drop;
	}
	ret = lps_sim_ov_apply(b->data, size);
	b->len = 0;
	return ret ? ret : count;

drop:
	b->len = 0;
	return ret;
}

static const struct file_operations lps_sim_ov_fops = {
	.owner		= THIS_MODULE,
	.open		= lps_sim_ov_open,
	.release	= lps_sim_ov_release,
	.read		= lps_sim_ov_read,
	.write		= lps_sim_ov_write,
};

/* "<id>" (one applied here) or "all" */
static ssize_t lps_sim_ov_remove_write(struct file *file,
				       const char __user *ubuf, size_t count,
				       loff_t *ppos)
{
	char buf[LPS_SIM_OV_CMD_MAX], *s;
	unsigned int i;
	int id, ret;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	s = strim(buf);

	mutex_lock(&lps_sim_ov_lock);
	if (!strcmp(s, "all")) {
		ret = lps_sim_ov_remove_all();
	} else if (kstrtoint(s, 0, &id)) {
		ret = -EINVAL;
	} else {
		for (i = 0; i < lps_sim_ov_count; i++)
			if (lps_sim_ov_ids[i] == id)
				break;
		ret = i < lps_sim_ov_count ? lps_sim_ov_remove_one(i) : -ENOENT;
	}
	mutex_unlock(&lps_sim_ov_lock);
	return ret ? ret : count;
}

static const struct file_operations lps_sim_ov_remove_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= lps_sim_ov_remove_write,
};

/* ---- set-up ---- */

int lps_sim_of_init(struct dentry *root)
{
	int ret;

	lps_sim_of_root = root;
	ret = platform_driver_register(&lps_sim_of_driver);
	if (ret)
		return ret;
	lps_sim_ov_file = debugfs_create_file("overlay", 0600, root, NULL,
					      &lps_sim_ov_fops);
	lps_sim_ov_remove_file = debugfs_create_file("overlay_remove", 0200,
						     root, NULL,
						     &lps_sim_ov_remove_fops);
	return 0;
}

void lps_sim_of_exit(void)
{
	/* waits for writers, so no overlay can be applied after this */
	debugfs_remove(lps_sim_ov_remove_file);
	debugfs_remove(lps_sim_ov_file);

	mutex_lock(&lps_sim_ov_lock);
	if (lps_sim_ov_remove_all())
		pr_err("%s: could not remove overlay %d, left applied\n",
		       LPS_SIM_OF_NAME, lps_sim_ov_ids[lps_sim_ov_count - 1]);
	mutex_unlock(&lps_sim_ov_lock);

	platform_driver_unregister(&lps_sim_of_driver);
}
