/* SPDX-License-Identifier: GPL-2.0 */
/*
 * STMicroelectronics LPS001WP pressure sensor: register map, the chip
 * behaviour the driver relies on, and small helpers that bridge kernel API
 * changes between 6.1 and current mainline.
 *
 * Only pages 1 and 14 of the datasheet are public. Every fact below cites
 * the project's register specification (lps001wp-spec.md, "spec §N") and its
 * confidence tag there: [C] confirmed by an LPS001WP source, [S] only by the
 * sibling LPS001DL or ST convention, [U] inferred. The driver's behaviour
 * rests on the [S]/[U] items named LPS001WP_ASSUME_*; if one turns out to be
 * wrong, this header is the one place to change.
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
 * Output data rate codes (spec §4, judgment §9.1): the ST table, not the one
 * in mainline st_pressure. DR 01 runs pressure and temperature at 7 Hz, DR 11
 * both at 12.5 Hz. DR 00 (temperature at 1 Hz) and DR 10 (unlisted) are never
 * programmed.
 */
#define LPS001WP_ASSUME_DR_ST_TABLE
#define LPS001WP_DR_P7_T1		0x0
#define LPS001WP_DR_P7_T7		0x1
#define LPS001WP_DR_P12_5_T12_5		0x3

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
 * inactive level in both polarities.
 */
#define LPS001WP_ASSUME_POLARITY_AFTER_MUX

/*
 * STATUS_REG (spec §3.4, bits [S]). [U] P_DA (and P_OR) clear when PRESS_OUT_H
 * is read, T_DA (and T_OR) when TEMP_OUT_H is read; reading STATUS itself
 * has no side effect. The driver therefore reads a channel's pair to discard
 * a pending sample and waits for the bit to come back for a fresh one. With
 * BDU set, reading one byte of a pair freezes the pair until the other byte
 * is read (spec §5 [S]), so pairs are always read whole, in one transfer.
 */
#define LPS001WP_ASSUME_STATUS_CLEARED_BY_OUT_H
#define LPS001WP_STATUS_P_OR		BIT(5)
#define LPS001WP_STATUS_T_OR		BIT(4)
#define LPS001WP_STATUS_P_DA		BIT(1)
#define LPS001WP_STATUS_T_DA		BIT(0)

/*
 * DELTA = REF_P - PRESS_OUT (spec §5 and §9.7: LPS001DL header and the 2011
 * ST driver's ABI text; low confidence). The threshold unit compares the
 * same difference (spec §5 [S]):
 *   PH: P - REF_P > THS_P, i.e. DELTA < -THS_P -> IIO "falling" on DELTA
 *   PL: REF_P - P > THS_P, i.e. DELTA > +THS_P -> IIO "rising" on DELTA
 * If the sign proves to be P - REF_P, swap the two event directions below.
 */
#define LPS001WP_ASSUME_DELTA_IS_REF_MINUS_P

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
 * the latched INT_SRC; the value read is meaningless.
 */
#define LPS001WP_ASSUME_INT_ACK_READ_CLEARS

/*
 * [U] No LPS001WP source gives the power-up time or the validity of the first
 * sample after PD 0 -> 1 (spec §7). The driver takes the first data-ready
 * after power-up as valid and bounds every wait to a few sample periods.
 */
#define LPS001WP_ASSUME_FIRST_SAMPLE_VALID

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
