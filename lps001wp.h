/* SPDX-License-Identifier: GPL-2.0 */
/*
 * STMicroelectronics LPS001WP pressure sensor: register map, the chip
 * behaviour the driver relies on, and small helpers that bridge kernel API
 * changes between 6.1 and current mainline.
 *
 * Only pages 1 and 14 of the datasheet are public. Every fact below cites
 * the project's chip facts (Documentation/chip-facts.md, "spec §N") and its
 * confidence tag there: [C] confirmed by an LPS001WP source, [S] only by the
 * sibling LPS001DL or ST convention, [U] inferred.
 *
 * The [S]/[U] facts are named LPS001WP_ASSUME_*. Where the driver works
 * either way (tested against each alternative in the simulator), the name
 * only records the guess, for make hwcheck to compare with a real chip.
 * Where it cannot, the name is a switch, 1 or 0, that the code reads:
 * DR_ST_TABLE, DELTA_IS_REF_MINUS_P and FIRST_SAMPLE_VALID. Flip one with
 *   make LPS001WP_ASSUME="DELTA_IS_REF_MINUS_P=0"
 * (several separated by spaces) or by editing its default here.
 */

#ifndef _LPS001WP_H_
#define _LPS001WP_H_

#include <linux/bits.h>
#include <linux/version.h>

/* Register map (spec §3). Pairs are little endian, L at the lower address. */
#define LPS001WP_REG_WHO_AM_I		0x0f	/* [C] reads 0xba */
#define LPS001WP_REG_CTRL1		0x20	/* [C] */
#define LPS001WP_REG_CTRL2		0x21	/* [C] address, [S] bits */
#define LPS001WP_REG_CTRL3		0x22	/* [C] address, [S] bits */
#define LPS001WP_REG_STATUS		0x27	/* [C] address, [S] bits */
#define LPS001WP_REG_PRESS_OUT_L	0x28	/* [C] u16, 16 LSB/mbar */
#define LPS001WP_REG_PRESS_OUT_H	0x29
#define LPS001WP_REG_TEMP_OUT_L		0x2a	/* [C] s16, 64 LSB/degC */
#define LPS001WP_REG_TEMP_OUT_H		0x2b
#define LPS001WP_REG_DELTA_L		0x2c	/* [C] s16, 16 LSB/mbar */
#define LPS001WP_REG_DELTA_H		0x2d
#define LPS001WP_REG_REF_P_L		0x30	/* [C] u16 */
#define LPS001WP_REG_REF_P_H		0x31
#define LPS001WP_REG_THS_P_L		0x32	/* [C] address, [S] u16 */
#define LPS001WP_REG_THS_P_H		0x33
#define LPS001WP_REG_INT_CFG		0x34	/* [C] address, [S] bits */
#define LPS001WP_REG_INT_SRC		0x35	/* [C] address, [S] bits */
#define LPS001WP_REG_INT_ACK		0x36	/* [C] address, [S] semantics */
#define LPS001WP_REG_MAX		0x3f	/* all addresses fit SPI's 6 bits */

#define LPS001WP_WHO_AM_I_VALUE		0xba

/*
 * I2C sub-address bit 7 selects auto-increment (spec §2.1 [C]); every
 * multi-byte access (output burst, REF_P/THS_P pairs, regcache block sync)
 * needs it, and single-byte accesses are unaffected by it.
 */
#define LPS001WP_I2C_AUTO_INCREMENT	BIT(7)

/* CTRL_REG1 (spec §3.1) */
#define LPS001WP_CTRL1_LPOW		BIT(7)	/* [U] disputed, kept 0 */
#define LPS001WP_CTRL1_PD		BIT(6)	/* [C] 1 = active */
#define LPS001WP_CTRL1_DR		GENMASK(5, 4)	/* [C] mask */
#define LPS001WP_CTRL1_DIFF_EN		BIT(3)	/* [C] */
#define LPS001WP_CTRL1_BDU		BIT(2)	/* [C] */

/*
 * Output data rate codes (spec §4, §9.1). Every source gives DR 11 as
 * pressure and temperature at 12.5 Hz: the default after probe. The others
 * disagree. [S] switch LPS001WP_ASSUME_DR_ST_TABLE:
 *   1: ST's table. DR 01 = 7 Hz, DR 00 = 7 Hz (temperature 1 Hz), DR 10
 *      unlisted: offers 7 and 12.5 Hz.
 *   0: mainline st_pressure's table. DR 01 = 1 Hz, DR 10 = 7 Hz: offers 1,
 *      7 and 12.5 Hz.
 * Every wait is sized for the slowest rate any source gives a code (1 Hz),
 * so a wrong table costs a wrong rate, never a timeout.
 */
#ifndef LPS001WP_ASSUME_DR_ST_TABLE
#define LPS001WP_ASSUME_DR_ST_TABLE	1
#endif
#define LPS001WP_DR_00			0x0	/* never programmed */
#define LPS001WP_DR_01			0x1
#define LPS001WP_DR_10			0x2
#define LPS001WP_DR_11			0x3
/* The slowest pressure rate any source gives a code below DR 11 */
#define LPS001WP_DR_SLOWEST_PERIOD_US	1000000

/* CTRL_REG3, interrupt pads (spec §3.3, all [S]) */
#define LPS001WP_CTRL3_INT_H_L		BIT(7)	/* 1 = active low */
#define LPS001WP_CTRL3_PP_OD		BIT(6)	/* 1 = open drain */
#define LPS001WP_CTRL3_INT2_CFG		GENMASK(5, 3)
#define LPS001WP_CTRL3_INT1_CFG		GENMASK(2, 0)
/* Pad signal selectors, same encoding for INT1 and INT2 */
#define LPS001WP_INT_CFG_GND		0x0	/* pad inactive */
#define LPS001WP_INT_CFG_P_HIGH		0x1
#define LPS001WP_INT_CFG_P_LOW		0x2
#define LPS001WP_INT_CFG_P_EITHER	0x3
#define LPS001WP_INT_CFG_DRDY		0x4
/*
 * [U] INT_H_L inverts the selected signal, so selector 000 ("GND") is the
 * inactive level in both polarities. Records the guess only: an idle pad
 * is never relied on to be at a given level.
 */
#define LPS001WP_ASSUME_POLARITY_AFTER_MUX	1

/*
 * STATUS_REG (spec §3.4, bits [S]). [U] P_DA (and P_OR) clear when PRESS_OUT_H
 * is read, T_DA (and T_OR) when TEMP_OUT_H is read; reading STATUS itself
 * has no side effect. Records the guess only: the driver reads STATUS and
 * all outputs in one burst, which clears the bits either way. With BDU set,
 * reading one byte of a pair freezes the pair (or, on some parts, the whole
 * block) until it is read whole (spec §5 [S]); the same burst completes
 * every pair it starts.
 */
#define LPS001WP_ASSUME_STATUS_CLEARED_BY_OUT_H	1
#define LPS001WP_STATUS_P_OR		BIT(5)
#define LPS001WP_STATUS_T_OR		BIT(4)
#define LPS001WP_STATUS_P_DA		BIT(1)
#define LPS001WP_STATUS_T_DA		BIT(0)

/*
 * [S] switch LPS001WP_ASSUME_DELTA_IS_REF_MINUS_P: the chip's DELTA register
 * holds REF_P - PRESS_OUT (1; spec §5 and §9.7: LPS001DL header and the
 * 2011 ST driver's ABI text; low confidence) or PRESS_OUT - REF_P (0). The
 * driver reports REF_P - P as in_pressure1_raw either way, negating the
 * register when the switch is 0. The threshold unit is specified on P and
 * REF_P, not on the register (spec §5 [S]), so events need no switch:
 *   PH: P - REF_P > THS_P, i.e. REF_P - P < -THS_P -> IIO "falling"
 *   PL: REF_P - P > THS_P -> IIO "rising"
 */
#ifndef LPS001WP_ASSUME_DELTA_IS_REF_MINUS_P
#define LPS001WP_ASSUME_DELTA_IS_REF_MINUS_P	1
#endif

/* INT_CFG (spec §3.7 [S]) */
#define LPS001WP_INT_CFG_LIR		BIT(2)	/* latch INT_SRC until INT_ACK read */
#define LPS001WP_INT_CFG_PL_E		BIT(1)	/* DELTA > +THS_P, IIO rising */
#define LPS001WP_INT_CFG_PH_E		BIT(0)	/* DELTA < -THS_P, IIO falling */

/* INT_SRC (spec §3.7 [S]), same bit order as INT_CFG's enables */
#define LPS001WP_INT_SRC_IA		BIT(2)
#define LPS001WP_INT_SRC_PL		BIT(1)
#define LPS001WP_INT_SRC_PH		BIT(0)

/*
 * INT_ACK (spec §3.7 [S]): with LIR = 1, reading this dummy register clears
 * the latched INT_SRC; the value read is meaningless. Records the guess
 * only: without a latch INT_SRC follows the comparison, and the driver,
 * which reads INT_SRC and then INT_ACK, reports the same events. (A level
 * interrupt line with no latch fires as long as a threshold stays crossed:
 * use an edge type there; README.)
 */
#define LPS001WP_ASSUME_INT_ACK_READ_CLEARS	1

/*
 * [U] switch LPS001WP_ASSUME_FIRST_SAMPLE_VALID: no LPS001WP source says
 * whether the first sample after PD 0 -> 1 is valid (spec §7); mainline's
 * ST drivers wait for two. 0 (default): the driver drops the first sample
 * after each power-up, which costs a cold read one more period. 1: it takes
 * the first, for a chip known to make it valid.
 */
#ifndef LPS001WP_ASSUME_FIRST_SAMPLE_VALID
#define LPS001WP_ASSUME_FIRST_SAMPLE_VALID	0
#endif

/* Other parts answering at the same address (spec §1 and ST family IDs) */
#define LPS001WP_WHO_AM_I_LPS331AP	0xbb
#define LPS001WP_WHO_AM_I_LPS25H	0xbd
#define LPS001WP_WHO_AM_I_LPS22HB	0xb1

/*
 * Kernel compatibility. Each helper bridges one API change; the version in
 * the comment is the first mainline release with the new form.
 */

/* 6.3: i2c_driver.probe takes only the client; .probe_new goes away in 6.6 */
#if KERNEL_VERSION(6, 3, 0) > LINUX_VERSION_CODE
#define LPS001WP_I2C_PROBE_MEMBER	probe_new
#else
#define LPS001WP_I2C_PROBE_MEMBER	probe
#endif

/* 6.4: REGCACHE_MAPLE appears; RBTREE is the best cache before it */
#if KERNEL_VERSION(6, 4, 0) > LINUX_VERSION_CODE
#define LPS001WP_REGCACHE		REGCACHE_RBTREE
#else
#define LPS001WP_REGCACHE		REGCACHE_MAPLE
#endif

/* 6.4: iio_trigger_poll_chained() renamed iio_trigger_poll_nested() */
static inline void lps001wp_trigger_poll_nested(struct iio_trigger *trig)
{
#if KERNEL_VERSION(6, 4, 0) > LINUX_VERSION_CODE
	iio_trigger_poll_chained(trig);
#else
	iio_trigger_poll_nested(trig);
#endif
}

/*
 * 6.15: iio_device_claim_direct() returns bool (also in 6.14.y);
 * iio_device_claim_direct_mode() is gone in 6.16. Returns 0 or -EBUSY.
 */
static inline int lps001wp_claim_direct(struct iio_dev *indio_dev)
{
#if KERNEL_VERSION(6, 15, 0) > LINUX_VERSION_CODE
	return iio_device_claim_direct_mode(indio_dev);
#else
	return iio_device_claim_direct(indio_dev) ? 0 : -EBUSY;
#endif
}

static inline void lps001wp_release_direct(struct iio_dev *indio_dev)
{
#if KERNEL_VERSION(6, 15, 0) > LINUX_VERSION_CODE
	iio_device_release_direct_mode(indio_dev);
#else
	iio_device_release_direct(indio_dev);
#endif
}

/* 6.16: iio_push_to_buffers_with_ts() takes the scan size */
static inline int lps001wp_push_with_ts(struct iio_dev *indio_dev, void *scan,
					size_t scan_size, s64 timestamp)
{
#if KERNEL_VERSION(6, 16, 0) > LINUX_VERSION_CODE
	return iio_push_to_buffers_with_timestamp(indio_dev, scan, timestamp);
#else
	return iio_push_to_buffers_with_ts(indio_dev, scan, scan_size, timestamp);
#endif
}

/* 6.13 (and stable backports): aligned_s64 in linux/types.h */
#ifndef aligned_s64
#define aligned_s64 s64 __aligned(8)
#endif

#endif /* _LPS001WP_H_ */
