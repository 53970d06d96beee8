# SPDX-License-Identifier: GPL-2.0
#
# Targets (`make help` prints this list):
#
# For users (README.md):
#   make deb             build/lps001wp-dkms_<version>_<arch>.deb, the package to
#                        install (needs debhelper, device-tree-compiler, and
#                        dh-dkms where the release has it; DEB_DIR= elsewhere)
#   make hwcheck [BUS=1] [ADDR=0x5c]
#                        with the chip wired: measure the facts the driver
#                        assumes and print a report for a bug report (root)
#   make demo            the driver on a simulated chip, no hardware: Debian's
#                        own kernel in QEMU, live readings and a threshold event
#                        (Debian 12 or 13 on x86_64, root; unpacks the kernel
#                        in /var/cache/lps001wp, installs nothing of it)
#   make reader          build/lps001wp-read, the reader the package ships in
#                        /usr/bin (lps001wp-read(1): tools/lps001wp-read.1)
#   make help            this list
#
# Without the package (Documentation/developers.md):
#   make                 build lps001wp.ko for the running kernel
#   make KDIR=<dir>      build against another kernel tree or headers
#   make install         modules_install + depmod (INSTALL_MOD_PATH= for a staging root)
#   make uninstall       remove what make install put there + depmod
#   make dkms-install    DKMS from this clone: stage the sources in
#                        /usr/src/lps001wp-<version>, build for every kernel with headers
#   make dkms-uninstall  remove what dkms-install added, every version
#   make dtbo            the Raspberry Pi overlay, lps001wp.dtbo (dtc -@)
#   make install-dtbo    copy it to /boot/firmware/overlays or /boot/overlays,
#                        whichever exists (DESTDIR= for a staging root)
#   One install method at a time: make install (extra/ or updates/) or DKMS
#   (the package or dkms-install; updates/dkms/). Each refuses or warns while
#   the other is there.
#
# For developers (Documentation/developers.md, tests/README.md):
#   make check           every test (sets itself up on Debian 12 or 13; needs root)
#   make check-suite SUITES=30-channels[,...] [KERNEL=6.1]
#                        the inner loop: one test kernel, those guest suites
#   make lint            the quality gates (part of make check)
#   make bench           this driver vs mainline st_pressure on the simulated chip (numbers, no verdict)

KERNELRELEASE ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KERNELRELEASE)/build
DEB_DIR ?= $(CURDIR)/build
# MODULE_VERSION, see Kbuild
ifeq ($(origin LPS001WP_VERSION),undefined)
LPS001WP_VERSION = $(shell sh $(CURDIR)/tools/version.sh $(CURDIR))
endif
moddir := $(INSTALL_MOD_PATH)/lib/modules/$(KERNELRELEASE)

.PHONY: all modules clean install uninstall modules_install deb dkms-install dkms-uninstall \
	check check-suite demo lint bench hwcheck help reader

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) LPS001WP_VERSION=$(LPS001WP_VERSION) modules

modules_install:
	$(MAKE) -C $(KDIR) M=$(CURDIR) LPS001WP_VERSION=$(LPS001WP_VERSION) modules_install

install:
	@if ls $(moddir)/updates/dkms/lps001wp.ko* >/dev/null 2>&1; then \
		echo "DKMS installs lps001wp for $(KERNELRELEASE) already (dkms status lps001wp):" \
			"use one method, see Documentation/developers.md" >&2; \
		exit 1; \
	fi
	$(MAKE) modules_install
	depmod -a $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KERNELRELEASE)

# Where modules_install puts it: extra/ before 6.2, updates/ from 6.2;
# never DKMS's updates/dkms/.
uninstall:
	rm -f $(moddir)/extra/lps001wp.ko* $(moddir)/updates/lps001wp.ko*
	rmdir $(moddir)/extra $(moddir)/updates 2>/dev/null || true
	depmod -a $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KERNELRELEASE)

# The package builds it with Debian's flags (debian/rules)
reader:
	@mkdir -p build
	$(CC) -O2 -Wall -Wextra -Werror $(CFLAGS) $(LDFLAGS) -o build/lps001wp-read tools/lps001wp-read.c

deb:
	LPS001WP_VERSION=$(LPS001WP_VERSION) sh tools/mkdeb.sh $(DEB_DIR)

dkms-install:
	LPS001WP_VERSION=$(LPS001WP_VERSION) sh tools/lps001wp-dkms.sh install

dkms-uninstall:
	sh tools/lps001wp-dkms.sh uninstall

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean

# The header comment above is the list: one place to keep it
help:
	@awk 'NR > 2 && !/^#/ { exit } NR > 2 { sub(/^# ?/, ""); print }' $(firstword $(MAKEFILE_LIST))

check:
	bash tests/check.sh

demo:
	bash tests/demo.sh

lint:
	bash tests/lint.sh

bench:
	bash tests/bench.sh

hwcheck:
	sh tools/lps001wp-hwcheck.sh $(if $(BUS),-b $(BUS)) $(if $(ADDR),-a $(ADDR)) $(HWCHECK_FLAGS)

# make check-suite SUITES=30-channels,60-events [KERNEL=6.1]: the inner loop
check-suite:
	SUITES=$(SUITES) KERNEL=$(KERNEL) bash tests/check.sh --suite

# The Raspberry Pi overlay. The pin node carries the sensor's unit address
# without a reg (so two instances get two pin nodes), hence no
# unit_address_vs_reg warning, as in the Pi's own overlay builds.
.PHONY: dtbo install-dtbo
OVERLAY_DTS := Documentation/devicetree/overlays/lps001wp-overlay.dts

dtbo: lps001wp.dtbo

lps001wp.dtbo: $(OVERLAY_DTS)
	dtc -@ -Wno-unit_address_vs_reg -I dts -O dtb -o $@ $<

# Bookworm and later keep the overlays in /boot/firmware, older releases in /boot.
install-dtbo: lps001wp.dtbo
	@dir=$(DESTDIR)/boot/firmware/overlays; \
	[ -d "$$dir" ] || dir=$(DESTDIR)/boot/overlays; \
	if [ ! -d "$$dir" ]; then \
		echo "install-dtbo: neither $(DESTDIR)/boot/firmware/overlays nor $(DESTDIR)/boot/overlays exists (not a Raspberry Pi OS system?)" >&2; \
		exit 1; \
	fi; \
	echo "install -m 644 lps001wp.dtbo $$dir/"; \
	install -m 644 lps001wp.dtbo "$$dir/"
