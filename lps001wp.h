/* SPDX-License-Identifier: GPL-2.0 */
/*
 * STMicroelectronics LPS001WP pressure sensor: register map and the chip
 * behaviour the driver relies on. Only pages 1 and 14 of the datasheet are
 * public; tags cite Documentation/chip-facts.md ("spec §N"): [C] confirmed by
 * an LPS001WP source, [S] only by the LPS001DL or ST convention, [U] inferred.
 */

#ifndef _LPS001WP_H_
#define _LPS001WP_H_

#include <linux/bits.h>
#include <linux/version.h>

/* Register map (spec §3). Pairs are little endian, L at the lower address. */
#define LPS001WP_REG_WHO_AM_I		0x0f	/* [C] */
#define LPS001WP_REG_CTRL1		0x20	/* [C] */
#define LPS001WP_REG_CTRL2		0x21	/* [C] address, [S] bits */
#define LPS001WP_REG_CTRL3		0x22	/* [C] address, [S] bits */
#define LPS001WP_REG_STATUS		0x27	/* [C] address, [S] bits */
#define LPS001WP_REG_PRESS_OUT_L	0x28	/* [C] u16, 16 LSB/mbar */
#define LPS001WP_REG_TEMP_OUT_L		0x2a	/* [C] s16, 64 LSB/degC */
#define LPS001WP_REG_DELTA_L		0x2c	/* [C] s16, 16 LSB/mbar */
#define LPS001WP_REG_DELTA_H		0x2d
#define LPS001WP_REG_REF_P_L		0x30	/* [C] u16 */
#define LPS001WP_REG_THS_P_L		0x32	/* [C] address, [S] u16 */
#define LPS001WP_REG_INT_CFG		0x34	/* [C] address, [S] bits */
#define LPS001WP_REG_INT_SRC		0x35	/* [C] address, [S] bits */
#define LPS001WP_REG_INT_ACK		0x36	/* [C] address, [S] semantics */

#define LPS001WP_WHO_AM_I_VALUE		0xba

/* Sub-address bit 7 selects auto-increment (spec §2.1 [C]) */
#define LPS001WP_I2C_AUTO_INCREMENT	BIT(7)

#define LPS001WP_CTRL1_PD		BIT(6)	/* [C] 1 = converting */
#define LPS001WP_CTRL1_DR		GENMASK(5, 4)	/* [C] */
#define LPS001WP_CTRL1_DIFF_EN		BIT(3)	/* [C] */
#define LPS001WP_CTRL1_BDU		BIT(2)	/* [C] */

#define LPS001WP_DR_01			0x1
#define LPS001WP_DR_10			0x2
#define LPS001WP_DR_11			0x3	/* 12.5 Hz in every source */

#define LPS001WP_CTRL3_INT_H_L		BIT(7)	/* [S] 1 = active low */
#define LPS001WP_CTRL3_PP_OD		BIT(6)	/* [S] 1 = open drain */
#define LPS001WP_CTRL3_INT1_CFG		GENMASK(2, 0)	/* [S] */
#define LPS001WP_INT1_GND		0x0
#define LPS001WP_INT1_P_EITHER		0x3
#define LPS001WP_INT1_DRDY		0x4

#define LPS001WP_STATUS_P_OR		BIT(5)	/* [S] */
#define LPS001WP_STATUS_T_OR		BIT(4)
#define LPS001WP_STATUS_P_DA		BIT(1)
#define LPS001WP_STATUS_T_DA		BIT(0)

/* INT_SRC flags sit where INT_CFG's enables do (spec §3.7 [S]) */
#define LPS001WP_INT_CFG_LIR		BIT(2)	/* latch INT_SRC until INT_ACK */
#define LPS001WP_INT_PL			BIT(1)	/* DELTA > +THS_P */
#define LPS001WP_INT_PH			BIT(0)	/* DELTA < -THS_P */
#define LPS001WP_INT_SRC_IA		BIT(2)

/*
 * Uncertain chip facts ([S]/[U], spec §4, §5, §7, §9) that make hwcheck
 * measures; switches: make LPS001WP_ASSUME="DELTA_IS_REF_MINUS_P=0 ..."
 */
/* DR 01 = 7 Hz and DR 10 unlisted (ST), or DR 01 = 1 Hz, DR 10 = 7 Hz */
#ifndef LPS001WP_ASSUME_DR_ST_TABLE
#define LPS001WP_ASSUME_DR_ST_TABLE		1
#endif
/* DELTA holds REF_P - P, or P - REF_P (the driver negates it) */
#ifndef LPS001WP_ASSUME_DELTA_IS_REF_MINUS_P
#define LPS001WP_ASSUME_DELTA_IS_REF_MINUS_P	1
#endif
/* The first sample after power-up is valid, or garbage to be dropped */
#ifndef LPS001WP_ASSUME_FIRST_SAMPLE_VALID
#define LPS001WP_ASSUME_FIRST_SAMPLE_VALID	0
#endif

/* Kernel compatibility: the current API's names on the kernels before it */
#if KERNEL_VERSION(6, 1, 0) > LINUX_VERSION_CODE
#error "lps001wp needs Linux 6.1 or later (on Ubuntu 22.04, its HWE kernel)"
#elif KERNEL_VERSION(6, 3, 0) > LINUX_VERSION_CODE
#define LPS001WP_I2C_PROBE_MEMBER	probe_new
#else
#define LPS001WP_I2C_PROBE_MEMBER	probe
#endif
#if KERNEL_VERSION(6, 4, 0) > LINUX_VERSION_CODE
#define REGCACHE_MAPLE			REGCACHE_RBTREE
#define iio_trigger_poll_nested		iio_trigger_poll_chained
#endif
#if KERNEL_VERSION(6, 13, 0) > LINUX_VERSION_CODE
#define LPS001WP_EVENT_STATE		int
#else
#define LPS001WP_EVENT_STATE		bool
#endif
#if KERNEL_VERSION(6, 15, 0) > LINUX_VERSION_CODE
#define iio_device_claim_direct(idev)	(!iio_device_claim_direct_mode(idev))
#define iio_device_release_direct	iio_device_release_direct_mode
#endif
#if KERNEL_VERSION(6, 16, 0) > LINUX_VERSION_CODE
#define iio_push_to_buffers_with_ts(idev, scan, size, ts) \
	iio_push_to_buffers_with_timestamp(idev, scan, ts)
#endif
#ifndef aligned_s64
#define aligned_s64			s64 __aligned(8)
#endif

#endif /* _LPS001WP_H_ */
